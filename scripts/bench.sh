#!/usr/bin/env bash
# Benchmark: `placescost analyze` against DuckDB's group-by on the same canonical JSON Lines log,
# both ways a user runs it: `--report json` (the report on standard output) and `--out DIR` (every
# file: report.md, report.json, searches.csv, costs.csv, the charts).
#
#   scripts/bench.sh [--searches N] [--seed S] [--runs R]     (defaults: 1000000, 1, 3)
#
# Generates the log once with `placescost generate` (1 M searches is about 1.6 GB) into
# $BENCH_DIR (default /tmp/placescost-bench), makes a Python virtual environment there with
# DuckDB from pip, then runs the three alternately R times and prints, for each, the median wall
# time, MB/s, the median peak resident memory (GNU time) and the median CPU time (user +
# system), and the ratios to DuckDB. Not part of CI.
#
# On a shared virtual machine the wall times of both tools drift together by 10-20% from one
# minute to the next: compare the ratios within one run of this script, not across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
searches=1000000
seed=1
runs=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --searches) searches="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        *) echo "usage: scripts/bench.sh [--searches N] [--seed S] [--runs R]" >&2; exit 64 ;;
    esac
done
dir="${BENCH_DIR:-/tmp/placescost-bench}"
mkdir -p "$dir"
log="$dir/calls-$searches-$seed.jsonl"

swift build -c release >/dev/null
tool="$PWD/.build/release/placescost"
if [[ ! -s "$log" ]]; then
    echo "generating $log ..."
    "$tool" generate --searches "$searches" --seed "$seed" --format jsonl > "$log.tmp"
    mv "$log.tmp" "$log"
fi
if [[ ! -x "$dir/venv/bin/python" ]]; then
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q duckdb
fi
bytes=$(stat -c %s "$log")

# DuckDB's equivalent of the grouping step: every call grouped by session token.
cat > "$dir/duckdb_groupby.py" <<'PY'
import sys, duckdb
con = duckdb.connect()
rows = con.execute(
    "SELECT count(*), count(DISTINCT session_token) FROM ("
    " SELECT session_token, count(*) AS calls FROM read_json(?, format='newline_delimited',"
    " columns={'timestamp':'VARCHAR','api':'VARCHAR','session_token':'VARCHAR','input':'VARCHAR'})"
    " GROUP BY session_token)", [sys.argv[1]]).fetchall()
print(rows)
PY

measure() {  # prints "seconds peak_kb cpu_seconds"
    # Each run starts with nothing left for the disk to do: the previous `--out` removed and its
    # blocks freed, no writeback under way, so one run's I/O is never timed in the next.
    sync
    /usr/bin/time -f "%e %M %U %S" -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || { cat "$dir/stderr.txt" >&2; exit 1; }
    awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$dir/time.txt"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: > "$dir/json.txt"; : > "$dir/out.txt"; : > "$dir/duck.txt"
for ((run = 1; run <= runs; run++)); do
    measure "$tool" analyze "$log" --json --quiet >> "$dir/json.txt"
    rm -rf "$dir/out"
    measure "$tool" analyze "$log" --out "$dir/out" --quiet >> "$dir/out.txt"
    measure "$dir/venv/bin/python" "$dir/duckdb_groupby.py" "$log" >> "$dir/duck.txt"
done
rows=$(($(wc -l < "$dir/out/searches.csv") - 1))
column() { cut -d' ' -f"$2" "$dir/$1.txt" | median; }
awk -v b="$bytes" -v r="$runs" -v rows="$rows" \
    -v js="$(column json 1)" -v jk="$(column json 2)" -v jc="$(column json 3)" \
    -v os="$(column out 1)" -v ok="$(column out 2)" -v oc="$(column out 3)" \
    -v ds="$(column duck 1)" -v dk="$(column duck 2)" -v dc="$(column duck 3)" 'BEGIN {
    mb = b / 1048576
    printf "log: %.0f MB, %d searches; median of %d alternating runs\n", mb, rows, r
    printf "placescost analyze --json:    %6.2f s  %7.1f MB/s  peak %6.0f MB  cpu %6.2f s\n", js, mb / js, jk / 1024, jc
    printf "placescost analyze --out DIR: %6.2f s  %7.1f MB/s  peak %6.0f MB  cpu %6.2f s\n", os, mb / os, ok / 1024, oc
    printf "duckdb group-by:              %6.2f s  %7.1f MB/s  peak %6.0f MB  cpu %6.2f s\n", ds, mb / ds, dk / 1024, dc
    printf "--json against duckdb: time %.2f, memory %.2f, cpu %.2f\n", js / ds, jk / dk, jc / dc
    printf "--out  against duckdb: time %.2f, memory %.2f, cpu %.2f\n", os / ds, ok / dk, oc / dc
}'
