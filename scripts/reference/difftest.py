#!/usr/bin/env python3
"""Differential test: random_log.py logs -> reference.py vs. an engine command.

Usage:
    python3 difftest.py [--engine 'CMD'] [--seeds 1-200] [--searches 300] [--keep DIR]
                        [--pricing-tables legacy-list,places-new-2025] [--delays 1,2,3,4,5,6]
                        [--api-version legacy|new|mixed] [--profiles [P,P,...]]

CMD is split with shlex, then gets '--session-timeout T --user-gap G FILE...' appended and
must print report.json on stdout (default: the release build of placescost with
'analyze --report json').  Only the keys reference.py prints are compared: input.records,
input.rejected, input.by_api (entries with count 0 ignored), searches.*, anomalies.*.
Each seed is run as JSONL and as CSV; every third seed is also split into two files (ties
across files keep file order), and every fifth seed uses non-default timeout/gap.
A failing seed's files and both outputs are kept under DIR (default /tmp/placescost-diff).

With --pricing-tables ID,ID each run is repeated per table: the reference gets
'--pricing Pricing/ID.json --delays D' and the engine '--pricing ID --delays D'; besides the
keys above, every strategy's list_cost_usd and cost_usd at delay 0 and at each delay of D
(and 1..4) is compared (equal within 1e-6 relative or 1e-9 absolute), its `valid` flag, and
break_even_requests (to 5e-7).  For a strategy whose list_cost_usd differs the SKU counts of
both sides are shown (engine SKUs outside the table, e.g. unpriced ones, and zero counts are
left out).  --api-version is passed on to random_log.py (default: its own random mix).
With --pricing-tables the recommendation is compared too (both sides at their defaults,
--needs-details auto and --max-delay 4): `recommendation.strategy`, `.delay`,
`.keep_current` and `.tree_answer`'s strategy and delay (the decision tree, rules P8-P10,
and the money, rule P11, of reference.py); an engine report without a `recommendation` key
is a failure "recommendation missing".  On a difference the reference's numbers
(needs_details, masked selections, means by delay, exact break-even, the bill of the calls
as made and of its cheapest valid option) and the engine's `path` and
`differs_from_tree_because` are shown.
--profiles [P,P,...] (default list, when given bare: address-short, address-delay,
address-long, details, mix, random) passes `--profile P` to random_log.py, cycling over the
seeds: seed S uses P[(S + S // len) % len], shifted by one every len seeds so that each profile
also meets the split-file (S % 3 == 0) and short-timeout (S % 5 == 0) seeds.  At the end it
prints, per table and profile, how often the reference's recommendation landed on each
strategy/delay, how often it kept the current integration, how often it differed from the
tree's answer, and how often the tree's answer landed in each branch, so that one can see
every branch of the tree was exercised.  Without --profiles the logs are
random_log.py's default (random) bytes, as before.
"""
import argparse
import collections
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENGINE = os.path.join(HERE, "..", "..", ".build", "release", "placescost") \
    + " analyze --report json"
ALL_PROFILES = "address-short,address-delay,address-long,details,mix,random"


def subset(report):
    inp = report.get("input", {})
    return {
        "input": {"records": inp.get("records"), "rejected": inp.get("rejected"),
                  "by_api": {k: v for k, v in (inp.get("by_api") or {}).items() if v}},
        "searches": {k: report.get("searches", {}).get(k) for k in
                     ("total", "completed", "abandoned", "avg_requests", "avg_requests_completed")},
        "anomalies": {k: report.get("anomalies", {}).get(k) for k in
                      ("token_reused", "expired", "details_without_autocomplete",
                       "no_token_requests", "fields_unspecified", "one_request_sessions")},
    }


def differences(want, got, path=""):
    out = []
    for key in sorted(set(want) | set(got)):
        a, b = want.get(key), got.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += differences(a, b, path + key + ".")
        elif isinstance(a, float) or isinstance(b, float):
            if a is None or b is None or abs(a - b) > 5e-7:
                out.append("%s%s: reference %r, engine %r" % (path, key, a, b))
        elif a != b:
            out.append("%s%s: reference %r, engine %r" % (path, key, a, b))
    return out


def close(a, b):
    return abs(a - b) <= 1e-9 or abs(a - b) <= 1e-6 * max(abs(a), abs(b))


def table_sku_names(path):
    with open(path) as handle:
        return {sku["name"] for sku in json.load(handle)["skus"]}


def strategy_differences(want, got, sku_names, limit=8):
    """Compare strategies[] list costs by (id, delay); `want` is the reference's report."""
    out = []
    engine = {}
    for entry in got.get("strategies") or []:
        engine[(entry.get("id"), entry.get("delay"))] = entry
    for entry in want["strategies"]:
        key = (entry["id"], entry["delay"])
        other = engine.get(key)
        a = entry["list_cost_usd"]
        if other is None:
            out.append("strategy %s delay %d: reference list_cost_usd %r, engine has no entry"
                       % (key + (a,)))
            continue
        c, d = entry["cost_usd"], other.get("cost_usd")
        if not isinstance(d, (int, float)) or isinstance(d, bool) or not close(c, d):
            out.append("strategy %s delay %d: cost_usd reference %r, engine %r" % (key + (c, d)))
        if other.get("valid") is not entry["valid"]:
            out.append("strategy %s delay %d: valid reference %r, engine %r"
                       % (key + (entry["valid"], other.get("valid"))))
        b = other.get("list_cost_usd")
        if not isinstance(b, (int, float)) or isinstance(b, bool) or not close(a, b):
            line = "strategy %s delay %d: list_cost_usd reference %r, engine %r" % (key + (a, b))
            if isinstance(b, (int, float)):
                line += " (engine - reference = %+.6f)" % (b - a)
            out.append(line)
            ref_skus = {k: v for k, v in entry.get("skus", {}).items() if v}
            eng_skus = {k: v for k, v in (other.get("skus") or {}).items()
                        if v and k in sku_names}
            for name in sorted(set(ref_skus) | set(eng_skus)):
                if ref_skus.get(name, 0) != eng_skus.get(name, 0):
                    out.append("        sku %r: reference %d, engine %d"
                               % (name, ref_skus.get(name, 0), eng_skus.get(name, 0)))
    a, b = want.get("break_even_requests"), got.get("break_even_requests")
    if not isinstance(b, (int, float)) or abs(a - b) > 5e-7:
        out.append("break_even_requests: reference %r, engine %r" % (a, b))
    shown = [line for line in out if not line.startswith("        ")]
    if len(shown) > limit:
        kept, count = [], 0
        for line in out:
            if not line.startswith("        "):
                count += 1
            if count > limit:
                break
            kept.append(line)
        kept.append("... and %d more strategy difference(s)" % (len(shown) - limit))
        out = kept
    return out


def answer(rec):
    """(strategy, delay) of a recommendation or tree_answer object (None when absent)."""
    return (rec.get("strategy"), rec.get("delay")) if isinstance(rec, dict) else None


def recommendation_differences(want, got):
    """Compare recommendation.strategy, .delay, .keep_current and .tree_answer's strategy and
    delay; `want` is the reference's report."""
    ref = want["recommendation"]
    rec = got.get("recommendation")
    if rec is None:
        return ["recommendation missing"]
    if not isinstance(rec, dict):
        return ["recommendation is not an object: %r" % (rec,)]
    out = []
    if answer(rec) != answer(ref):
        out.append("recommendation: reference %s delay %r, engine %s delay %r"
                   % (ref["strategy"], ref["delay"], rec.get("strategy"), rec.get("delay")))
    if rec.get("keep_current") is not ref["keep_current"]:
        out.append("recommendation.keep_current: reference %r, engine %r"
                   % (ref["keep_current"], rec.get("keep_current")))
    if answer(rec.get("tree_answer")) != answer(ref["tree_answer"]):
        out.append("recommendation.tree_answer: reference %s delay %r, engine %r"
                   % (ref["tree_answer"]["strategy"], ref["tree_answer"]["delay"],
                      answer(rec.get("tree_answer"))))
    if not out:
        return []
    out.append("        reference: needs_details %s (%s; %d masked selection(s), %d needing "
               "details), break-even %r, means by delay %s"
               % (ref["needs_details"], ref["needs_details_source"], ref["selections_masked"],
                  ref["selections_needing_details"], want.get("break_even_requests"),
                  json.dumps(ref["means_by_delay"], sort_keys=True)))
    options = [e for e in want["strategies"] if e["delay"] <= len(ref["means_by_delay"]) - 1]
    current0 = [e for e in options if e["id"] == "current" and e["delay"] == 0]
    valid = sorted((e for e in options if e["valid"] and e["id"] != "current"),
                   key=lambda e: (e["cost_usd"], e["delay"]))
    out.append("        reference bills: current delay 0 %s; cheapest valid %s"
               % (current0[0]["cost_usd"] if current0 else "?",
                  ", ".join("%s/%d %r" % (e["id"], e["delay"], e["cost_usd"])
                            for e in valid[:3]) or "-"))
    if rec.get("path") is not None:
        out.append("        engine path: %s" % json.dumps(rec.get("path"), ensure_ascii=False))
    if rec.get("differs_from_tree_because") is not None:
        out.append("        engine differs_from_tree_because: %s"
                   % json.dumps(rec.get("differs_from_tree_because"), ensure_ascii=False))
    return out


def run_json(cmd):
    proc = subprocess.run(cmd, capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError("exit %d: %s" % (proc.returncode, proc.stderr.decode(errors="replace")[-500:]))
    return json.loads(proc.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default=DEFAULT_ENGINE)
    parser.add_argument("--seeds", default="1-100")
    parser.add_argument("--searches", type=int, default=300)
    parser.add_argument("--keep", default="/tmp/placescost-diff")
    parser.add_argument("--pricing-tables", default="",
                        help="comma-separated table ids of Pricing/ to compare list costs with")
    parser.add_argument("--pricing-dir", default=os.path.join(HERE, "..", "..", "Pricing"))
    parser.add_argument("--delays", default="1,2,3,4,5,6")
    parser.add_argument("--api-version", choices=["legacy", "new", "mixed"])
    parser.add_argument("--profiles", nargs="?", const=ALL_PROFILES, default=None,
                        help="comma-separated random_log.py profiles to cycle over the seeds "
                             "(bare flag: all of " + ALL_PROFILES + ")")
    args = parser.parse_args()
    profiles = [p for p in (args.profiles or "").split(",") if p]
    landed = collections.Counter()   # (table, profile, strategy, delay) -> runs, reference side
    kept = collections.Counter()     # (table, profile) -> runs where the reference keeps current
    differs = collections.Counter()  # (table, profile) -> runs where it is not the tree's answer
    trees = collections.Counter()    # (table, profile, strategy, delay) -> tree's answers
    tables = [t for t in args.pricing_tables.split(",") if t]
    sku_names = {t: table_sku_names(os.path.join(args.pricing_dir, t + ".json")) for t in tables}
    lo, _, hi = args.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    os.makedirs(args.keep, exist_ok=True)
    failures = 0
    for seed in seeds:
        profile = None
        if profiles:
            profile = profiles[(seed + seed // len(profiles)) % len(profiles)]
        for fmt in ("jsonl", "csv"):
            base = os.path.join(args.keep, "seed%d" % seed)
            path = "%s.%s" % (base, fmt)
            with open(path, "wb") as handle:
                subprocess.run([sys.executable, os.path.join(HERE, "random_log.py"), "--seed",
                                str(seed), "--searches", str(args.searches), "--format", fmt]
                               + (["--api-version", args.api_version] if args.api_version else [])
                               + (["--profile", profile] if profile else []),
                               stdout=handle, check=True)
            files = [path]
            if seed % 3 == 0 and fmt == "jsonl":      # split into two files
                data = open(path, "rb").read().split(b"\n")
                cut = len(data) // 2
                while cut < len(data) and not data[cut].startswith(b"{"):
                    cut += 1          # part 2 must start with a record to be read as JSONL
                files = [base + ".part1.jsonl", base + ".part2.jsonl"]
                open(files[0], "wb").write(b"\n".join(data[:cut]) + b"\n")
                open(files[1], "wb").write(b"\n".join(data[cut:]))
            timeout, gap = ("180", "60") if seed % 5 else ("60", "30")
            options = ["--session-timeout", timeout, "--user-gap", gap]
            diffs = []
            for i, table in enumerate(tables or [None]):
                ref_extra, eng_extra, label = [], [], ""
                if table:
                    ref_extra = ["--pricing", os.path.join(args.pricing_dir, table + ".json"),
                                 "--delays", args.delays, "--skus"]
                    eng_extra = ["--pricing", table, "--delays", args.delays]
                    label = "[%s] " % table
                full = run_json([sys.executable, os.path.join(HERE, "reference.py")]
                                + options + ref_extra + files)
                if table and profile:
                    rec = full["recommendation"]
                    landed[(table, profile, rec["strategy"], rec["delay"])] += 1
                    trees[(table, profile) + answer(rec["tree_answer"])] += 1
                    kept[(table, profile)] += rec["keep_current"]
                    differs[(table, profile)] += answer(rec) != answer(rec["tree_answer"])
                try:
                    engine = run_json(shlex.split(args.engine) + options + eng_extra + files)
                    if i == 0:
                        diffs += differences(subset(full), subset(engine))
                    if table:
                        diffs += [label + d if not d.startswith(" ") else d
                                  for d in strategy_differences(full, engine, sku_names[table])]
                        diffs += [label + d if not d.startswith(" ") else d
                                  for d in recommendation_differences(full, engine)]
                except (RuntimeError, ValueError, OSError) as error:
                    diffs.append("%sengine failed: %s" % (label, error))
            if diffs:
                failures += 1
                print("FAIL seed %d %s%s (%s)" % (seed, fmt,
                                                  " profile %s" % profile if profile else "",
                                                  " ".join(options + files)))
                for line in diffs:
                    print("    " + line)
            else:
                for f in files:
                    os.remove(f)
                if files != [path]:
                    os.remove(path)
    if landed:
        print("reference recommendations per table and profile (runs; keep current = no valid "
              "option bills less than the calls as made; tree = the decision tree's answer):")
        for table in tables:
            for profile in profiles:
                counts = sorted((s, d, n) for (t, p, s, d), n in landed.items()
                                if t == table and p == profile)
                tree_counts = sorted((s, d, n) for (t, p, s, d), n in trees.items()
                                     if t == table and p == profile)
                print("    [%s] %s: %s; keep current x%d, not the tree's answer x%d; tree: %s"
                      % (table, profile,
                         ", ".join("%s/%d x%d" % c for c in counts) or "-",
                         kept[(table, profile)], differs[(table, profile)],
                         ", ".join("%s/%d x%d" % c for c in tree_counts) or "-"))
    print("%d run(s), %d failure(s)" % (len(seeds) * 2, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
