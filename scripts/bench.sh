#!/usr/bin/env bash
# Benchmark: `placescost analyze` against DuckDB's group-by on the same canonical JSON Lines log.
#
#   scripts/bench.sh [--searches N] [--seed S] [--runs R]     (defaults: 1000000, 1, 3)
#
# Generates the log once with `placescost generate` (1 M searches is about 1.4 GB) into
# $BENCH_DIR (default /tmp/placescost-bench), makes a Python virtual environment there with
# DuckDB from pip, then runs the two alternately R times and prints, for each, the median wall
# time, MB/s, the median peak resident memory (GNU time) and the median CPU time (user +
# system), and the ratios. Not part of CI.
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
    /usr/bin/time -f "%e %M %U %S" -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || { cat "$dir/stderr.txt" >&2; exit 1; }
    awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$dir/time.txt"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: > "$dir/tool.txt"; : > "$dir/duck.txt"
for ((run = 1; run <= runs; run++)); do
    measure "$tool" analyze "$log" --json --quiet >> "$dir/tool.txt"
    measure "$dir/venv/bin/python" "$dir/duckdb_groupby.py" "$log" >> "$dir/duck.txt"
done
tool_s=$(cut -d' ' -f1 "$dir/tool.txt" | median); tool_kb=$(cut -d' ' -f2 "$dir/tool.txt" | median); tool_cpu=$(cut -d' ' -f3 "$dir/tool.txt" | median)
duck_s=$(cut -d' ' -f1 "$dir/duck.txt" | median); duck_kb=$(cut -d' ' -f2 "$dir/duck.txt" | median); duck_cpu=$(cut -d' ' -f3 "$dir/duck.txt" | median)
awk -v b="$bytes" -v ts="$tool_s" -v tk="$tool_kb" -v tc="$tool_cpu" -v ds="$duck_s" -v dk="$duck_kb" -v dc="$duck_cpu" -v r="$runs" 'BEGIN {
    mb = b / 1048576
    printf "log: %.0f MB; median of %d alternating runs\n", mb, r
    printf "placescost analyze: %6.2f s  %7.1f MB/s  peak %6.0f MB  cpu %6.2f s\n", ts, mb / ts, tk / 1024, tc
    printf "duckdb group-by:    %6.2f s  %7.1f MB/s  peak %6.0f MB  cpu %6.2f s\n", ds, mb / ds, dk / 1024, dc
    printf "time ratio (placescost / duckdb): %.2f; memory ratio: %.2f; cpu ratio: %.2f\n", ts / ds, tk / dk, tc / dc
}'
