// FunctionalCore: the bit-exact data effect of each instruction.
//
// Shared by fsim (which adds in-order dispatch and token scheduling) and csim
// (which adds timing): neither re-implements instruction semantics. Owns the
// five SRAMs. Every SRAM index and DRAM address is bounds-checked; a violation
// is a tandem::Error naming the instruction index, the buffer, the index and
// the depth. Semantics are those documented in isa/insn.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/codec.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/dram.h"

namespace tandem::sim {

struct GemmKernelArgs;  // sim/core_kernels.h

// Counters every backend reports (named as in isa::Stats by to_stats()).
struct CoreCounters {
  std::uint64_t insn_load = 0, insn_store = 0, insn_gemm = 0, insn_alu = 0, insn_finish = 0;
  std::uint64_t uop_gemm = 0;      // GEMM micro-ops executed (reset ones included)
  std::uint64_t uop_gemm_reset = 0;
  std::uint64_t uop_alu = 0;
  std::uint64_t macs = 0;          // useful multiply-accumulates (non-reset GEMM uops x B*BI*BO)
  std::uint64_t bytes_load_uop = 0, bytes_load_inp = 0, bytes_load_wgt = 0, bytes_load_acc = 0;
  std::uint64_t bytes_store_out = 0;
  std::uint64_t pad_elems = 0;     // zero elements written by padded loads
};

class FunctionalCore {
 public:
  FunctionalCore(const HwConfig& cfg, Dram& dram);

  // Executes the data effect of one instruction (no token handling).
  // `index` is the instruction's position in the stream, used in errors.
  void execute(const isa::Instruction& insn, std::size_t index);

  const CoreCounters& counters() const { return counters_; }
  void reset_counters() { counters_ = {}; }
  // Adds this core's counters to a Stats map ("insn.gemm", "uop.gemm",
  // "bytes.load.inp", "bytes.store.out", "macs", ...).
  void add_to(std::map<std::string, std::uint64_t>& counters) const;

  const HwConfig& config() const { return cfg_; }
  // SIMD kernels are used when the host supports them (default on). Turning
  // them off selects the portable scalar kernels (tests compare both).
  void set_simd(bool enabled);
  bool simd() const { return simd_; }
  // Read access to the SRAMs (tests, traces, RTL comparison).
  const std::vector<isa::Uop>& uop_sram() const { return uop_; }
  const std::vector<std::int8_t>& inp_sram() const { return inp_; }
  const std::vector<std::int8_t>& wgt_sram() const { return wgt_; }
  const std::vector<std::int32_t>& acc_sram() const { return acc_; }
  const std::vector<std::int8_t>& out_sram() const { return out_; }

 private:
  void load(const isa::Instruction& insn, std::size_t index);
  void store(const isa::Instruction& insn, std::size_t index);
  void gemm(const isa::Instruction& insn, std::size_t index);
  void alu(const isa::Instruction& insn, std::size_t index);

  HwConfig cfg_;
  isa::Codec codec_;
  Dram& dram_;
  bool simd_ = false;
  void (*gemm_kernel_)(const GemmKernelArgs&) = nullptr;
  CoreCounters counters_;
  std::vector<isa::Uop> uop_;
  std::vector<std::int8_t> inp_;   // inp_depth * batch * block_in
  std::vector<std::int8_t> wgt_;   // wgt_depth * block_out * block_in
  std::vector<std::int32_t> acc_;  // acc_depth * batch * block_out
  std::vector<std::int8_t> out_;   // out_depth * batch * block_out
};

}  // namespace tandem::sim
