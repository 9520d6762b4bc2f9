#!/usr/bin/env bash
# Measures HARReader's peak memory on a generated ~200 MB HAR capture.
#
# The measurement is a test that is skipped unless
# PLACESCOST_HAR_MEMORY=1: it writes the capture to a temporary file a megabyte at a time,
# streams it with HARReader, and fails if peak resident memory (VmHWM on Linux, ru_maxrss
# elsewhere) grows by 150 MB or more. It prints one "HAR memory:" line with the figures.
#
# Usage: scripts/bench/har-memory.sh [debug|release]   (default: debug)
set -euo pipefail
cd "$(dirname "$0")/../.."
configuration="${1:-debug}"
scratch="${SCRATCH_PATH:-.build}"
extra=()
if [[ "$configuration" == release ]]; then
    # The test target uses @testable import, which a release build allows only with testing enabled.
    extra=(-c release -Xswiftc -enable-testing)
fi
PLACESCOST_HAR_MEMORY=1 swift test --scratch-path "$scratch" "${extra[@]}" --filter HARMemoryTests 2>&1 \
    | grep -E 'HAR memory:|✔|✘|error:'
