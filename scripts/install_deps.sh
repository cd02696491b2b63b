#!/usr/bin/env bash
# Installs every Debian package the Tandem stack needs (idempotent).
# Runs as root on Debian 12; uses sudo otherwise when available.
set -euo pipefail
PKGS=(build-essential cmake ninja-build ccache git python3 pkg-config clang-format
      verilator libsystemc-dev llvm-19-dev libboost-program-options-dev
      libgtest-dev libgmock-dev nlohmann-json3-dev libssl-dev)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install_deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
