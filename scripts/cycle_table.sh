#!/bin/sh
# cycle_table.sh: RTL (cycle truth) vs csim cycles.total on the same programs
# (blocked GEMMs with 1 and 2 virtual threads on both presets, plus small
# instruction tests). Builds bench_cycle_table in BUILD_DIR if needed and
# prints its table; extra arguments (--json FILE, --quick) are passed on.
# Usage: scripts/cycle_table.sh [BUILD_DIR] [--json FILE] [--quick]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
  build=$1
  shift
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
fi
ninja -C "$build" -j2 bench_cycle_table >/dev/null 2>&1
exec "$build/bench/bench_cycle_table" "$@"
