#!/usr/bin/env bash
# Runs the whole test suite: `bash Tests/run.sh` (what CI runs too). Builds the package, runs
# every test target (XCTest and Swift Testing), then the concurrent tests again under
# ThreadSanitizer, and prints one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# promtool checks the metrics text (Debian ships it in the prometheus package); fish and zsh run
# the completion scripts, mandoc lints the manual pages, nginx runs the README's server block.
missing=""
command -v promtool >/dev/null || missing="$missing prometheus"
for tool in fish zsh mandoc nginx curl openssl; do command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] || missing="$missing $tool"; done
command -v groff >/dev/null || missing="$missing groff-base"
if [ -n "$missing" ] && command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
  { DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; }; } \
    || echo "note: could not install$missing; the tests that need them are skipped"
fi
# The end-to-end tests run the real areasd and areasctl binaries: build them first.
swift build
swift test 2>&1 | tee "$log" || status=$?
# The concurrent tests again under ThreadSanitizer: many clients during refresh swaps,
# shutdown under load, the fetcher's task group.
if [ "$status" -eq 0 ]; then
  echo "== the concurrent tests under ThreadSanitizer =="
  swift test --sanitize=thread --disable-swift-testing \
    --filter 'AreasServerTests.ServerTests|AreasServerTests.OperationsTests.testSigterm|AreasCoreTests.AreaIndexTests|AreasIngestTests.FetchTests.testClean' 2>&1 | tee -a "$log" || status=$?
  if grep -q "WARNING: ThreadSanitizer" "$log"; then echo "ThreadSanitizer reported a race"; status=1; fi
fi
# One plain summary line, whatever the runners printed: XCTest's "Test Case ... passed" and
# Swift Testing's "✔ Test ... passed" (a parameterised test counts once).
passed=$(grep -E "^Test Case .* passed|^✔ Test .* passed" "$log" | grep -vc "^✔ Test run with" || true)
failed=$(grep -E "^Test Case .* failed|^✘ Test .* failed" "$log" | grep -vc "^✘ Test run with" || true)
echo "tests: $passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
