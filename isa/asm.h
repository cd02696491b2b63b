// Assembly text form of an isa::Program: assembler and disassembler.
//
// The text form is line oriented and covers everything an isa::Program holds,
// so text -> Program -> binary -> Program -> text round-trips exactly. The
// disassembler prints the canonical form: every field of every instruction,
// in a fixed order, decimal numbers, one micro-op per line. Full syntax with
// an example: isa/README.md. In short:
//
//   # comment (anywhere outside a quoted name)
//   .config tandem-8x8              program's config (must match the HwConfig)
//   .buffer A 4096                  DRAM buffer: name, size in bytes
//   load inp sram=0 dram=@A+16 y=4 x=8 stride=64 pad=1,1,0,0 deps=pop_next
//   store out sram=0 dram=1024 y=1 x=8 stride=8 pad=0,0,0,0 deps=pop_prev
//   gemm uops=0:8 iter=4,2 dst=8,1 src=8,1 wgt=0,0 reset=0 deps=none
//   alu add uops=0:8 iter=4,2 dst=8,1 src=8,1 use_imm=1 imm=-3 reset=0 deps=none
//   finish deps=none
//   .reloc 3 @A+0                   explicit relocation (rarely needed)
//   .uops                           micro-op section: one (dst, src, wgt) per line
//   (0, 0, 0)
//   .text                           back to instructions
//
// `dram=@buf+off` records a relocation of that instruction against buffer
// `buf` (elements of the instruction's memory type) with the raw dram field 0;
// `__uops` (the micro-op image) needs no .buffer declaration. Names that are
// not plain identifiers are written as C-style quoted strings.
//
// Every error is a tandem::Error "file:line:col: message". Field limits are
// the isa::Codec ones and every instruction is checked with isa::validate().
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "isa/hw_config.h"
#include "isa/program.h"

namespace tandem::isa {

// Canonical text of `prog`. Throws tandem::Error if the program holds a value
// the text form cannot name (an opcode, memory type or ALU op outside the ISA).
std::string disassemble(const HwConfig& cfg, const Program& prog);

// Parses `text` (named `filename` in error messages) into a Program for `cfg`.
// The result passes Program::check(cfg) and encodes with cfg's codec.
Program assemble(const HwConfig& cfg, const std::string& text, const std::string& filename);

// The name given by the first `.config` directive of `text`, if any (no other
// checking; used by the CLI to pick a config before assembling).
std::optional<std::string> config_directive(const std::string& text);

// Markdown tables of every instruction format and of the micro-op word, one
// column pair (bits hi:lo, width) per config, generated from isa::insn_layout
// and isa::uop_layout (isa/README.md embeds this output for both presets).
std::string format_tables_markdown(const std::vector<HwConfig>& cfgs);

}  // namespace tandem::isa
