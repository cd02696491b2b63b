// Encoder/decoder between Instruction/Uop and their binary words.
//
// A value that does not fit its field is a tandem::Error naming the field,
// the value and the field's range; nothing is silently truncated. Decoding
// rejects unknown opcodes, memory types and ALU ops.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/hw_config.h"
#include "isa/insn.h"
#include "isa/layout.h"

namespace tandem::isa {

// One 128-bit instruction word; stored little-endian (lo first) in DRAM.
struct Word128 {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  bool operator==(const Word128&) const = default;
};

inline constexpr std::size_t kInsnBytes = 16;

class Codec {
 public:
  explicit Codec(const HwConfig& cfg);

  Word128 encode(const Instruction& insn) const;
  Instruction decode(const Word128& word) const;
  std::uint32_t encode_uop(const Uop& uop) const;
  Uop decode_uop(std::uint32_t word) const;

  const std::vector<Field>& layout(Opcode op) const { return layouts_[static_cast<int>(op)]; }
  const std::vector<Field>& uop_fields() const { return uop_; }
  const HwConfig& config() const { return cfg_; }

 private:
  HwConfig cfg_;
  std::array<std::vector<Field>, 5> layouts_;
  std::vector<Field> uop_;
};

// Throws tandem::Error unless `value` fits `field` (the exact check encode()
// applies; `what` names the instruction kind or "micro-op" in the message).
void check_field_value(const Field& field, std::int64_t value, std::string_view what);

// Checks the structural rules of one instruction (legal memory type for the
// opcode, dependency flags legal for its module, no padding on stores or uop
// loads, uop range inside the uop buffer, ALU op known, ALU weight factors
// zero). `index` is only used in the message. Throws tandem::Error.
void validate(const HwConfig& cfg, const Instruction& insn, std::size_t index);

}  // namespace tandem::isa
