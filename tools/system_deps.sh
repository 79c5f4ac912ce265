#!/usr/bin/env bash
# System tools the tests need beyond Python: Debian's Chromium (the browser tests drive it;
# no tool ever downloads a browser of its own), npm (static assets), ip/unshare (offline runs).
# Installs what is missing with apt-get when run as root on Debian/Ubuntu; otherwise says what to install.
# Usage: system_deps.sh book   (what building the book needs: npm)
#        system_deps.sh test   (plus Chromium, ip and unshare)
set -euo pipefail
mode="${1:-test}"
need=()
command -v npm >/dev/null || need+=(nodejs npm)
if [ "$mode" = "test" ]; then
  [ -x "${NLP_CHROMIUM:-/usr/bin/chromium}" ] || need+=(chromium)
  command -v ip >/dev/null || need+=(iproute2)
  command -v unshare >/dev/null || need+=(util-linux)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "missing system packages: ${need[*]} (e.g. sudo apt-get install ${need[*]})" >&2
  exit 1
fi
