// Accelerator pass: dependency tokens between the load, compute and store
// modules.
//
// The three modules run concurrently, each in program order, and share the
// SRAMs: load writes inp/wgt that compute reads, compute writes out (every
// GEMM/ALU writes out[a] = narrow(acc[a])) that store reads. The tracker sees
// the instruction stream in program order together with the SRAM range each
// instruction reads or writes, and for every cross-module hazard (read after
// write and write after read, including the loop-carried ones of the next
// tile or of the other virtual thread reusing a buffer) plans a token: the
// producer instruction pushes, the consumer pops before it starts. A hazard
// already covered by an earlier token of the same queue gets none, so each
// push has exactly one pop (FIFO order matches) and the program ends with
// empty queues. Tokens only go from earlier to later instructions, so the
// program cannot deadlock. acc and uop are touched by compute alone and need
// no tokens.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "isa/insn.h"

namespace tandem::accel {

struct SramRange {
  isa::MemType mem = isa::MemType::kInp;  // inp, wgt or out
  std::uint32_t lo = 0, hi = 0;           // [lo, hi) in SRAM elements
  bool write = false;
};

// Tokens of one instruction: bit (1 << Module) set in pop_from means "pop a
// token from that module before executing", in push_to "push a token to that
// module after executing".
struct TokenPlan {
  std::uint8_t pop_from = 0;
  std::uint8_t push_to = 0;
};

inline std::uint8_t module_bit(isa::Module m) {
  return static_cast<std::uint8_t>(1u << static_cast<unsigned>(m));
}

class DependencyTracker {
 public:
  // Instruction `index` (program order, 0-based, consecutive) of module m
  // with its SRAM accesses. `plans` grows to index + 1; earlier entries may
  // gain pushes.
  void add(std::size_t index, isa::Module m, const std::vector<SramRange>& accesses,
           std::vector<TokenPlan>* plans);
  std::uint64_t tokens() const { return tokens_; }

 private:
  struct Rec {
    std::uint32_t lo, hi;
    bool write;
    std::int64_t index;
  };
  static int slot(isa::MemType m);
  // The module on the other side of SRAM `mem` from module `m`.
  static isa::Module partner(int mem_slot, isa::Module m);

  std::deque<Rec> recs_[3][3];  // [inp, wgt, out][module]
  std::int64_t synced_[3][3] = {{-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}};  // [from][to]
  std::uint64_t tokens_ = 0;
};

}  // namespace tandem::accel
