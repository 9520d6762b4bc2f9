#!/usr/bin/env bash
# Peak memory of `placescost analyze` as the log grows 4x and 16x (at most 2x per 4x), for
# `--json` and for `--out DIR` (every report file, searches.csv streamed).
#
#   scripts/bench/memory-scaling.sh [BASE_SEARCHES]     (default 250000: 250k, 1M and 4M searches)
#
# Generates the logs with `placescost generate` into $BENCH_DIR (default /tmp/placescost-bench;
# 4 M searches is about 6.5 GB), runs analyze on each with GNU time and prints searches, log
# size, wall time, peak resident memory, and the peak's growth against the previous size.
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${1:-250000}"
dir="${BENCH_DIR:-/tmp/placescost-bench}"
mkdir -p "$dir"
swift build -c release >/dev/null
tool="$PWD/.build/release/placescost"
for mode in json out; do
    previous=""
    printf "analyze --%s\n%10s %9s %8s %9s %s\n" "$mode" searches "log MB" "time s" "peak MB" "growth"
    for searches in "$base" $((base * 4)) $((base * 16)); do
        log="$dir/calls-$searches-1.jsonl"
        if [[ ! -s "$log" ]]; then
            "$tool" generate --searches "$searches" --seed 1 --format jsonl > "$log.tmp"
            mv "$log.tmp" "$log"
        fi
        rm -rf "$dir/out"
        if [[ $mode == json ]]; then
            /usr/bin/time -f "%e %M" -o "$dir/time.txt" "$tool" analyze "$log" --json --quiet >/dev/null
        else
            /usr/bin/time -f "%e %M" -o "$dir/time.txt" "$tool" analyze "$log" --out "$dir/out" --quiet
        fi
        read -r seconds kb < "$dir/time.txt"
        growth=""
        [[ -n "$previous" ]] && growth=$(awk -v a="$kb" -v b="$previous" 'BEGIN { printf "x%.2f", a / b }')
        printf "%10d %9.0f %8.2f %9.0f %s\n" "$searches" "$(($(stat -c %s "$log") / 1048576))" "$seconds" "$((kb / 1024))" "$growth"
        previous="$kb"
    done
done
