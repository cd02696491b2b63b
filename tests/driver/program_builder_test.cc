// Tests of isa::ProgramBuilder: DMA relocation, dependency folding, no-op
// emission, micro-op kernel cache reuse and eviction, token balance checks.
#include "isa/program_builder.h"

#include <gtest/gtest.h>

#include "isa/error.h"

namespace tandem::isa {
namespace {

HwConfig cfg8() {
  return HwConfig::load_preset("tandem-8x8");
}

TEST(ProgramBuilder, LoadStoreRelocateAgainstDeclaredBuffers) {
  ProgramBuilder b(cfg8());
  b.declare_buffer("A", 8 * 64);
  b.declare_buffer("C", 8 * 64);
  b.load(MemType::kInp, 3, {"A", 8}, 2, 4, 16, Pad{1, 0, 0, 2});
  b.store(5, {"C", 0}, 1, 8, 8);
  b.load(MemType::kAcc, 0, {"", 1234}, 1, 1, 1);
  const Program p = b.finish();
  ASSERT_EQ(p.insns.size(), 4u);
  EXPECT_EQ(p.insns[0].opcode, Opcode::kLoad);
  EXPECT_EQ(p.insns[0].sram_base, 3u);
  EXPECT_EQ(p.insns[0].dram_base, 0u);
  EXPECT_EQ(p.insns[0].y_pad_0, 1u);
  EXPECT_EQ(p.insns[0].x_pad_1, 2u);
  EXPECT_EQ(p.insns[2].dram_base, 1234u);
  EXPECT_EQ(p.insns[3].opcode, Opcode::kFinish);
  ASSERT_EQ(p.relocs.size(), 2u);
  EXPECT_EQ(p.relocs[0], (Relocation{0, "A", 8}));
  EXPECT_EQ(p.relocs[1], (Relocation{1, "C", 0}));
  EXPECT_NO_THROW(p.check(cfg8()));
}

TEST(ProgramBuilder, BufferErrors) {
  ProgramBuilder b(cfg8());
  b.declare_buffer("A", 64);
  EXPECT_NO_THROW(b.declare_buffer("A", 64));
  EXPECT_THROW(b.declare_buffer("A", 65), Error);
  EXPECT_THROW(b.declare_buffer("", 65), Error);
  EXPECT_THROW(b.declare_buffer(kUopBufferName, 65), Error);
  EXPECT_THROW(b.load(MemType::kInp, 0, {"B", 0}, 1, 1, 1), Error);
  // 64 bytes hold 8 inp elements of 8 bytes: [4, 12) is out of range.
  EXPECT_THROW(b.load(MemType::kInp, 0, {"A", 4}, 1, 8, 8), Error);
  EXPECT_NO_THROW(b.load(MemType::kInp, 0, {"A", 4}, 1, 4, 4));
  EXPECT_THROW(b.store(0, {"A", 0}, 2, 4, 3), Error);  // stride < size
}

TEST(ProgramBuilder, FieldOverflowIsAnErrorAtTheCallSite) {
  ProgramBuilder b(cfg8());
  EXPECT_THROW(b.load(MemType::kInp, 0, {"", 0}, 1, 1, 1, Pad{16, 0, 0, 0}), Error);
  EXPECT_THROW(b.load(MemType::kInp, 0, {"", 1ull << 33}, 1, 1, 1), Error);
  b.begin_kernel(KernelOp::gemm());
  EXPECT_THROW(b.push_uop(cfg8().acc_depth, 0, 0), Error);
}

TEST(ProgramBuilder, PushFoldsIntoLastInstructionOfTheModule) {
  ProgramBuilder b(cfg8());
  b.kernel(KernelOp::gemm(), {}, {{0, 0, 0}});   // uop LOAD + GEMM
  b.load(MemType::kInp, 0, {"", 0}, 1, 1, 1);    // load module
  b.push_dep(Module::kCompute, Module::kStore);  // folds into GEMM
  b.push_dep(Module::kCompute, Module::kStore);  // GEMM already pushes: no-op
  b.pop_dep(Module::kCompute, Module::kStore);
  b.store(0, {"", 0}, 1, 1, 1);  // store pops
  b.pop_dep(Module::kCompute, Module::kStore);
  b.store(0, {"", 0}, 1, 1, 1);
  const Program p = b.finish();
  ASSERT_EQ(p.insns.size(), 7u);
  EXPECT_EQ(p.insns[1].opcode, Opcode::kGemm);
  EXPECT_TRUE(p.insns[1].dep.push_next);
  EXPECT_EQ(p.insns[3].opcode, Opcode::kGemm);  // the no-op
  EXPECT_EQ(uop_count(p.insns[3]), 0u);
  EXPECT_TRUE(p.insns[3].dep.push_next);
  EXPECT_TRUE(p.insns[4].dep.pop_prev);
  EXPECT_TRUE(p.insns[5].dep.pop_prev);
}

TEST(ProgramBuilder, PopFoldsIntoNextInstructionOfTheModule) {
  ProgramBuilder b(cfg8());
  b.load(MemType::kInp, 0, {"", 0}, 1, 1, 1);
  b.push_dep(Module::kLoad, Module::kCompute);  // folds into the load
  b.pop_dep(Module::kLoad, Module::kCompute);   // pending on compute
  b.store(0, {"", 0}, 1, 1, 1);                 // store: unaffected
  b.kernel(KernelOp::gemm(), {}, {{0, 0, 0}});  // uop LOAD takes the pop
  b.push_dep(Module::kCompute, Module::kLoad);
  b.pop_dep(Module::kCompute, Module::kLoad);
  const Program p = b.finish();  // the pending load pop becomes a no-op load
  ASSERT_EQ(p.insns.size(), 6u);
  EXPECT_TRUE(p.insns[0].dep.push_next);
  EXPECT_FALSE(p.insns[1].dep.pop_prev);
  EXPECT_EQ(p.insns[2].mem_type, MemType::kUop);
  EXPECT_TRUE(p.insns[2].dep.pop_prev);
  EXPECT_FALSE(p.insns[3].dep.pop_prev);
  EXPECT_TRUE(p.insns[3].dep.push_prev);
  EXPECT_EQ(p.insns[4].opcode, Opcode::kLoad);
  EXPECT_EQ(p.insns[4].x_size, 0u);
  EXPECT_TRUE(p.insns[4].dep.pop_next);
  EXPECT_EQ(p.insns[5].opcode, Opcode::kFinish);
}

TEST(ProgramBuilder, PushWithPendingPopEmitsThePopFirst) {
  ProgramBuilder b(cfg8());
  b.kernel(KernelOp::gemm(), {}, {{0, 0, 0}});
  b.push_dep(Module::kCompute, Module::kStore);  // -> GEMM
  b.pop_dep(Module::kCompute, Module::kStore);
  b.push_dep(Module::kStore, Module::kCompute);  // store has a pending pop
  b.pop_dep(Module::kStore, Module::kCompute);
  const Program p = b.finish();
  ASSERT_EQ(p.insns.size(), 5u);
  EXPECT_EQ(p.insns[2].opcode, Opcode::kStore);
  EXPECT_TRUE(p.insns[2].dep.pop_prev);
  EXPECT_TRUE(p.insns[2].dep.push_prev);
  EXPECT_EQ(p.insns[3].opcode, Opcode::kGemm);  // no-op carrying compute's pop
  EXPECT_TRUE(p.insns[3].dep.pop_next);
}

TEST(ProgramBuilder, DoublePendingPopEmitsNoop) {
  ProgramBuilder b(cfg8());
  b.load(MemType::kInp, 0, {"", 0}, 1, 1, 1);
  b.push_dep(Module::kLoad, Module::kCompute);
  b.load(MemType::kInp, 0, {"", 0}, 1, 1, 1);
  b.push_dep(Module::kLoad, Module::kCompute);
  b.pop_dep(Module::kLoad, Module::kCompute);
  b.pop_dep(Module::kLoad, Module::kCompute);
  const Program p = b.finish();
  ASSERT_EQ(p.insns.size(), 5u);
  EXPECT_TRUE(p.insns[2].dep.pop_prev);
  EXPECT_TRUE(p.insns[3].dep.pop_prev);
  EXPECT_EQ(p.insns[3].opcode, Opcode::kGemm);
}

TEST(ProgramBuilder, IllegalQueuesAndUnbalancedTokens) {
  ProgramBuilder b(cfg8());
  EXPECT_THROW(b.push_dep(Module::kLoad, Module::kStore), Error);
  EXPECT_THROW(b.pop_dep(Module::kStore, Module::kLoad), Error);
  EXPECT_THROW(b.push_dep(Module::kLoad, Module::kLoad), Error);
  b.load(MemType::kInp, 0, {"", 0}, 1, 1, 1);
  b.push_dep(Module::kLoad, Module::kCompute);
  EXPECT_THROW(b.finish(), Error);

  ProgramBuilderOptions o;
  o.check_tokens = false;
  ProgramBuilder c(cfg8(), o);
  c.push_dep(Module::kLoad, Module::kCompute);
  EXPECT_NO_THROW(c.finish());
  EXPECT_THROW(c.finish(), Error);
}

TEST(ProgramBuilder, KernelLoopsAndFactors) {
  ProgramBuilder b(cfg8());
  b.kernel(KernelOp::gemm(), {{3, 10, 20, 30}, {4, 1, 2, 3}}, {{0, 0, 0}, {5, 6, 7}});
  b.kernel(KernelOp::alu_imm(AluOp::kShr, -3), {{2, 1, 1, 0}}, {{0, 0, 0}});
  const Program p = b.finish();
  ASSERT_EQ(p.insns.size(), 5u);
  const Instruction& g = p.insns[1];
  EXPECT_EQ(g.opcode, Opcode::kGemm);
  EXPECT_EQ(g.uop_bgn, 0u);
  EXPECT_EQ(g.uop_end, 2u);
  EXPECT_EQ(g.iter_out, 3u);
  EXPECT_EQ(g.iter_in, 4u);
  EXPECT_EQ(g.dst_factor_out, 10u);
  EXPECT_EQ(g.src_factor_out, 20u);
  EXPECT_EQ(g.wgt_factor_out, 30u);
  EXPECT_EQ(g.dst_factor_in, 1u);
  EXPECT_EQ(g.src_factor_in, 2u);
  EXPECT_EQ(g.wgt_factor_in, 3u);
  const Instruction& a = p.insns[3];
  EXPECT_EQ(a.opcode, Opcode::kAlu);
  EXPECT_EQ(a.alu_op, AluOp::kShr);
  EXPECT_TRUE(a.use_imm);
  EXPECT_EQ(a.imm, -3);
  EXPECT_EQ(a.iter_out, 2u);
  EXPECT_EQ(a.iter_in, 1u);
  EXPECT_EQ(a.uop_bgn, 2u);
  ASSERT_EQ(p.uops.size(), 3u);
  EXPECT_EQ(p.uops[1], (Uop{5, 6, 7}));

  ProgramBuilder c(cfg8());
  EXPECT_THROW(c.begin_kernel(KernelOp::gemm(), {{0, 0, 0, 0}}), Error);
  EXPECT_THROW(c.begin_kernel(KernelOp::gemm(), {{1}, {1}, {1}}), Error);
  EXPECT_THROW(c.end_kernel(), Error);
  c.begin_kernel(KernelOp::gemm());
  EXPECT_THROW(c.end_kernel(), Error);  // empty
  // ALU kernels may not carry weight factors.
  EXPECT_THROW(c.kernel(KernelOp::alu_imm(AluOp::kAdd, 1), {{2, 1, 1, 1}}, {{0, 0, 0}}), Error);
}

TEST(ProgramBuilder, KernelCacheReusesResidentKernels) {
  ProgramBuilder b(cfg8());
  const std::vector<Uop> k1 = {{0, 0, 0}, {1, 1, 1}};
  const std::vector<Uop> k2 = {{2, 2, 2}};
  b.kernel(KernelOp::gemm(), {}, k1);
  b.kernel(KernelOp::gemm(true), {{4, 1, 0, 0}}, k1);  // same content: no LOAD
  b.kernel(KernelOp::gemm(), {}, k2);
  b.kernel(KernelOp::gemm(), {}, k1);
  const Program p = b.finish();
  EXPECT_EQ(b.uop_loads(), 2u);
  EXPECT_EQ(b.kernel_hits(), 2u);
  ASSERT_EQ(p.insns.size(), 7u);  // 2 uop loads + 4 GEMM + FINISH
  EXPECT_EQ(p.uops.size(), 3u);
  EXPECT_EQ(p.insns[4].uop_bgn, 2u);
  EXPECT_EQ(p.insns[5].uop_bgn, 0u);
  ASSERT_EQ(p.relocs.size(), 2u);
  EXPECT_EQ(p.relocs[1], (Relocation{3, kUopBufferName, 2}));
}

TEST(ProgramBuilder, KernelCacheEvictsWhenFull) {
  ProgramBuilderOptions o;
  o.uop_capacity = 4;
  ProgramBuilder b(cfg8(), o);
  const std::vector<Uop> k1 = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
  const std::vector<Uop> k2 = {{3, 3, 3}, {4, 4, 4}};
  const std::vector<Uop> k3 = {{5, 5, 5}};
  b.kernel(KernelOp::gemm(), {}, k1);  // [0,3)
  b.kernel(KernelOp::gemm(), {}, k3);  // [3,4)
  b.kernel(KernelOp::gemm(), {}, k2);  // full: restart, [0,2) evicts k1, k3 survives
  b.kernel(KernelOp::gemm(), {}, k3);  // hit at 3
  b.kernel(KernelOp::gemm(), {}, k1);  // reload: restart? [2,5) does not fit -> [0,3)
  const Program p = b.finish();
  EXPECT_EQ(b.uop_loads(), 4u);
  EXPECT_EQ(b.kernel_hits(), 1u);
  EXPECT_EQ(b.kernel_evictions(), 2u);
  EXPECT_EQ(p.uops.size(), 6u);  // image holds each distinct kernel once
  // Last GEMM runs k1 from offset 0, loaded from image offset 0.
  const Instruction& last = p.insns[p.insns.size() - 2];
  EXPECT_EQ(last.uop_bgn, 0u);
  EXPECT_EQ(last.uop_end, 3u);
  EXPECT_EQ(p.relocs.back().elem_offset, 0u);
  ProgramBuilder c(cfg8(), o);
  EXPECT_THROW(c.kernel(KernelOp::gemm(), {}, std::vector<Uop>(5)), Error);
  o.uop_capacity = cfg8().uop_depth + 1;
  EXPECT_THROW(ProgramBuilder(cfg8(), o), Error);
}

TEST(ProgramBuilder, RawUopLoadEmptiesTheCache) {
  ProgramBuilder b(cfg8());
  const std::vector<Uop> k1 = {{0, 0, 0}};
  b.kernel(KernelOp::gemm(), {}, k1);
  const std::uint64_t off = b.append_uops({{7, 7, 7}});
  b.load(MemType::kUop, 0, {kUopBufferName, off}, 1, 1, 1);
  EXPECT_THROW(b.load(MemType::kUop, 0, {kUopBufferName, off}, 1, 2, 2), Error);
  b.kernel(KernelOp::gemm(), {}, k1);  // must reload
  b.finish();
  EXPECT_EQ(b.uop_loads(), 2u);
  EXPECT_EQ(b.kernel_hits(), 0u);
}

}  // namespace
}  // namespace tandem::isa
