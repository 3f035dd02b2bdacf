#!/usr/bin/env bash
# Runs the whole test suite: `bash Tests/run.sh` (what CI runs too).
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The end-to-end tests run the real areasd and areasctl binaries: build them first.
swift build
swift test --disable-swift-testing 2>&1 | tee "$log" || status=$?
# One plain summary line, whatever the runner printed.
passed=$(grep -cE "^Test Case .* passed" "$log" || true)
failed=$(grep -cE "^Test Case .* failed" "$log" || true)
echo "tests: $passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
