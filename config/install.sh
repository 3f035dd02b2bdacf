#!/usr/bin/env bash
# Builds release binaries and installs areas on this host:
#   binaries      /usr/local/bin/areasd, /usr/local/bin/areasctl
#   config        /etc/areasd/areasd.json (kept if present), /etc/areasd/areasd.env for the key
#   systemd       /etc/systemd/system/areasd.service, areasd.socket
#   cron          /etc/cron.d/areas-refresh
# Usage: sudo bash config/install.sh [--prefix /usr/local]
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
if [ "${1:-}" = "--prefix" ]; then prefix=$2; fi

# With the Swift libraries linked in statically, Foundation's networking still links against
# libcurl and FoundationXML against libxml2: the linker needs their development files.
for lib in curl xml2; do
  if ! compgen -G "/usr/lib/*/lib$lib.so" >/dev/null && ! compgen -G "/usr/lib/lib$lib.so" >/dev/null; then
    if command -v apt-get >/dev/null; then
      apt-get install -y libcurl4-openssl-dev libxml2-dev
      break
    fi
    echo "install.sh: lib$lib.so not found; install the libcurl and libxml2 development packages first" >&2
    exit 1
  fi
done

# Built on the host that runs it: the index is compiled for this processor (AREAS_NATIVE=0 for
# binaries that run on any x86-64 machine).
export AREAS_NATIVE=${AREAS_NATIVE:-1}
swift build -c release --static-swift-stdlib --product areasd
swift build -c release --static-swift-stdlib --product areasctl
bin=$(swift build -c release --show-bin-path)
install -D -m 0755 "$bin/areasd" "$prefix/bin/areasd"
install -D -m 0755 "$bin/areasctl" "$prefix/bin/areasctl"
install -D -m 0644 README.md "$prefix/share/doc/areas/README.md"

install -d -m 0755 /etc/areasd
if [ ! -e /etc/areasd/areasd.json ]; then
  install -m 0644 config/areasd.live.json /etc/areasd/areasd.json
fi
if [ ! -e /etc/areasd/areasd.env ]; then
  install -m 0600 /dev/null /etc/areasd/areasd.env
  echo "# DATA_GO_KR_KEY=your-service-key" > /etc/areasd/areasd.env
fi
# The group whose members may query the socket (areasd.socket's SocketGroup).
if ! getent group areas >/dev/null; then
  groupadd --system areas
fi
if [ -d /etc/systemd/system ]; then
  install -m 0644 config/areasd.service config/areasd.socket /etc/systemd/system/
  sed -i "s|/usr/local/bin/|$prefix/bin/|" /etc/systemd/system/areasd.service
fi
if [ -d /etc/cron.d ]; then
  sed "s|/usr/local/bin/|$prefix/bin/|" config/areas-refresh.cron > /etc/cron.d/areas-refresh
  chmod 0644 /etc/cron.d/areas-refresh
fi
echo "installed to $prefix/bin; put the key in /etc/areasd/areasd.env, then:"
echo "  systemctl daemon-reload && systemctl enable --now areasd.socket areasd.service"
echo "users who may query: usermod -aG areas USER (then log in again)"
