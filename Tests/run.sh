#!/usr/bin/env bash
# Runs the whole test suite: `bash Tests/run.sh` (what CI runs too). Builds the package, runs
# every test target (XCTest and Swift Testing), then the concurrent tests again under
# ThreadSanitizer, and prints one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
status=0
# promtool checks the metrics text (Debian ships it in the prometheus package); fish and zsh run
# the completion scripts, mandoc lints the manual pages, nginx runs the README's server block;
# systemd-nspawn boots a real systemd for the units, setpriv asks as another user, man and
# script show the manual as a terminal sees it.
missing=""
command -v promtool >/dev/null || missing="$missing prometheus"
for tool in fish zsh mandoc nginx curl openssl; do command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] || missing="$missing $tool"; done
command -v groff >/dev/null || missing="$missing groff-base"
command -v systemd-nspawn >/dev/null || missing="$missing systemd-container"
command -v setpriv >/dev/null || missing="$missing util-linux"
command -v man >/dev/null || missing="$missing man-db"
command -v systemd-analyze >/dev/null || missing="$missing systemd"
# The map page: Debian's Leaflet, and a real browser with Korean fonts to load it in.
[ -e /usr/share/javascript/leaflet/leaflet.js ] || missing="$missing libjs-leaflet libjs-leaflet.markercluster"
command -v chromium >/dev/null || missing="$missing chromium"
command -v chromedriver >/dev/null || missing="$missing chromium-driver"
/usr/bin/python3 -c "import selenium" 2>/dev/null || missing="$missing python3-selenium"
[ -d /usr/share/fonts/opentype/noto ] || missing="$missing fonts-noto-cjk"
if [ -n "$missing" ] && command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
  echo "== installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { timeout 600 apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; }
  apt_install || { timeout 300 apt-get update >/dev/null 2>&1 && apt_install; } \
    || echo "note: could not install$missing; the tests that need them are skipped (they say so below)"
fi
# An independent decoder of the vector tiles the map answers are checked with (PyPI's
# mapbox-vector-tile; Debian does not package it).
# The tests run /usr/bin/python3, the distribution's (not whatever python3 is first on PATH).
if ! /usr/bin/python3 -c "import mapbox_vector_tile" 2>/dev/null && [ "$(id -u)" -eq 0 ]; then
  /usr/bin/python3 -m pip --version >/dev/null 2>&1 || { command -v apt-get >/dev/null && timeout 600 apt-get install -y --no-install-recommends python3-pip >/dev/null 2>&1; } || true
  timeout 300 /usr/bin/python3 -m pip install --quiet --break-system-packages mapbox-vector-tile >/dev/null 2>&1 \
    || echo "note: could not install mapbox-vector-tile; the tile tests read tiles with this package's decoder only (they say so below)"
fi
# Each phase has a deadline, so a hang ends with a message naming what was killed instead of
# spending CI's whole limit; daemons a failed test left behind are killed after it.
phase() {
  local limit=$1 name=$2; shift 2
  local started; started=$(date +%s)
  local rc=0
  # Into a file, not a pipe: a test process that outlives swift test (it starts it in a
  # process group of its own) could hold a pipe open, and the phase would never end.
  timeout --kill-after=30 "$limit" "$@" > "$log.$name" 2>&1 || rc=$?
  pkill -KILL -f "$PWD/.build/[^ ]*\.xctest" 2>/dev/null || true
  cat "$log.$name"
  cat "$log.$name" >> "$log"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "== $name ran past $limit and was killed; the last tests it started:"
    { grep -E "^Test Case '.*' started|^◇ Test [^ ]+ started" "$log.$name" || true; } | tail -n 5
  fi
  pkill -KILL -f "$PWD/.build/[^ ]*/areasd" 2>/dev/null || true
  echo "== $name: $(( $(date +%s) - started )) s, exit $rc"
  return "$rc"
}
trap 'rm -f "$log" "$log".*' EXIT
# Lines matching $1 in $2, with $3 (a sed expression) cut off, counted once each.
count_unique() { { grep -E "$1" "$2" || true; } | { grep -v "Test run with" || true; } | sed -E "$3" | sort -u | wc -l; }
# The end-to-end tests run the real areasd and areasctl binaries: build them first.
phase 30m build swift build || status=$?
[ "$status" -eq 0 ] && { phase 40m tests swift test || status=$?; }
# The concurrent tests again under ThreadSanitizer: many clients during refresh swaps,
# shutdown under load, the fetcher's task group.
if [ "$status" -eq 0 ]; then
  echo "== the concurrent tests under ThreadSanitizer =="
  race=0
  phase 30m race swift test --sanitize=thread --disable-swift-testing \
    --filter 'AreasServerTests.ServerTests|AreasServerTests.OperationsTests.testSigterm|AreasCoreTests.AreaIndexTests|AreasIngestTests.FetchTests.testClean' || race=$?
  raced=$(count_unique "^Test Case '.*' passed \(" "$log.race" "s/ passed.*//")
  if grep -q "WARNING: ThreadSanitizer" "$log.race"; then
    echo "ThreadSanitizer reported a race"; race=1
  elif [ "$race" -ne 0 ]; then
    echo "the ThreadSanitizer run failed (exit $race)"
  elif [ "$raced" -eq 0 ]; then
    echo "the ThreadSanitizer run selected no test"; race=1
  else
    echo "ThreadSanitizer: $raced tests ran again, no race reported"
  fi
  [ "$race" -eq 0 ] || status=1
fi
# One plain summary line for the main run, each test once: XCTest's "Test Case ... passed",
# Swift Testing's "✔ Test ... passed" (a parameterised test counts once) and "➜ Test ...
# skipped"; a failed test counts once however many of its expectations failed.
tests_log="$log.tests"
[ -f "$tests_log" ] || : > "$tests_log"
passed=$(count_unique "^Test Case '.*' passed \(|^✔ Test .* passed after" "$tests_log" "s/ passed (\(|after).*//")
failed=$(count_unique "^Test Case '.*' failed \(|^✘ Test .* failed after" "$tests_log" "s/ failed (\(|after).*//")
skipped=$(count_unique "^➜ Test .* skipped" "$tests_log" "s/ skipped.*//")
if [ "$skipped" -gt 0 ]; then
  echo "skipped, with what they need:"
  grep -E "^➜ Test .* skipped" "$tests_log" | sort -u | sed 's/^/  /'
fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "the run ended with status $status and no failed test: it crashed or was killed; the last lines:"
  tail -n 15 "$log"
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
