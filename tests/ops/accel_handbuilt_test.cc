// The accelerator back end on hand-written lowered IR (the exact form
// compiler::lower() hands over, compiler/README.md "Contract"), independent
// of the scheduling front end: a blocked GEMM with DMA copies, a GEMM reset,
// an ALU epilogue in separate acc stages (aliased in place), a narrowing out
// stage and a store, with 1 and 2 virtual threads, checked bit-exactly on
// fsim against host_cpu. Also the pass-level errors.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "compiler/accel/build_accel.h"
#include "compiler/ir/op.h"
#include "driver/runtime.h"
#include "host_cpu/reference.h"
#include "isa/error.h"

namespace tandem {
namespace {

using ir::Buffer;
using ir::DType;
using ir::Expr;
using ir::Stmt;
using ir::Var;

struct GemmCase {
  int mb = 2, nb = 2, kb = 2;  // blocks: rows of B, columns of BO, depth of BI
  int tm = 1, tn = 1, tk = 1;  // tile sizes in blocks
  int shift = 0;
  int vthreads = 1;  // split over n
  bool separate_stages = true;
};

Stmt loops(const std::vector<std::pair<Var, int>>& l, Stmt body) {
  for (auto it = l.rbegin(); it != l.rend(); ++it)
    if (it->second > 1) body = ir::for_loop(it->first, Expr(0), Expr(it->second), body);
  return body;
}

// Substitutes extent-1 loop vars by 0 (as remove_unit_loops would).
Expr v_or_0(const Var& v, int ext) {
  return ext > 1 ? Expr(v) : Expr(0);
}

// C[m][n] = A[m][k] . W[n][k]^T blocked: A [mb][kb][B][BI], W [nb][kb][BO][BI],
// C [mb][nb][B][BO] int8 = clip(acc >> shift, -128, 127).
compiler::LoweredFunc gemm_ir(const HwConfig& cfg, const GemmCase& g) {
  const int B = cfg.batch, BI = cfg.block_in, BO = cfg.block_out;
  Buffer A("A", DType::kInt8, {Expr(g.mb * g.kb * B * BI)});
  Buffer W("W", DType::kInt8, {Expr(g.nb * g.kb * BO * BI)});
  Buffer C("C", DType::kInt8, {Expr(g.mb * g.nb * B * BO)});
  const int tn_all = g.tn * g.vthreads;
  Var mo("mo"), no("no"), vt("vt"), ko("ko"), m("m"), n("n"), k("k"), b("b"), i("i"), o("o");
  const int acc_n = g.tm * g.tn * B * BO;
  Buffer acc("C.acc", DType::kInt32, {Expr(acc_n)}, "acc");
  Buffer shr("C.shr", DType::kInt32, {Expr(acc_n)}, "acc");
  Buffer clip("C.clip", DType::kInt32, {Expr(acc_n)}, "acc");
  Buffer out("C.out", DType::kInt8, {Expr(acc_n)}, "out");
  Buffer ai("A.inp", DType::kInt8, {Expr(g.tm * g.tk * B * BI)}, "inp");
  Buffer wi("W.wgt", DType::kInt8, {Expr(g.tn * g.tk * BO * BI)}, "wgt");
  const Expr M = v_or_0(m, g.tm), N = v_or_0(n, g.tn), K = v_or_0(k, g.tk);
  const Expr MO = v_or_0(mo, g.mb / g.tm), NO = v_or_0(no, g.nb / tn_all),
             KO = v_or_0(ko, g.kb / g.tk), VT = v_or_0(vt, g.vthreads);
  const Expr Bv = v_or_0(b, B);
  const Expr gm = MO * g.tm + M;                      // global m block
  const Expr gn = (NO * g.vthreads + VT) * g.tn + N;  // global n block
  const Expr gk = KO * g.tk + K;
  const Expr acc_el = (M * g.tn + N);              // acc element of (m, n)
  const Expr acc_sc = (acc_el * B + Bv) * BO + o;  // scalar
  auto gemm_call = [&](const std::string& name, std::vector<Expr> args, std::vector<Buffer> bufs) {
    return ir::AttrStmtNode::make("tensorize", Expr(0), "gemm",
                                  ir::evaluate(ir::call(DType::kInt32, name, args, bufs)));
  };
  Stmt reset = loops({{m, g.tm}, {n, g.tn}}, gemm_call("gemm_reset", {acc_el}, {acc}));
  Stmt load_a =
      ir::AttrStmtNode::make("dma_copy", Expr(0), "A.inp",
                             loops({{m, g.tm}, {k, g.tk}, {b, B}, {i, BI}},
                                   ir::store(ai, {((M * g.tk + K) * B + Bv) * BI + i},
                                             ir::load(A, {((gm * g.kb + gk) * B + Bv) * BI + i}))));
  Stmt load_w =
      ir::AttrStmtNode::make("dma_copy", Expr(0), "W.wgt",
                             loops({{n, g.tn}, {k, g.tk}, {o, BO}, {i, BI}},
                                   ir::store(wi, {((N * g.tk + K) * BO + o) * BI + i},
                                             ir::load(W, {((gn * g.kb + gk) * BO + o) * BI + i}))));
  Stmt update =
      loops({{m, g.tm}, {n, g.tn}, {k, g.tk}},
            gemm_call("gemm_update", {acc_el, M * g.tk + K, N * g.tk + K}, {acc, ai, wi}));
  Stmt kloop = loops(
      {{ko, g.kb / g.tk}},
      ir::AllocateNode::make(ai, ir::AllocateNode::make(wi, ir::seq({load_a, load_w, update}))));
  const Buffer& last = g.separate_stages ? clip : acc;
  auto elem_loops = [&](Stmt s) { return loops({{m, g.tm}, {n, g.tn}, {b, B}, {o, BO}}, s); };
  Stmt epi_shr =
      ir::AttrStmtNode::make("alu", Expr(0), "C.shr",
                             elem_loops(ir::store(g.separate_stages ? shr : acc, {acc_sc},
                                                  ir::load(acc, {acc_sc}) >> Expr(g.shift))));
  const Buffer& mid = g.separate_stages ? shr : acc;
  Stmt epi_min = ir::AttrStmtNode::make(
      "alu", Expr(0), "C.clip",
      elem_loops(ir::store(last, {acc_sc}, ir::min(ir::load(mid, {acc_sc}), Expr(127)))));
  Stmt epi_max = ir::AttrStmtNode::make(
      "alu", Expr(0), "C.clip2",
      elem_loops(ir::store(last, {acc_sc}, ir::max(ir::load(last, {acc_sc}), Expr(-128)))));
  Stmt narrow =
      elem_loops(ir::store(out, {acc_sc}, ir::cast(DType::kInt8, ir::load(last, {acc_sc}))));
  Stmt store = ir::AttrStmtNode::make(
      "dma_copy", Expr(0), "C",
      elem_loops(ir::store(C, {((gm * g.nb + gn) * B + Bv) * BO + o}, ir::load(out, {acc_sc}))));
  Stmt tile = ir::seq({reset, kloop, epi_shr, epi_min, epi_max,
                       ir::AllocateNode::make(out, ir::seq({narrow, store}))});
  if (g.separate_stages) tile = ir::AllocateNode::make(shr, ir::AllocateNode::make(clip, tile));
  tile = ir::AllocateNode::make(acc, tile);
  if (g.vthreads > 1)
    tile = ir::for_loop(vt, Expr(0), Expr(g.vthreads), tile, ir::ForKind::kVThread);
  Stmt body = loops({{mo, g.mb / g.tm}, {no, g.nb / tn_all}}, tile);
  compiler::LoweredFunc f;
  f.name = "gemm";
  f.args = {A, W, C};
  f.body = body;
  return f;
}

std::vector<std::int8_t> random_i8(std::size_t n, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}

void run_gemm_case(const std::string& preset, const GemmCase& g) {
  const HwConfig cfg = HwConfig::load_preset(preset);
  const int B = cfg.batch, BI = cfg.block_in, BO = cfg.block_out;
  compiler::LoweredFunc f = gemm_ir(cfg, g);
  accel::AccelProgram p = accel::build_accel(f, cfg);
  std::mt19937 rng(7);
  const int M = g.mb * B, N = g.nb * BO, K = g.kb * BI;
  std::vector<std::int8_t> a = random_i8(static_cast<std::size_t>(M) * K, rng);
  std::vector<std::int8_t> w = random_i8(static_cast<std::size_t>(N) * K, rng);
  // Blocked layouts.
  std::vector<std::int8_t> ap(a.size()), wp(w.size());
  for (int mm = 0; mm < M; ++mm)
    for (int kk = 0; kk < K; ++kk)
      ap[((static_cast<std::size_t>(mm / B) * g.kb + kk / BI) * B + mm % B) * BI + kk % BI] =
          a[static_cast<std::size_t>(mm) * K + kk];
  for (int nn = 0; nn < N; ++nn)
    for (int kk = 0; kk < K; ++kk)
      wp[((static_cast<std::size_t>(nn / BO) * g.kb + kk / BI) * BO + nn % BO) * BI + kk % BI] =
          w[static_cast<std::size_t>(nn) * K + kk];
  driver::Runtime rt(cfg, "fsim");
  rt.allocate("A", ap.size());
  rt.write("A", ap.data(), ap.size());
  rt.allocate("W", wp.size());
  rt.write("W", wp.data(), wp.size());
  rt.allocate("C", static_cast<std::size_t>(M) * N);
  rt.run(p.program);
  const auto c = rt.read_as<std::int8_t>("C");
  const auto ref = host_cpu::gemm_s8(a, w, M, N, K);
  const auto q = host_cpu::narrow(host_cpu::shift_requantize(ref, g.shift, -128, 127));
  for (int mm = 0; mm < M; ++mm)
    for (int nn = 0; nn < N; ++nn) {
      const std::size_t idx =
          ((static_cast<std::size_t>(mm / B) * g.nb + nn / BO) * B + mm % B) * BO + nn % BO;
      ASSERT_EQ(c[idx], q[static_cast<std::size_t>(mm) * N + nn])
          << preset << " m=" << mm << " n=" << nn;
    }
}

TEST(AccelHandBuilt, GemmOneTile) {
  GemmCase g;
  g.mb = g.nb = g.kb = 1;
  g.shift = 4;
  run_gemm_case("tandem-8x8", g);
}

TEST(AccelHandBuilt, GemmTiledBothPresets) {
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    GemmCase g;
    g.mb = 4, g.nb = 4, g.kb = 6, g.tm = 2, g.tn = 2, g.tk = 3, g.shift = 7;
    run_gemm_case(preset, g);
  }
}

TEST(AccelHandBuilt, GemmTwoVirtualThreads) {
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    GemmCase g;
    g.mb = 2, g.nb = 8, g.kb = 4, g.tm = 2, g.tn = 2, g.tk = 2, g.shift = 6, g.vthreads = 2;
    run_gemm_case(preset, g);
  }
}

TEST(AccelHandBuilt, GemmInPlaceEpilogue) {
  GemmCase g;
  g.mb = 2, g.nb = 2, g.kb = 2, g.tm = 1, g.tn = 2, g.tk = 1, g.shift = 5;
  g.separate_stages = false;
  run_gemm_case("tandem-8x8", g);
}

TEST(AccelHandBuilt, SramOverflowNamesBuffer) {
  const HwConfig cfg = HwConfig::load_preset("tandem-8x8");
  GemmCase g;
  g.mb = 64, g.nb = 1, g.kb = 64, g.tm = 64, g.tn = 1, g.tk = 64;  // inp tile 4096 > 2048
  try {
    accel::build_accel(gemm_ir(cfg, g), cfg);
    FAIL() << "expected an SRAM overflow";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("inp SRAM overflow"), std::string::npos) << m;
    EXPECT_NE(m.find("A.inp"), std::string::npos) << m;
    EXPECT_NE(m.find("4096"), std::string::npos) << m;
    EXPECT_NE(m.find("2048"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace tandem
