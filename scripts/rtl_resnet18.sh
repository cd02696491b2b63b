#!/usr/bin/env bash
# Runs every ResNet-18 conv layer compiled by the schedule compiler on the
# verilated RTL and on csim, for both presets: checks each RTL output
# bit-exactly against fsim (bench_resnet18 fails otherwise) and prints the
# RTL-vs-csim cycle table. Takes a few minutes (the RTL simulates ~0.5 M
# cycles/s); .ci/run covers a subset through tests/ops and tests/hw.
#   usage: scripts/rtl_resnet18.sh [vthreads]   (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
VT=${1:-2}
B=${BUILD_DIR:-build}/bench/bench_resnet18
[ -x "$B" ] || scripts/build.sh
OUT=out/rtl_resnet18 && mkdir -p "$OUT"
for cfg in tandem-8x8 vta-16x16; do
  "$B" --target rtl --config "$cfg" --vthreads "$VT" --json "$OUT/rtl_$cfg.json" >/dev/null
  "$B" --target csim --config "$cfg" --vthreads "$VT" --json "$OUT/csim_$cfg.json" >/dev/null
done
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
bad = 0
print(f"{'preset':<11} {'layer':<5} {'shape':<40} {'rtl':>10} {'csim':>10} {'diff%':>7}  rtl==fsim")
for cfg in ("tandem-8x8", "vta-16x16"):
    r = json.load(open(f"{out}/rtl_{cfg}.json"))
    c = json.load(open(f"{out}/csim_{cfg}.json"))
    for a, b in zip(r["layers"], c["layers"]):
        d = 100.0 * (b["cycles"] - a["cycles"]) / a["cycles"]
        bad += (a["cycles"] != b["cycles"]) or not a["matches_fsim"]
        print(f"{cfg:<11} {a['layer']:<5} {a['shape']:<40} {a['cycles']:>10.0f} {b['cycles']:>10.0f} "
              f"{d:>6.2f}%  {a['matches_fsim']}")
print("all layers equal and bit-exact" if bad == 0 else f"{bad} layers differ")
sys.exit(1 if bad else 0)
PY
