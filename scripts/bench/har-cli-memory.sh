#!/usr/bin/env bash
# Peak memory of `placescost analyze` (release) on generated 200 MB HAR captures.
#
#   scripts/bench/har-cli-memory.sh            # needs python3 and GNU time (/usr/bin/time)
#
# Two captures: "realistic" (2 KB responses, one 1 MB response in 5,000: ~80,000 entries) and
# "many small entries" (2-byte responses: ~330,000 entries). The HAR reader streams, so its own
# memory is one entry plus a 1 MiB read buffer (see HARMemoryTests), and analyze streams the
# calls into sessions, so the peak stays near the program's own size (41 MB and 52 MB).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release >/dev/null
for variant in "realistic:2000" "many-small-entries:2"; do
    name="${variant%%:*}"; bytes="${variant##*:}"
    file="/tmp/placescost-bench-$name.har"
    python3 -W ignore scripts/bench/har_generate.py "$file" --megabytes 200 --body-every 5000 --response-bytes "$bytes"
    /usr/bin/time -v .build/release/placescost analyze "$file" --json --quiet 2>/tmp/placescost-bench-time.txt >/dev/null
    echo "$name: $(grep 'Maximum resident' /tmp/placescost-bench-time.txt | awk '{print $NF/1024 " MB peak RSS"}'), $(grep 'Elapsed' /tmp/placescost-bench-time.txt | awk '{print $NF " wall"}')"
    rm -f "$file"
done
