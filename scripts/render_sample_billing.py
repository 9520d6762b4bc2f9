#!/usr/bin/env python3
"""Write SampleLogs/billing/cost-table-2026-10.csv: a Cloud Billing console cost-table export for
the sample traffic's month, so that `placescost reconcile --billing` has a bill to compare with.

    python3 scripts/render_sample_billing.py [--engine .build/debug/placescost]

The usage amounts are the engine's estimate for SampleLogs/ios-app.jsonl (the `current`
strategy), except Places Details, billed 3% higher as if another app on the account used it too
(so the reconciliation shows one flagged drift). A Maps JavaScript API row (another service),
a credit row, a tax row and a total row stand where real exports have them. Costs follow the
legacy-2025 table: this volume stays inside the monthly free caps, so every SKU costs $0.
"""

import argparse
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "SampleLogs", "billing", "cost-table-2026-10.csv")
HEADER = ("Billing account name,Billing account ID,Project name,Project ID,Project hierarchy,Service description,"
          "Service ID,SKU description,SKU ID,Consumption model description,Credit type,Cost type,Usage start date,"
          "Usage end date,Usage amount,Usage unit,Unrounded Cost ($),Cost ($)")
SERVICES = {"Geocoding": ("Geocoding API", "E0E8-B2D7-8DCB")}
PLACES = ("Places API", "8C2E-47D6-6F3B")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "placescost"))
    args = parser.parse_args()
    report = json.loads(subprocess.run(
        [args.engine, "analyze", os.path.join(ROOT, "SampleLogs", "ios-app.jsonl"), "--json", "--quiet"],
        check=True, capture_output=True, text=True).stdout)
    current = next(s for s in report["strategies"] if s["id"] == "current" and s["delay"] == 0)
    lines = [
        "Invoice number,5012345678",
        "Billing account ID,01ABCD-234EF5-6789GH",
        "Billing account name,Example Mobility Ltd",
        "Invoice month,2026-10",
        "Currency,USD",
        "",
        HEADER,
    ]
    for index, (sku, count) in enumerate(current["skus"].items()):
        if count == 0 or "(not priced)" in sku:
            continue
        if sku == "Places Details":
            count = round(count * 1.03)
        service, service_id = SERVICES.get(sku, PLACES)
        lines.append(",".join([
            "Example Mobility Ltd", "01ABCD-234EF5-6789GH", "Example Mobility", "example-mobility-prod", "",
            service, service_id, '"%s"' % sku if "," in sku else sku, "SKU-%04d" % (index + 1), "Default", "", "Usage",
            "2026-10-01", "2026-10-31", '"{:,}"'.format(count), "count", "0.000000", "0.00",
        ]))
    lines.append("Example Mobility Ltd,01ABCD-234EF5-6789GH,Example Mobility,example-mobility-prod,,Maps JavaScript API,"
                 "0AC2-4B25-C429,Dynamic Maps,SKU-0101,Default,,Usage,2026-10-01,2026-10-31,\"1,204\",count,0.000000,0.00")
    lines.append("Example Mobility Ltd,01ABCD-234EF5-6789GH,Example Mobility,example-mobility-prod,,Places API,"
                 "8C2E-47D6-6F3B,Places Details,SKU-0005,Default,Google Maps Platform monthly credit,Credit,"
                 "2026-10-01,2026-10-31,0,count,0.000000,0.00")
    lines.append(",,,,,,,,,,,Tax,,,,,0.000000,0.00")
    lines.append(",,,,,,,,,,,Total,,,,,0.000000,0.00")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as out:
        out.write("\n".join(lines) + "\n")
    print("wrote", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
