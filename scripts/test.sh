#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and
# runs every test (unit, integration, RTL lint and RTL tests) with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" -j"$(nproc)" --output-on-failure --timeout 600
