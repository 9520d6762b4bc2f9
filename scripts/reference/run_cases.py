#!/usr/bin/env python3
"""Check reference.py against the hand-derived cases/*.expected.json.

Each case is cases/NAME.jsonl or cases/NAME.csv with cases/NAME.expected.json and,
optionally, cases/NAME.args (extra command-line options, one line).
Usage: python3 run_cases.py [--command 'CMD ...']   (default: python3 reference.py)
The --command form lets the same cases run against the Swift binary's report.json
extraction, e.g. --command 'python3 extract_swift.py'.
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


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
            for key in want[section]:
                if got.get(section, {}).get(key) != want[section][key]:
                    diffs.append("%s.%s: expected %r, got %r"
                                 % (section, key, want[section][key], got.get(section, {}).get(key)))
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
