#!/usr/bin/env python3
"""Check reference.py against the hand-derived cases/*.expected.json.

Each case is cases/NAME.jsonl or cases/NAME.csv with cases/NAME.expected.json and,
optionally, cases/NAME.args (extra command-line options, one line).
Usage: python3 run_cases.py [--command 'CMD ...']   (default: python3 reference.py)
The --command form lets the same cases run against the Swift binary's report.json
extraction, e.g. --command 'python3 extract_swift.py'.
An expected file holds sections (objects: each listed key is compared), `strategies` (a
list of {id, delay, list_cost_usd[, cost_usd][, valid]}: each listed entry must be present
with those values), and top-level numbers such as `break_even_requests`; numbers compare
within 1e-9.  In a `recommendation` section only `strategy`, `delay`, `keep_current` and
`tree_answer`'s `strategy` and `delay` are compared (when listed), never the other keys of
either side (the engine's path, savings and alternatives, the reference's debugging numbers).
The pricing cases (09-22) pass `--pricing ID`, which reference.py resolves to
../../Pricing/ID.json as the engine does, so e.g.
--command '.build/debug/placescost analyze --report json --quiet' runs them on the engine.
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RECOMMENDATION_KEYS = ("strategy", "delay", "keep_current")   # compared when listed
TREE_ANSWER_KEYS = ("strategy", "delay")      # of recommendation.tree_answer, when listed
STRATEGY_KEYS = ("list_cost_usd", "cost_usd", "valid")   # of a strategies[] entry, when listed


def same(got, want):
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(want, bool) and isinstance(got, bool) and got == want
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return abs(got - want) <= 1e-9
    return got == want


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--command", default="python3 " + os.path.join(HERE, "reference.py"))
    args = parser.parse_args()
    failures = 0
    expected_files = sorted(glob.glob(os.path.join(HERE, "cases", "*.expected.json")))
    for expected_path in expected_files:
        base = expected_path[: -len(".expected.json")]
        logs = [p for p in (base + ".jsonl", base + ".csv") if os.path.exists(p)]
        extra = []
        if os.path.exists(base + ".args"):
            extra = shlex.split(open(base + ".args").read())
        cmd = shlex.split(args.command) + extra + logs
        out = subprocess.run(cmd, capture_output=True, text=True)
        name = os.path.basename(base)
        if out.returncode != 0:
            print("FAIL", name, "exit", out.returncode, out.stderr.strip())
            failures += 1
            continue
        got = json.loads(out.stdout)
        want = json.load(open(expected_path))
        diffs = []
        for section in want:
            if section == "strategies":
                have = {(e.get("id"), e.get("delay")): e for e in got.get("strategies") or []}
                for entry in want[section]:
                    key = (entry["id"], entry["delay"])
                    for field in STRATEGY_KEYS:
                        if field in entry and not same((have.get(key) or {}).get(field),
                                                       entry[field]):
                            diffs.append("strategies %s delay %d: expected %s %r, got %r"
                                         % (key + (field, entry[field],
                                                   (have.get(key) or {}).get(field))))
            elif section == "recommendation":
                # only the answer, keep_current and the tree's answer are compared: the
                # engine's path/savings/alternatives and the reference's debugging keys
                # (needs_details, means_by_delay, ...) are not
                rec = got.get("recommendation")
                if not isinstance(rec, dict):
                    diffs.append("recommendation: expected %r, got %r" % (want[section], rec))
                    continue
                for key in RECOMMENDATION_KEYS:
                    if key in want[section] and not same(rec.get(key), want[section][key]):
                        diffs.append("recommendation.%s: expected %r, got %r"
                                     % (key, want[section][key], rec.get(key)))
                if "tree_answer" in want[section]:
                    tree = rec.get("tree_answer")
                    tree = tree if isinstance(tree, dict) else {}
                    for key in TREE_ANSWER_KEYS:
                        if key in want[section]["tree_answer"] and \
                                not same(tree.get(key), want[section]["tree_answer"][key]):
                            diffs.append("recommendation.tree_answer.%s: expected %r, got %r"
                                         % (key, want[section]["tree_answer"][key],
                                            tree.get(key)))
            elif isinstance(want[section], dict):
                for key in want[section]:
                    if not same(got.get(section, {}).get(key), want[section][key]):
                        diffs.append("%s.%s: expected %r, got %r"
                                     % (section, key, want[section][key],
                                        got.get(section, {}).get(key)))
            elif not same(got.get(section), want[section]):
                diffs.append("%s: expected %r, got %r" % (section, want[section], got.get(section)))
        if diffs:
            failures += 1
            print("FAIL", name)
            for d in diffs:
                print("   ", d)
        else:
            print("ok  ", name)
    print("%d case(s), %d failure(s)" % (len(expected_files), failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
