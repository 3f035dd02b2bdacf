#!/usr/bin/env bash
# Fuzzes the request parser, both page decoders, the district-file readers, source discovery, the snapshot loader, the HTTP parser, the vector tile encoder and the boundary files' WKB and gzip readers with libFuzzer and
# AddressSanitizer, each for SECONDS (default 60), seeded from samples/ and Tests/Fuzz/seeds.
# Fails on any crash; crashing inputs are kept in .build/fuzz/<target>/ for regression tests.
#   bash Tests/Fuzz/run.sh [SECONDS] [TARGET...]
#   bash Tests/Fuzz/run.sh --check    type-checks the targets against today's sources (Tests/run.sh
#                                     does, so an API change cannot break them unnoticed)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/fuzz
mkdir -p "$out"
layers="Sources/AreasCore Sources/AreasSystem Sources/AreasProtocol Sources/AreasIngest Sources/AreasServer Sources/AreasControl Sources/AreasTestSupport"

# One module of every layer the parsers need, in $1: their imports of each other go, as does
# the C target's package structure (a module map of its own stands in).
prepare_sources() {
  mkdir -p "$out/modules" "$1"
  rm -f "$1"/*.swift
  { printf 'module CMemoryHints {\n  header "%s"\n  export *\n}\n' "$PWD/Sources/CMemoryHints/include/CMemoryHints.h"
    printf 'module CZlib [system] {\n  header "%s"\n  link "z"\n  export *\n}\n' "$PWD/Sources/CZlib/shim.h"
  } > "$out/modules/module.modulemap"
  for f in $(find $layers -name '*.swift'); do
    grep -vE '^(@testable )?import Areas[A-Za-z]+$' "$f" > "$1/$(echo "${f#Sources/}" | tr / _)"
  done
  # The map page's files, which SwiftPM builds into AreasServer as `PackageResources`
  # (Package.swift's embedInCode), written the same way.
  { echo 'enum PackageResources {'
    for f in Sources/AreasServer/Map/Page/*; do
      printf '    static let %s: [UInt8] = [%s]\n' "$(basename "$f" | tr '.-' '__')" "$(od -An -v -tu1 "$f" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')"
    done
    echo '}'; } > "$1/PackageResources.swift"
}

if [ "${1:-}" = "--check" ]; then
  prepare_sources "$out/check-src"
  swiftc -typecheck -parse-as-library -module-name AreasFuzz -package-name areas -I "$out/modules" \
    "$out"/check-src/*.swift Tests/Fuzz/FuzzTargets.swift
  echo "the fuzz targets type-check against the sources"
  exit 0
fi

seconds=${1:-60}
shift || true
targets=${*:-request xml json csv discover snapshot http tile wkb}
if [ ! -x "$out/areas-fuzz" ] || [ -n "$(find $layers Tests/Fuzz -name '*.swift' -newer "$out/areas-fuzz")" ]; then
echo "building the fuzzer (the library layers + Tests/Fuzz/FuzzTargets.swift, -sanitize=fuzzer,address)"
rm -f "$out/areas-fuzz"  # a failed build must not leave the old binary to be fuzzed
prepare_sources "$out/src"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name AreasFuzz -package-name areas -I "$out/modules" \
  "$out"/src/*.swift Tests/Fuzz/FuzzTargets.swift -lz -o "$out/areas-fuzz" 2>&1 | grep -v "Cannot export local symbol" || true
fi
[ -x "$out/areas-fuzz" ] || { echo "the fuzzer did not build" >&2; exit 1; }

# Seed corpora from the recorded pages and real requests.
mkdir -p "$out/seeds/wkb" "$out/seeds/request" "$out/seeds/xml" "$out/seeds/json" "$out/seeds/csv" "$out/seeds/snapshot" "$out/seeds/http" "$out/seeds/tile" "$out/seeds/discover"
cp samples/nonsmoking-zones/*.xml "$out/seeds/xml/" 2>/dev/null || true
head -c 20000 samples/nonsmoking-zones/page-1.xml > "$out/seeds/xml/short.xml"
for f in samples/*-smoking/*.json; do cp "$f" "$out/seeds/json/$(basename "$(dirname "$f")")-$(basename "$f")"; done
i=0
while IFS= read -r line; do
  i=$((i + 1)); printf '%s' "$line" > "$out/seeds/request/$i.json"
done < Tests/Fuzz/seeds/requests.jsonl
for f in samples/district-files/* samples/discovery/*; do head -c 60000 "$f" > "$out/seeds/csv/$(basename "$f")"; done
cp "$out"/seeds/csv/* "$out/seeds/discover/"
cp Tests/Fuzz/seeds/*.snapshot "$out/seeds/snapshot/" 2>/dev/null || true
cp Tests/Fuzz/seeds/http/* "$out/seeds/http/"
# Boundary geometries: a small polygon with a hole and a multipolygon, little- and big-endian.
python3 - "$out/seeds/wkb" <<'PY'
import struct, sys
def ring(points, e): return struct.pack(e + 'I', len(points)) + b''.join(struct.pack(e + 'dd', *p) for p in points)
def polygon(rings, e): return (b'\x01' if e == '<' else b'\x00') + struct.pack(e + 'I', 3) + struct.pack(e + 'I', len(rings)) + b''.join(ring(r, e) for r in rings)
outer = [(127.0, 37.5), (127.1, 37.5), (127.1, 37.6), (127.0, 37.6), (127.0, 37.5)]
hole = [(127.02, 37.52), (127.04, 37.52), (127.04, 37.54), (127.02, 37.52)]
open(sys.argv[1] + '/polygon', 'wb').write(polygon([outer, hole], '<'))
multi = b'\x00' + struct.pack('>I', 6) + struct.pack('>I', 2) + polygon([outer], '>') + polygon([hole], '>')
open(sys.argv[1] + '/multipolygon', 'wb').write(multi)
PY
gzip -c Tests/README.md > "$out/seeds/wkb/text.gz"
# Tiles: bytes read as points and names, and a real tile's bytes for the decoder.
printf '\x10\x20\x30\x40\x05abcde\x7f\xff\x00\x01\x83xyz' > "$out/seeds/tile/points"
printf '\x1a\x1d\x78\x02\x0a\x06points\x12\x0c\x12\x02\x00\x00\x18\x01\x22\x03\x09\x32\x22\x1a\x04name\x22\x04\x0a\x02hi\x28\x80\x20' > "$out/seeds/tile/tile.mvt"

status=0
for target in $targets; do
  mkdir -p "$out/$target/corpus"
  log="$out/$target/log"
  set +e
  AREAS_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0 "$out/areas-fuzz" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$out/$target/" "$out/$target/corpus" "$out/seeds/$target" > "$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' || echo 0)
  crashes=$(find "$out/$target" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  echo "fuzz $target: $runs executions in ${seconds}s, $crashes crashes (exit $rc)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then status=1; tail -30 "$log"; fi
done
exit $status
