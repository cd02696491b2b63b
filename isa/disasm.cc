// Disassembler: isa::Program -> canonical assembly text, and the markdown
// tables of the instruction formats.
//
// Canonical form: header comment, .config, .buffer lines in program order,
// then every instruction with every field of its format in a fixed key
// order, decimal numbers, a trailing "# index" comment, then .uops with one
// micro-op per line. Relocations are written inline (dram=@buf+off) when
// they are in instruction order, at most one per instruction, and the raw
// dram field of each relocated instruction is 0 (what the assembler and the
// driver's builders produce); otherwise every relocation is written as an
// explicit .reloc line after the instructions and dram as its raw number, so
// that any Program round-trips exactly.
#include <sstream>
#include <vector>

#include "isa/asm.h"
#include "isa/asm_syntax.h"
#include "isa/codec.h"
#include "isa/error.h"
#include "isa/layout.h"

namespace tandem::isa {
namespace {

using asm_syntax::quote_name;

bool inline_relocs(const Program& p) {
  std::int64_t last = -1;
  for (const auto& r : p.relocs) {
    if (static_cast<std::int64_t>(r.insn) <= last || r.insn >= p.insns.size()) return false;
    const Instruction& i = p.insns[r.insn];
    if (i.opcode != Opcode::kLoad && i.opcode != Opcode::kStore) return false;
    if (i.dram_base != 0) return false;
    last = r.insn;
  }
  return true;
}

std::string deps_text(const DepFlags& d) {
  std::string s;
  auto add = [&](bool on, const char* n) {
    if (!on) return;
    if (!s.empty()) s += ',';
    s += n;
  };
  add(d.pop_prev, "pop_prev");
  add(d.pop_next, "pop_next");
  add(d.push_prev, "push_prev");
  add(d.push_next, "push_next");
  return s.empty() ? "none" : s;
}

void check_enums(const Instruction& i, std::size_t k) {
  const auto op = static_cast<unsigned>(i.opcode);
  TANDEM_CHECK(op <= 4, "cannot disassemble instruction " << k << ": opcode " << op
                                                          << " is not one of 0..4");
  if (i.opcode == Opcode::kLoad || i.opcode == Opcode::kStore) {
    const auto mt = static_cast<unsigned>(i.mem_type);
    TANDEM_CHECK(mt <= 4, "cannot disassemble instruction " << k << ": memory type " << mt
                                                            << " is not one of 0..4");
  }
  if (i.opcode == Opcode::kAlu) {
    const auto ao = static_cast<unsigned>(i.alu_op);
    TANDEM_CHECK(ao <= 4, "cannot disassemble instruction " << k << ": alu_op " << ao
                                                            << " is not one of 0..4");
  }
}

void print_insn(std::ostream& o, const Instruction& i, const Relocation* reloc) {
  switch (i.opcode) {
    case Opcode::kLoad:
    case Opcode::kStore:
      o << (i.opcode == Opcode::kLoad ? "load " : "store ") << mem_type_name(i.mem_type)
        << " sram=" << i.sram_base << " dram=";
      if (reloc)
        o << '@' << quote_name(reloc->buffer) << '+' << reloc->elem_offset;
      else
        o << i.dram_base;
      o << " y=" << i.y_size << " x=" << i.x_size << " stride=" << i.x_stride
        << " pad=" << i.y_pad_0 << ',' << i.y_pad_1 << ',' << i.x_pad_0 << ',' << i.x_pad_1;
      break;
    case Opcode::kGemm:
    case Opcode::kAlu:
      if (i.opcode == Opcode::kGemm)
        o << "gemm";
      else
        o << "alu " << alu_op_name(i.alu_op);
      o << " uops=" << i.uop_bgn << ':' << i.uop_end << " iter=" << i.iter_out << ',' << i.iter_in
        << " dst=" << i.dst_factor_out << ',' << i.dst_factor_in << " src=" << i.src_factor_out
        << ',' << i.src_factor_in;
      if (i.opcode == Opcode::kGemm)
        o << " wgt=" << i.wgt_factor_out << ',' << i.wgt_factor_in;
      else
        o << " use_imm=" << (i.use_imm ? 1 : 0) << " imm=" << i.imm;
      o << " reset=" << (i.reset ? 1 : 0);
      break;
    case Opcode::kFinish:
      o << "finish";
      break;
  }
  o << " deps=" << deps_text(i.dep);
}

}  // namespace

std::string disassemble(const HwConfig& cfg, const Program& p) {
  for (std::size_t k = 0; k < p.insns.size(); ++k) check_enums(p.insns[k], k);
  const bool inline_form = inline_relocs(p);
  std::ostringstream o;
  o << "# Tandem program: " << p.insns.size() << " instructions, " << p.uops.size()
    << " micro-ops, " << p.buffers.size() << " buffers, " << p.relocs.size()
    << " relocations (disassembled with config " << quote_name(cfg.name) << ")\n";
  o << ".config " << quote_name(p.config_name) << "\n";
  for (const auto& b : p.buffers) o << ".buffer " << quote_name(b.name) << ' ' << b.bytes << "\n";
  if (!p.insns.empty()) o << "\n";
  std::size_t next_reloc = 0;
  for (std::size_t k = 0; k < p.insns.size(); ++k) {
    const Relocation* r = nullptr;
    if (inline_form && next_reloc < p.relocs.size() && p.relocs[next_reloc].insn == k)
      r = &p.relocs[next_reloc++];
    print_insn(o, p.insns[k], r);
    o << "  # " << k << "\n";
  }
  if (!inline_form) {
    o << "\n# relocations in program order\n";
    for (const auto& r : p.relocs)
      o << ".reloc " << r.insn << " @" << quote_name(r.buffer) << '+' << r.elem_offset << "\n";
  }
  if (!p.uops.empty()) {
    o << "\n.uops  # (dst, src, wgt)\n";
    for (std::size_t k = 0; k < p.uops.size(); ++k)
      o << '(' << p.uops[k].dst << ", " << p.uops[k].src << ", " << p.uops[k].wgt << ")  # " << k
        << "\n";
  }
  return o.str();
}

std::string format_tables_markdown(const std::vector<HwConfig>& cfgs) {
  TANDEM_CHECK(!cfgs.empty(), "format tables need at least one config");
  std::ostringstream o;
  auto table = [&](const std::string& title, auto layout_of, unsigned limit) {
    std::vector<std::vector<Field>> layouts;
    for (const HwConfig& c : cfgs) layouts.push_back(layout_of(c));
    o << "#### " << title << ": ";
    for (std::size_t k = 0; k < cfgs.size(); ++k)
      o << (k ? ", " : "") << quote_name(cfgs[k].name) << " " << layout_bits(layouts[k]) << " of "
        << limit << " bits";
    o << "\n\n| field |";
    for (const HwConfig& c : cfgs) o << ' ' << quote_name(c.name) << " bits | width |";
    o << "\n|---|";
    for (std::size_t k = 0; k < cfgs.size(); ++k) o << "---|---|";
    o << "\n";
    for (std::size_t f = 0; f < layouts[0].size(); ++f) {
      o << "| " << layouts[0][f].name << (layouts[0][f].is_signed ? " (signed)" : "") << " |";
      for (const auto& l : layouts) {
        TANDEM_ASSERT(l.size() == layouts[0].size() && l[f].name == layouts[0][f].name,
                      "field lists differ between configs");
        o << ' ';
        if (l[f].width == 1)
          o << l[f].offset;
        else
          o << l[f].offset + l[f].width - 1 << ':' << l[f].offset;
        o << " | " << l[f].width << " |";
      }
      o << "\n";
    }
    o << "\n";
  };
  o << "#### SRAM depths (elements) and index bits\n\n| buffer |";
  for (const HwConfig& c : cfgs) o << ' ' << quote_name(c.name) << " depth | bits |";
  o << "\n|---|";
  for (std::size_t k = 0; k < cfgs.size(); ++k) o << "---|---|";
  o << "\n";
  for (int m = 0; m < 5; ++m) {
    o << "| " << mem_type_name(static_cast<MemType>(m)) << " |";
    for (const HwConfig& c : cfgs) {
      const int bits[5] = {c.log_uop_depth, c.log_wgt_depth, c.log_inp_depth, c.log_acc_depth,
                           c.log_out_depth};
      o << ' ' << c.depth(m) << " | " << bits[m] << " |";
    }
    o << "\n";
  }
  o << "\n";
  for (int op = 0; op < 5; ++op) {
    const auto opcode = static_cast<Opcode>(op);
    table(
        std::string(opcode_name(opcode)) + " (opcode " + std::to_string(op) + ")",
        [&](const HwConfig& c) { return insn_layout(c, opcode); }, kInsnBits);
  }
  table(
      "micro-op", [](const HwConfig& c) { return uop_layout(c); }, kUopBits);
  return o.str();
}

}  // namespace tandem::isa
