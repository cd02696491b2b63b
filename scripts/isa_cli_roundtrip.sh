#!/usr/bin/env bash
# CLI round trip of the assembly text form (CTest isa_cli_roundtrip):
#   tandem asm x.s -o a.bin && tandem disasm a.bin > y.s && tandem asm y.s -o b.bin
#   && cmp a.bin b.bin, and y.s == disasm(b.bin); plus the CLI error paths.
# Usage: isa_cli_roundtrip.sh <tandem binary> <dir with .s files> <scratch dir>
set -euo pipefail
tandem=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

for src in "$data"/*.s; do
  name=$(basename "$src" .s)
  "$tandem" asm "$src" -o "$name.a.bin"
  "$tandem" disasm "$name.a.bin" > "$name.y.s"
  "$tandem" asm "$name.y.s" -o "$name.b.bin"
  cmp "$name.a.bin" "$name.b.bin" || fail "$name: binaries differ after text round trip"
  "$tandem" disasm "$name.b.bin" -o "$name.z.s"
  cmp "$name.y.s" "$name.z.s" || fail "$name: disassembly differs"
  # An explicit --config naming the same preset gives the same binary.
  cfg=$(sed -n 's/^\.config \([^ #]*\).*/\1/p' "$name.y.s" | head -1)
  "$tandem" asm "$name.y.s" --config "$cfg" -o "$name.c.bin"
  cmp "$name.a.bin" "$name.c.bin" || fail "$name: --config $cfg changed the binary"
  echo "ok: $name ($cfg, $(stat -c %s "$name.a.bin") bytes)"
done

# Errors: exit code 1 and a located message, never a crash.
printf 'finish\nload inp sram=0 dram=0 y=1 x=1 stride=1 bogus=1\n' > bad.s
set +e
"$tandem" asm bad.s -o bad.bin 2> err.txt; rc=$?
set -e
[ "$rc" = 1 ] || fail "bad.s: exit code $rc, expected 1"
grep -q "^error: bad.s:2:41: unknown key 'bogus'" err.txt || fail "bad.s: message: $(cat err.txt)"
[ ! -e bad.bin ] || fail "bad.s: output written despite the error"

first=$(ls "$data"/*.s | head -1)
"$tandem" asm "$first" -o t.bin
head -c 30 t.bin > trunc.bin
set +e
"$tandem" disasm trunc.bin > /dev/null 2> err.txt; rc=$?
set -e
[ "$rc" = 1 ] || fail "truncated binary: exit code $rc, expected 1"
grep -q "malformed program" err.txt || fail "truncated binary: message: $(cat err.txt)"

set +e
"$tandem" disasm t.bin --config vta-16x16 > /dev/null 2> err.txt; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "device config is 'vta-16x16'" err.txt || fail "wrong config: $(cat err.txt)"

"$tandem" disasm --formats --config vta-16x16 > formats.md
grep -q '^#### GEMM (opcode 2)' formats.md || fail "--formats output"
echo "ok: error paths and --formats"
