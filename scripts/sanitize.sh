#!/usr/bin/env bash
# Builds the unit tests with ASan+UBSan (no verilated RTL: Verilator's
# generated model is checked by the normal build) and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
export BUILD_DIR=build-asan BUILD_TYPE=Debug
scripts/build.sh -DTANDEM_SANITIZE=ON -DTANDEM_WITH_RTL=OFF
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan -j"$(nproc)" --output-on-failure --timeout 900 -LE slow
