#!/usr/bin/env python3
"""Differential test: random_log.py logs -> reference.py vs. an engine command.

Usage:
    python3 difftest.py [--engine 'CMD'] [--seeds 1-200] [--searches 300] [--keep DIR]

CMD is split with shlex, then gets '--session-timeout T --user-gap G FILE...' appended and
must print report.json on stdout (default: the release build of placescost with
'analyze --report json').  Only the keys reference.py prints are compared: input.records,
input.rejected, input.by_api (entries with count 0 ignored), searches.*, anomalies.*.
Each seed is run as JSONL and as CSV; every third seed is also split into two files (ties
across files keep file order), and every fifth seed uses non-default timeout/gap.
A failing seed's files and both outputs are kept under DIR (default /tmp/placescost-diff).
"""
import argparse
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENGINE = os.path.join(HERE, "..", "..", ".build", "release", "placescost") \
    + " analyze --report json"


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
    args = parser.parse_args()
    lo, _, hi = args.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    os.makedirs(args.keep, exist_ok=True)
    failures = 0
    for seed in seeds:
        for fmt in ("jsonl", "csv"):
            base = os.path.join(args.keep, "seed%d" % seed)
            path = "%s.%s" % (base, fmt)
            with open(path, "wb") as handle:
                subprocess.run([sys.executable, os.path.join(HERE, "random_log.py"), "--seed",
                                str(seed), "--searches", str(args.searches), "--format", fmt],
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
            want = subset(run_json([sys.executable, os.path.join(HERE, "reference.py")]
                                   + options + files))
            try:
                got = subset(run_json(shlex.split(args.engine) + options + files))
                diffs = differences(want, got)
            except (RuntimeError, ValueError) as error:
                diffs = ["engine failed: %s" % error]
            if diffs:
                failures += 1
                print("FAIL seed %d %s (%s)" % (seed, fmt, " ".join(options + files)))
                for line in diffs:
                    print("    " + line)
            else:
                for f in files:
                    os.remove(f)
                if files != [path]:
                    os.remove(path)
    print("%d run(s), %d failure(s)" % (len(seeds) * 2, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
