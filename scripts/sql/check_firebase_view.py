#!/usr/bin/env python3
"""Checks the Firebase recipe of docs/instrumentation.md end to end in DuckDB.

    .venv-sql/bin/python scripts/sql/check_firebase_view.py --engine .build/release/placescost

A generated canonical log is turned into the `places_call` events the recipe sends (typed text
becomes its length; a Google Analytics export holds each call as event_timestamp in
microseconds and event_params as {key, value: {string_value, int_value}}), loaded into a DuckDB
table `events` of the export's shape, and read through scripts/sql/firebase_view_duckdb.sql.
`placescost sql --dialect duckdb` over that view must give what `placescost analyze` gives on the
original log, for every strategy and delay. The BigQuery view is parsed with sqlglot.
Needs duckdb and sqlglot (check_sql.py installs them into .venv-sql/). Exits 1 on a mismatch.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import check_sql  # noqa: E402  (compare_summary, Engine, run_sql)

EVENTS = """CREATE TABLE events (
  event_name VARCHAR, event_timestamp BIGINT, user_pseudo_id VARCHAR, app_info STRUCT(id VARCHAR),
  event_params STRUCT(key VARCHAR, value STRUCT(string_value VARCHAR, int_value BIGINT))[], event_index BIGINT)"""


def micros(value):
    """A canonical timestamp (RFC 3339 or epoch milliseconds) in microseconds since 1970."""
    if isinstance(value, (int, float)) or str(value).isdigit():
        return int(value) * 1000
    moment = datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return int(moment.timestamp()) * 1_000_000 + moment.microsecond


def event(record, index):
    """The `places_call` event the recipe sends for one canonical record."""
    params = [{"key": "api", "value": {"string_value": record["api"], "int_value": None}}]
    token = record.get("session_token") or record.get("sessionToken")
    if token:
        params.append({"key": "session_token", "value": {"string_value": token, "int_value": None}})
    if record.get("input") is not None:
        params.append({"key": "input_length", "value": {"string_value": None, "int_value": len(record["input"])}})
    if record.get("fields"):
        params.append({"key": "fields", "value": {"string_value": ",".join(record["fields"]), "int_value": None}})
    return ("places_call", micros(record["timestamp"]), record.get("user_id"), {"id": record.get("project")}, params, index)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default=os.path.join(ROOT, ".build", "release", "placescost"))
    parser.add_argument("--seeds", default="1-6")
    args = parser.parse_args()
    try:
        import duckdb
        import sqlglot
    except ImportError:
        print("check_firebase_view.py: skipping: duckdb and sqlglot are missing (run scripts/sql/check_sql.py first, which installs them into .venv-sql/)")
        return 0
    engine = check_sql.Engine(os.path.abspath(args.engine))
    with open(os.path.join(HERE, "firebase_view_bigquery.sql")) as handle:
        sqlglot.parse_one(handle.read(), read="bigquery")
    with open(os.path.join(HERE, "firebase_view_duckdb.sql")) as handle:
        view = handle.read()
    first, last = (int(part) for part in args.seeds.split("-"))
    failures = 0
    for seed in range(first, last + 1):
        with tempfile.TemporaryDirectory() as directory:
            log = os.path.join(directory, "log.jsonl")
            with open(log, "w") as handle:
                handle.write(engine.run(["generate", "--searches", "300", "--seed", str(seed), "--format", "jsonl"]))
            with open(log) as handle:
                records = [json.loads(line) for line in handle if line.strip()]
            con = duckdb.connect()
            con.execute(EVENTS)
            con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", [event(r, i) for i, r in enumerate(records)])
            con.execute(view)
            row = check_sql.run_sql(con, engine.sql("duckdb", ["--pricing", "legacy-list", "--order-column", "event_index"]))[0]
            report = engine.report(log, "legacy-list", [])
            problems = check_sql.compare_summary(row, report)
            print("%s seed %d: %d records%s" % ("ok  " if not problems else "FAIL", seed, len(records), "" if not problems else ": " + "; ".join(problems[:4])))
            failures += bool(problems)
    print("check_firebase_view.py: %d passed, %d failed" % (last - first + 1 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
