#!/usr/bin/env bash
# Rewrites the sample outputs in docs/examples/ from the commands listed in
# Tests/PlacesCostKitTests/Examples/ExampleOutputsTests.swift (the one list of them), after
# making the fixed log the before-and-after example compares with. Review the diff, then commit.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 scripts/examples/fix_tokens.py
RECORD_GOLDEN=1 swift test --filter "ExampleOutputsTests"
git status --short docs/examples
