// Instruction and micro-op encoding to binary words.
#include "isa/codec.h"

#include "isa/error.h"

namespace tandem::isa {
namespace {

using u128 = unsigned __int128;

u128 to_u128(const Word128& w) { return (static_cast<u128>(w.hi) << 64) | w.lo; }
Word128 from_u128(u128 v) {
  return Word128{static_cast<std::uint64_t>(v), static_cast<std::uint64_t>(v >> 64)};
}

std::uint64_t field_mask(unsigned width) {
  return width >= 64 ? ~0ull : ((1ull << width) - 1);
}

// Checks that `v` fits the field and returns its raw bits.
std::uint64_t pack_value(const Field& f, std::int64_t v, std::string_view what) {
  if (f.is_signed) {
    const std::int64_t lo = -(std::int64_t{1} << (f.width - 1));
    const std::int64_t hi = (std::int64_t{1} << (f.width - 1)) - 1;
    TANDEM_CHECK(v >= lo && v <= hi, what << " field " << f.name << ": value " << v
                                          << " does not fit in " << f.width
                                          << " signed bits (range " << lo << ".." << hi << ")");
    return static_cast<std::uint64_t>(v) & field_mask(f.width);
  }
  const std::uint64_t hi = field_mask(f.width);
  TANDEM_CHECK(v >= 0 && static_cast<std::uint64_t>(v) <= hi,
               what << " field " << f.name << ": value " << v << " does not fit in " << f.width
                    << " bits (max " << hi << ")");
  return static_cast<std::uint64_t>(v);
}

std::int64_t unpack_value(const Field& f, std::uint64_t raw) {
  if (f.is_signed && f.width < 64 && (raw >> (f.width - 1)) & 1)
    return static_cast<std::int64_t>(raw | ~field_mask(f.width));
  return static_cast<std::int64_t>(raw);
}

}  // namespace

void check_field_value(const Field& field, std::int64_t value, std::string_view what) {
  pack_value(field, value, what);
}

Codec::Codec(const HwConfig& cfg) : cfg_(cfg) {
  for (int op = 0; op < 5; ++op) layouts_[op] = insn_layout(cfg, static_cast<Opcode>(op));
  uop_ = uop_layout(cfg);
}

Word128 Codec::encode(const Instruction& insn) const {
  const int op = static_cast<int>(insn.opcode);
  TANDEM_CHECK(op >= 0 && op < 5, "instruction opcode " << op << " is not one of 0..4");
  u128 word = 0;
  const std::string_view what = opcode_name(insn.opcode);
  for (const Field& f : layouts_[op]) {
    const std::uint64_t raw = pack_value(f, get_field(insn, f.name), what);
    word |= static_cast<u128>(raw) << f.offset;
  }
  return from_u128(word);
}

Instruction Codec::decode(const Word128& w) const {
  const u128 word = to_u128(w);
  const unsigned op = static_cast<unsigned>(word & 7u);
  TANDEM_CHECK(op < 5, "malformed instruction word: opcode " << op
                                                             << " is not one of 0..4 (LOAD, STORE, "
                                                                "GEMM, FINISH, ALU)");
  Instruction insn;
  for (const Field& f : layouts_[op]) {
    const std::uint64_t raw = static_cast<std::uint64_t>(word >> f.offset) & field_mask(f.width);
    set_field(insn, f.name, unpack_value(f, raw));
  }
  const unsigned used = layout_bits(layouts_[op]);
  if (used < 128) {
    const u128 rest = word >> used;
    TANDEM_CHECK(rest == 0, "malformed " << opcode_name(insn.opcode) << " instruction word: bits "
                                         << used << "..127 must be zero");
  }
  if (insn.opcode == Opcode::kLoad || insn.opcode == Opcode::kStore)
    TANDEM_CHECK(static_cast<unsigned>(insn.mem_type) <= 4,
                 "malformed instruction word: memory type " << static_cast<unsigned>(insn.mem_type)
                                                            << " is not one of 0..4");
  if (insn.opcode == Opcode::kAlu)
    TANDEM_CHECK(static_cast<unsigned>(insn.alu_op) <= 4,
                 "malformed ALU instruction word: alu_op " << static_cast<unsigned>(insn.alu_op)
                                                           << " is not one of 0..4");
  return insn;
}

std::uint32_t Codec::encode_uop(const Uop& u) const {
  std::uint64_t w = 0;
  w |= pack_value(uop_[0], u.dst, "micro-op") << uop_[0].offset;
  w |= pack_value(uop_[1], u.src, "micro-op") << uop_[1].offset;
  w |= pack_value(uop_[2], u.wgt, "micro-op") << uop_[2].offset;
  return static_cast<std::uint32_t>(w);
}

Uop Codec::decode_uop(std::uint32_t w) const {
  const unsigned used = layout_bits(uop_);
  TANDEM_CHECK(used >= 32 || (w >> used) == 0, "malformed micro-op word 0x"
                                                    << std::hex << w << std::dec << ": bits "
                                                    << used << "..31 must be zero");
  Uop u;
  u.dst = static_cast<std::uint32_t>((w >> uop_[0].offset) & field_mask(uop_[0].width));
  u.src = static_cast<std::uint32_t>((w >> uop_[1].offset) & field_mask(uop_[1].width));
  u.wgt = static_cast<std::uint32_t>((static_cast<std::uint64_t>(w) >> uop_[2].offset) &
                                     field_mask(uop_[2].width));
  return u;
}

}  // namespace tandem::isa
