// ProgramBuilder: appends instructions to an isa::Program, the one way every
// program producer (compiler codegen, driver GEMM builder, hand-written tests)
// emits code.
//
// What it does for the caller:
//  * DMA: 2D LOAD/STORE whose dram_base is either an absolute element address
//    or a relocation against a named DRAM buffer (declare_buffer()).
//  * Dependency tokens: push_dep()/pop_dep() requests are FOLDED into the
//    neighbouring instruction of the right module when that is legal, and
//    otherwise emitted as a no-op instruction of that module (see below).
//  * Micro-op kernels with up to two loop levels (begin_kernel / push_uop /
//    end_kernel), plus a kernel cache: the builder tracks which kernels (by
//    content) are resident in the uop SRAM and reuses a resident one instead
//    of emitting another uop LOAD. When the uop SRAM is full it evicts every
//    kernel (allocation restarts at offset 0) and reloads.
//
// Assumptions: the uop SRAM holds nothing useful when the program starts; the
// program is executed from its first instruction; the builder is the only
// writer of the uop SRAM unless emit() is used with a raw uop LOAD (which
// empties the kernel cache). Every emitted instruction is validated and
// encoded against the config at once, so a field that does not fit raises
// tandem::Error naming the instruction index and the field at the call site.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/codec.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "isa/program.h"

namespace tandem::isa {

// Where a DMA reads or writes DRAM. `buffer` names a declared DramBuffer (or
// kUopBufferName); the instruction gets a Relocation{insn, buffer,
// elem_offset} and dram_base 0 until the driver relocates it. An empty
// `buffer` means `elem_offset` is an absolute dram_base (no relocation).
struct DramRef {
  std::string buffer;
  std::uint64_t elem_offset = 0;  // in elements of the DMA's mem_type
};

// Zero padding of a 2D load (elements; each at most 15).
struct Pad {
  std::uint32_t y0 = 0, y1 = 0, x0 = 0, x1 = 0;
};

// One loop level of a micro-op kernel: `extent` iterations, each adding the
// factors to the dst (acc), src (inp for GEMM, acc for ALU) and wgt indices.
struct KernelLoop {
  std::uint32_t extent = 1;
  std::uint32_t dst_factor = 0;
  std::uint32_t src_factor = 0;
  std::uint32_t wgt_factor = 0;
};

// What the instruction emitted by end_kernel() does with the kernel.
struct KernelOp {
  Opcode opcode = Opcode::kGemm;  // kGemm or kAlu
  bool reset = false;             // GEMM/ALU: write zeros instead
  AluOp alu_op = AluOp::kAdd;     // ALU only
  bool use_imm = false;           // ALU only
  std::int32_t imm = 0;           // ALU only, signed 16 bit

  static KernelOp gemm(bool reset = false) { return KernelOp{Opcode::kGemm, reset}; }
  static KernelOp gemm_reset() { return KernelOp{Opcode::kGemm, true}; }
  static KernelOp alu_imm(AluOp op, std::int32_t imm) {
    return KernelOp{Opcode::kAlu, false, op, true, imm};
  }
  static KernelOp alu_tensor(AluOp op) { return KernelOp{Opcode::kAlu, false, op, false, 0}; }
};

struct ProgramBuilderOptions {
  // Micro-op SRAM entries the kernel cache may use, from offset 0. 0 means
  // the whole uop buffer (cfg.uop_depth). Must not exceed cfg.uop_depth.
  std::uint32_t uop_capacity = 0;
  // finish() checks that every token queue gets as many pushes as pops
  // (otherwise the run would deadlock or end with leftover tokens) and
  // raises Error if not. Turn off only to build deliberately broken programs.
  bool check_tokens = true;
};

class ProgramBuilder {
 public:
  explicit ProgramBuilder(const HwConfig& cfg, const ProgramBuilderOptions& opts = {});

  const HwConfig& config() const { return cfg_; }

  // ---- DRAM buffers -------------------------------------------------------
  // Declares a named DRAM buffer of `bytes` bytes (Program::buffers). Declaring
  // the same name again with the same size is a no-op; with another size, an
  // empty name, or the reserved name kUopBufferName it is an Error.
  void declare_buffer(const std::string& name, std::uint64_t bytes);

  // ---- DMA ----------------------------------------------------------------
  // 2D LOAD of `mem` (inp, wgt, acc or uop) into sram[sram_base...] with the
  // semantics of isa/insn.h. If `src.buffer` is set it must be declared (or be
  // kUopBufferName) and the DMA footprint
  //   [elem_offset, elem_offset + (y_size-1)*x_stride + x_size) elements
  // must lie inside the buffer, else Error. A uop LOAD issued here empties
  // the kernel cache (the builder cannot know what it loads).
  void load(MemType mem, std::uint32_t sram_base, const DramRef& src, std::uint32_t y_size,
            std::uint32_t x_size, std::uint32_t x_stride, const Pad& pad = {});
  // 2D STORE of the out buffer: dram[dst + y*x_stride + x] = out[sram_base +
  // y*x_size + x]. Same buffer rules as load().
  void store(std::uint32_t sram_base, const DramRef& dst, std::uint32_t y_size,
             std::uint32_t x_size, std::uint32_t x_stride);

  // ---- Dependency tokens ----------------------------------------------------
  // Module `from` signals module `to` that everything `from` has been asked to
  // do so far is done. Legal pairs: load<->compute, compute<->store (else
  // Error). Folding: if `from` has a pending pop, that pop is first emitted
  // (as a no-op of `from`) so the push stays after it; then the push goes
  // into the last instruction of module `from` (wherever it sits in the
  // stream) if that instruction does not already push to `to`; otherwise a
  // no-op instruction of `from` carrying the push is emitted.
  void push_dep(Module from, Module to);
  // Module `to` waits for a token from module `from` before its next
  // instruction. The pop is kept pending and folded into the next instruction
  // emitted for `to` (a uop LOAD emitted by the kernel cache counts). If the
  // same pop is already pending, the older one is first emitted as a no-op.
  void pop_dep(Module from, Module to);

  // ---- Micro-op kernels -----------------------------------------------------
  // begin_kernel(op, loops): starts a kernel executed by one GEMM/ALU
  // instruction. `loops` are outer first, at most two; loops[0] maps to
  // iter_out/*_factor_out, loops[1] to iter_in/*_factor_in; missing levels
  // have extent 1 and zero factors. Each extent must be in [1, 2^14).
  void begin_kernel(const KernelOp& op, const std::vector<KernelLoop>& loops = {});
  // Appends one micro-op (dst: acc index, src: inp index for GEMM / acc index
  // for ALU, wgt: wgt index; 0 for ALU). Error if a field does not fit.
  void push_uop(std::uint32_t dst, std::uint32_t src, std::uint32_t wgt = 0);
  // Ends the kernel: makes it resident in the uop SRAM (reusing an identical
  // resident kernel, or appending its micro-ops to Program::uops -- once per
  // distinct content -- and emitting a uop LOAD relocated against
  // kUopBufferName, evicting everything first if it does not fit in the free
  // space), then emits the GEMM/ALU instruction over [uop_bgn, uop_end).
  // An empty kernel or one larger than the uop capacity is an Error.
  void end_kernel();
  // Convenience: begin_kernel + push_uop for each + end_kernel.
  void kernel(const KernelOp& op, const std::vector<KernelLoop>& loops,
              const std::vector<Uop>& uops);
  // Forgets every resident kernel (the next kernel reloads from offset 0).
  void reset_kernel_cache();

  // ---- Raw instructions -------------------------------------------------
  // Appends `insn` as given (after folding pending pops of its module into
  // it). Use for instructions the helpers above do not cover. dram_base is
  // taken as absolute unless `reloc` names a buffer. A uop LOAD empties the
  // kernel cache. FINISH must go through finish().
  void emit(const Instruction& insn, const DramRef& reloc = {});
  // Appends micro-ops to Program::uops without loading them; returns the
  // element offset of the first one in the "__uops" image (for raw uop LOADs).
  std::uint64_t append_uops(const std::vector<Uop>& uops);

  // ---- Finishing ------------------------------------------------------------
  // Emits every pending pop as a no-op, then FINISH, checks the token
  // balance (see ProgramBuilderOptions) and moves the program out: program()
  // is empty afterwards and the builder accepts nothing more (Error).
  Program finish();

  // ---- Introspection ---------------------------------------------------
  const Program& program() const { return prog_; }
  std::size_t insn_count() const { return prog_.insns.size(); }
  std::uint64_t uop_loads() const { return uop_loads_; }         // uop LOADs emitted
  std::uint64_t kernel_hits() const { return kernel_hits_; }     // kernels reused
  std::uint64_t kernel_evictions() const { return evictions_; }  // full-cache restarts
  std::uint32_t uop_capacity() const { return uop_capacity_; }

 private:
  struct Resident {
    std::uint32_t sram_offset = 0;
  };
  enum PendingPop { kPopPrev = 0, kPopNext = 1 };

  void check_open(const char* what) const;
  void check_ref(const DramRef& ref, MemType mem, std::uint32_t y_size, std::uint32_t x_size,
                 std::uint32_t x_stride, const char* what) const;
  // Folds pending pops of the instruction's module, validates, encodes and
  // appends. Returns the instruction index.
  std::uint32_t append(Instruction insn, const DramRef& reloc);
  Instruction noop(Module m) const;
  std::uint32_t make_resident(const std::vector<Uop>& uops);
  void check_token_balance() const;

  HwConfig cfg_;
  Codec codec_;
  Program prog_;
  std::uint32_t uop_capacity_ = 0;
  bool finished_ = false;
  bool check_tokens_ = true;

  // Dependency bookkeeping, indexed by Module.
  bool pending_pop_[3][2] = {};
  std::int64_t last_insn_[3] = {-1, -1, -1};

  // Kernel under construction.
  bool in_kernel_ = false;
  KernelOp kop_;
  std::vector<KernelLoop> kloops_;
  std::vector<Uop> kuops_;

  // Kernel cache: content key -> resident location; content key -> offset of
  // its micro-ops in Program::uops.
  std::map<std::string, Resident> resident_;
  std::map<std::string, std::uint64_t> image_offset_;
  std::uint32_t uop_next_ = 0;
  std::uint64_t uop_loads_ = 0, kernel_hits_ = 0, evictions_ = 0;
};

}  // namespace tandem::isa
