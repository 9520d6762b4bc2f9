#!/usr/bin/env bash
# Builds PlacesCost's libFuzzer targets and runs one of them.
#
#   scripts/fuzz.sh build                      # (re)builds .build-fuzz/placescost-fuzz
#   scripts/fuzz.sh TARGET [SECONDS] [ARGS...] # runs TARGET (default 600 s) on its corpus
#
# Targets (scripts/fuzz/FuzzTargets.swift): jsonl-line jsonl csv access-log access-log-line
# json-access-record har billing pricing analyze sessions numbers request (scripts/fuzz/run runs
# `numbers`).
# The corpus of TARGET is Tests/PlacesCostKitTests/Fixtures/Malformed/<format> (read only) plus
# .build-fuzz/corpus/TARGET (where libFuzzer adds what it finds); crashes land in
# .build-fuzz/findings/TARGET/; copy a finding into the corpus folder as fuzz-WHAT.EXT once it is
# fixed (MalformedCorpusTests reads every such file). Needs the Swift toolchain's libFuzzer (Linux).
# LeakSanitizer is off (per input and at exit): it reports Swift's lazily initialised globals
# (AccessLogFormat.combined, made once per process, not per input) as leaks; memory that grows
# with the inputs is caught by -rss_limit_mb instead.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-fuzz
binary=$out/placescost-fuzz

build() {
    mkdir -p "$out"
    # Compile a snapshot, so that editing the sources during the build cannot fail it.
    rm -rf "$out/src"
    mkdir -p "$out/src"
    cp -R Sources/PlacesCostKit Sources/PlacesCostReference scripts/fuzz "$out/src/"
    local sources
    sources=$(find "$out/src/PlacesCostKit" "$out/src/PlacesCostReference" -name '*.swift' | sort)
    # One module: the targets reach the library's internal types and the reference's slow twins
    # (whose `import PlacesCostKit` is then ignored, with a warning). Release-optimized with the
    # address sanitizer and coverage instrumentation for libFuzzer.
    # shellcheck disable=SC2086
    swiftc -module-name PlacesCostKit -package-name PlacesCost -parse-as-library -O -g \
        -sanitize=fuzzer,address -enable-testing \
        $sources "$out/src/fuzz/"*.swift -o "$binary.tmp"
    mv "$binary.tmp" "$binary"
}

corpus_folder() {
    case "$1" in
        jsonl-line|jsonl|analyze|sessions) echo jsonl ;;
        access-log-line) echo access-log ;;
        *) echo "$1" ;;
    esac
}

if [[ $# -lt 1 ]]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 64
fi
if [[ $1 == build ]]; then
    build
    exit 0
fi
target=$1
seconds=${2:-600}
shift $(( $# >= 2 ? 2 : 1 ))
# Built once; run `scripts/fuzz.sh build` again after changing the sources.
[[ -x $binary ]] || build
seeds=Tests/PlacesCostKitTests/Fixtures/Malformed/$(corpus_folder "$target")
# The numbers target's seeds are a slot byte and a number each, not files of a format.
[[ $target == numbers ]] && seeds=scripts/fuzz/numbers-seeds
[[ $target == request ]] && seeds=scripts/fuzz/request-seeds
[[ $target == json-access-record ]] && seeds=scripts/fuzz/json-access-seeds
mkdir -p "$out/corpus/$target" "$out/findings/$target"
PLACESCOST_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0 exec "$binary" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 -detect_leaks=0 \
    -artifact_prefix="$out/findings/$target/" -print_final_stats=1 \
    $( [[ -f scripts/fuzz/$target.dict ]] && echo "-dict=scripts/fuzz/$target.dict" ) \
    "$@" "$out/corpus/$target" "$seeds"
