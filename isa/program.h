// Program: a relocatable instruction stream plus its micro-op image.
//
// Instructions reference DRAM through relocations against named buffers
// (inputs, weights, outputs, the micro-op image "__uops", ...). The driver
// allocates each buffer, then patches dram_base of each relocated instruction
// to (buffer_byte_address / element_bytes(mem_type)) + elem_offset.
// Programs serialize to a versioned little-endian binary file; a malformed
// or truncated file is a tandem::Error naming the byte offset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/hw_config.h"
#include "isa/insn.h"

namespace tandem::isa {

inline constexpr const char* kUopBufferName = "__uops";

struct DramBuffer {
  std::string name;
  std::uint64_t bytes = 0;
  bool operator==(const DramBuffer&) const = default;
};

struct Relocation {
  std::uint32_t insn = 0;         // index of the LOAD/STORE instruction
  std::string buffer;             // DramBuffer name
  std::uint64_t elem_offset = 0;  // in elements of the instruction's mem_type
  bool operator==(const Relocation&) const = default;
};

struct Program {
  std::string config_name;
  std::vector<Instruction> insns;
  std::vector<Uop> uops;  // image loaded from the "__uops" buffer by uop LOADs
  std::vector<Relocation> relocs;
  std::vector<DramBuffer> buffers;

  bool operator==(const Program&) const = default;

  const DramBuffer* find_buffer(const std::string& name) const;
  // Serialization (encodes instructions and micro-ops with the config's codec).
  std::vector<std::uint8_t> serialize(const HwConfig& cfg) const;
  static Program deserialize(const HwConfig& cfg, const std::vector<std::uint8_t>& bytes);
  void save(const HwConfig& cfg, const std::string& path) const;
  static Program load(const HwConfig& cfg, const std::string& path);
  // Checks every instruction (validate()), relocation targets and buffer names.
  void check(const HwConfig& cfg) const;
};

}  // namespace tandem::isa
