#!/usr/bin/env bash
# The README's demo: installs what is missing, builds, then on the default
# config (tandem-8x8) compiles a ResNet-18 conv layer, runs it on the
# functional simulator, the SystemC cycle model and the verilated RTL, checks
# every output element against the host reference, and shows cycles, GEMM
# utilization and where time goes. Also writes a Perfetto trace and a
# test-vector bundle replayed on the RTL. Outputs land in out/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
T=build/tools/tandem
OUT=out/demo
rm -rf "$OUT" && mkdir -p "$OUT"
LAYER=(--n 1 --ci 128 --h 28 --w 28 --co 128 --kh 3 --kw 3 --stride 1 --pad 1 --relu)

echo "== ResNet-18 conv3_x layer (128x28x28 -> 128, 3x3, pad 1), 2 virtual threads =="
echo "-- fsim (bit-exact functional) --"
$T conv2d "${LAYER[@]}" --vthreads 2 --target fsim --json "$OUT/conv_fsim.json" | grep -E 'check|program|compile'
echo "-- csim (cycle-accurate SystemC): cycles, utilization, where time goes --"
$T conv2d "${LAYER[@]}" --vthreads 2 --target csim --json "$OUT/conv_csim.json" \
  --trace "$OUT/trace.json" |
  grep -E 'check|cycles.total|utilization|\.busy|stall.token |stall.mem|bandwidth|cycles_per_second|compile'
echo "-- the same layer with 1 virtual thread (no load/compute overlap) --"
$T conv2d "${LAYER[@]}" --vthreads 1 --target csim | grep -E 'check|cycles.total|utilization'
echo "-- rtl (verilated SystemVerilog, the cycle truth) --"
$T conv2d "${LAYER[@]}" --vthreads 2 --target rtl --json "$OUT/conv_rtl.json" | grep -E 'check|cycles.total'

echo "== Test vectors for FPGA/RTL bring-up =="
$T vectors conv2d --ci 16 --h 8 --w 8 --co 16 --kh 3 --kw 3 --stride 1 --pad 1 --out "$OUT/vectors"
$T replay "$OUT/vectors" --target rtl

echo "== Blocked GEMM 256x256x256 on csim =="
$T gemm --m 256 --n 256 --k 256 --vthreads 2 --target csim | grep -E 'check|cycles.total|utilization|GMAC'
echo
echo "Trace: $OUT/trace.json (open in https://ui.perfetto.dev or chrome://tracing)"
echo "JSON results: $OUT/*.json   Test-vector bundle: $OUT/vectors/"
