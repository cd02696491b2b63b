// Randomized differential test: FunctionalCore GEMM/ALU (SIMD and scalar
// kernels) against a plain scalar reference written from isa/insn.h, over
// several block shapes; plus the reported first out-of-range micro-op
// against a brute-force scan.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim_test_util.h"

namespace tandem::sim::testing {
namespace {

std::int32_t wrap32(std::int64_t v) {
  const std::uint32_t u = static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) & 0xffffffffu);
  return u >= 0x80000000u ? static_cast<std::int32_t>(static_cast<std::int64_t>(u) - (1ll << 32))
                          : static_cast<std::int32_t>(u);
}
std::int8_t low8(std::int32_t v) {
  return static_cast<std::int8_t>(((v & 0xff) ^ 0x80) - 0x80);
}

// The reference: state copied from a core, then updated by plain loops.
struct RefCore {
  int B, BI, BO;
  std::vector<Uop> uop;
  std::vector<std::int8_t> inp, wgt, out;
  std::vector<std::int32_t> acc;

  void run(const Instruction& in) {
    for (std::uint32_t i0 = 0; i0 < in.iter_out; ++i0)
      for (std::uint32_t i1 = 0; i1 < in.iter_in; ++i1)
        for (std::uint32_t u = in.uop_bgn; u < in.uop_end; ++u) {
          const std::int64_t a = uop[u].dst + i0 * in.dst_factor_out + i1 * in.dst_factor_in;
          const std::int64_t s = uop[u].src + i0 * in.src_factor_out + i1 * in.src_factor_in;
          const std::int64_t w = uop[u].wgt + i0 * in.wgt_factor_out + i1 * in.wgt_factor_in;
          for (int b = 0; b < B; ++b)
            for (int o = 0; o < BO; ++o) {
              std::int32_t& x = acc[(a * B + b) * BO + o];
              std::int32_t r;
              if (in.reset) {
                r = 0;
              } else if (in.opcode == isa::Opcode::kGemm) {
                std::int64_t sum = x;
                for (int i = 0; i < BI; ++i)
                  sum += std::int64_t{inp[(s * B + b) * BI + i]} * wgt[(w * BO + o) * BI + i];
                r = wrap32(sum);
              } else {
                const std::int64_t xv = x;
                const std::int64_t y = in.use_imm ? in.imm : acc[(s * B + b) * BO + o];
                switch (in.alu_op) {
                  case AluOp::kMin:
                    r = static_cast<std::int32_t>(std::min(xv, y));
                    break;
                  case AluOp::kMax:
                    r = static_cast<std::int32_t>(std::max(xv, y));
                    break;
                  case AluOp::kAdd:
                    r = wrap32(xv + y);
                    break;
                  case AluOp::kMul:
                    r = wrap32(xv * y);
                    break;
                  case AluOp::kShr:
                    if (y >= 0) {
                      const std::int64_t k = std::min<std::int64_t>(y, 31);
                      r = static_cast<std::int32_t>(xv >= 0 ? xv >> k : -((-xv - 1) >> k) - 1);
                    } else {
                      r = wrap32(xv * (std::int64_t{1} << std::min<std::int64_t>(-y, 31)));
                    }
                    break;
                  default:
                    r = 0;
                    ADD_FAILURE();
                }
              }
              x = r;
              out[(a * B + b) * BO + o] = low8(r);
            }
        }
  }
};

struct Shape {
  int batch, block_in, block_out;
};

class CoreRandom : public ::testing::TestWithParam<Shape> {};

TEST_P(CoreRandom, MatchesScalarReference) {
  const Shape sh = GetParam();
  const HwConfig cfg = small_config(sh.batch, sh.block_in, sh.block_out);
  CoreHarness fast(cfg), slow(cfg);
  slow.core.set_simd(false);
  std::mt19937 rng(1234u +
                   static_cast<unsigned>(sh.batch * 1000 + sh.block_in * 10 + sh.block_out));
  auto rnd = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto fill_i8 = [&](MemType mt, std::uint32_t depth) {
    std::vector<std::int8_t> v(static_cast<std::size_t>(depth) *
                               cfg.elem_bytes(static_cast<int>(mt)));
    for (auto& x : v) x = static_cast<std::int8_t>(rnd(-128, 127));
    fast.put_i8(mt, v, 0);
    slow.put_i8(mt, v, 0);
  };
  auto fill_acc = [&] {
    std::vector<std::int32_t> v(static_cast<std::size_t>(cfg.acc_depth) * cfg.batch *
                                cfg.block_out);
    for (auto& x : v)
      x = static_cast<std::int32_t>(rnd(0, 3) == 0 ? rnd(INT32_MIN, INT32_MAX)
                                                   : rnd(-100000, 100000));
    fast.put_acc(v, 0);
    slow.put_acc(v, 0);
  };
  fill_i8(MemType::kInp, cfg.inp_depth);
  fill_i8(MemType::kWgt, cfg.wgt_depth);
  fill_acc();
  RefCore ref{cfg.batch,
              cfg.block_in,
              cfg.block_out,
              {},
              slow.core.inp_sram(),
              slow.core.wgt_sram(),
              slow.core.out_sram(),
              slow.core.acc_sram()};
  std::uint64_t uops_run = 0;
  for (int step = 0; step < 200; ++step) {
    if (step % 40 == 39) {
      fill_acc();
      ref.acc = slow.core.acc_sram();
    }
    const bool is_gemm = rnd(0, 9) < 6;
    Instruction in;
    if (is_gemm) {
      in = gemm(0, 0, static_cast<std::uint32_t>(rnd(1, 3)), static_cast<std::uint32_t>(rnd(1, 4)),
                rnd(0, 9) == 0);
    } else {
      in = alu(static_cast<AluOp>(rnd(0, 4)), 0, 0, rnd(0, 1) == 1, 0,
               static_cast<std::uint32_t>(rnd(1, 3)), static_cast<std::uint32_t>(rnd(1, 4)));
      in.imm = static_cast<std::int32_t>(
          in.alu_op == AluOp::kShr && rnd(0, 1) ? rnd(-40, 40) : rnd(-32768, 32767));
      in.reset = rnd(0, 19) == 0;
    }
    // Factors, then uop fields small enough that every index stays in range.
    auto pick = [&](std::uint32_t& fo, std::uint32_t& fi, std::uint32_t depth) {
      fo = static_cast<std::uint32_t>(rnd(0, 5));
      fi = static_cast<std::uint32_t>(rnd(0, 5));
      const std::int64_t span =
          std::int64_t{in.iter_out - 1} * fo + std::int64_t{in.iter_in - 1} * fi;
      if (span >= depth) fo = fi = 0;
      return static_cast<std::int64_t>(depth) - 1 -
             (std::int64_t{in.iter_out - 1} * fo + std::int64_t{in.iter_in - 1} * fi);
    };
    const std::int64_t dmax = pick(in.dst_factor_out, in.dst_factor_in, cfg.acc_depth);
    const std::int64_t smax =
        pick(in.src_factor_out, in.src_factor_in, is_gemm ? cfg.inp_depth : cfg.acc_depth);
    std::int64_t wmax = 0;
    if (is_gemm) wmax = pick(in.wgt_factor_out, in.wgt_factor_in, cfg.wgt_depth);
    const int nu = static_cast<int>(rnd(1, 6));
    const std::uint32_t base = static_cast<std::uint32_t>(rnd(0, 8));
    std::vector<Uop> uops;
    for (int k = 0; k < nu; ++k)
      uops.push_back(Uop{static_cast<std::uint32_t>(rnd(0, dmax)),
                         static_cast<std::uint32_t>(rnd(0, smax)),
                         static_cast<std::uint32_t>(rnd(0, wmax))});
    fast.put_uops(uops, base);
    slow.put_uops(uops, base);
    ref.uop = slow.core.uop_sram();
    in.uop_bgn = base + static_cast<std::uint32_t>(rnd(0, 1));
    in.uop_end = base + static_cast<std::uint32_t>(nu);
    fast.core.execute(in, static_cast<std::size_t>(step));
    slow.core.execute(in, static_cast<std::size_t>(step));
    ref.run(in);
    uops_run += isa::uop_count(in);
    ASSERT_EQ(slow.core.acc_sram(), ref.acc) << "scalar kernel, step " << step;
    ASSERT_EQ(slow.core.out_sram(), ref.out) << "scalar kernel, step " << step;
    ASSERT_EQ(fast.core.acc_sram(), ref.acc) << "simd kernel, step " << step;
    ASSERT_EQ(fast.core.out_sram(), ref.out) << "simd kernel, step " << step;
  }
  EXPECT_GT(uops_run, 500u);
  EXPECT_EQ(fast.core.counters().macs, slow.core.counters().macs);
}

INSTANTIATE_TEST_SUITE_P(Shapes, CoreRandom,
                         ::testing::Values(Shape{1, 8, 8}, Shape{2, 8, 8}, Shape{1, 16, 16},
                                           Shape{1, 16, 8}, Shape{2, 32, 16}, Shape{1, 4, 4},
                                           Shape{1, 8, 16}, Shape{1, 64, 8}, Shape{4, 2, 32}),
                         [](const auto& info) {
                           const Shape& s = info.param;
                           return "b" + std::to_string(s.batch) + "_bi" +
                                  std::to_string(s.block_in) + "_bo" + std::to_string(s.block_out);
                         });

TEST(CoreRandomBounds, FirstOffenderMatchesBruteForce) {
  const HwConfig cfg = small_config();
  CoreHarness h(cfg);
  std::mt19937 rng(99);
  auto rnd = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int errors = 0;
  for (int t = 0; t < 400; ++t) {
    Instruction g =
        gemm(0, static_cast<std::uint32_t>(rnd(1, 4)), static_cast<std::uint32_t>(rnd(1, 4)),
             static_cast<std::uint32_t>(rnd(1, 4)));
    g.dst_factor_out = static_cast<std::uint32_t>(rnd(0, 40));
    g.dst_factor_in = static_cast<std::uint32_t>(rnd(0, 40));
    g.src_factor_out = static_cast<std::uint32_t>(rnd(0, 40));
    g.src_factor_in = static_cast<std::uint32_t>(rnd(0, 40));
    g.wgt_factor_out = static_cast<std::uint32_t>(rnd(0, 20));
    g.wgt_factor_in = static_cast<std::uint32_t>(rnd(0, 20));
    std::vector<Uop> uops;
    for (std::uint32_t u = 0; u < g.uop_end; ++u)
      uops.push_back(Uop{static_cast<std::uint32_t>(rnd(0, 127)),
                         static_cast<std::uint32_t>(rnd(0, 127)),
                         static_cast<std::uint32_t>(rnd(0, 63))});
    h.put_uops(uops);
    // Brute force, in execution order, operands in the order dst, src, wgt.
    std::string want;
    for (std::uint32_t i0 = 0; i0 < g.iter_out && want.empty(); ++i0)
      for (std::uint32_t i1 = 0; i1 < g.iter_in && want.empty(); ++i1)
        for (std::uint32_t u = 0; u < g.uop_end && want.empty(); ++u) {
          const std::uint64_t idx[3] = {uops[u].dst + i0 * g.dst_factor_out + i1 * g.dst_factor_in,
                                        uops[u].src + i0 * g.src_factor_out + i1 * g.src_factor_in,
                                        uops[u].wgt + i0 * g.wgt_factor_out + i1 * g.wgt_factor_in};
          const std::uint64_t depth[3] = {cfg.acc_depth, cfg.inp_depth, cfg.wgt_depth};
          const char* buf[3] = {"acc", "inp", "wgt"};
          for (int k = 0; k < 3 && want.empty(); ++k)
            if (idx[k] >= depth[k])
              want = std::string(buf[k]) + " index " + std::to_string(idx[k]) +
                     " is out of range (" + buf[k] + " depth " + std::to_string(depth[k]) +
                     ") at iter_out " + std::to_string(i0) + ", iter_in " + std::to_string(i1) +
                     ", uop " + std::to_string(u) + ":";
        }
    const std::vector<std::int32_t> before = h.core.acc_sram();
    if (want.empty()) {
      h.core.execute(g, 7);
    } else {
      ++errors;
      expect_error([&] { h.core.execute(g, 7); }, {"instruction 7 (GEMM): " + want});
      EXPECT_EQ(h.core.acc_sram(), before) << "a failed instruction must have no effect";
    }
  }
  EXPECT_GT(errors, 50);
  EXPECT_LT(errors, 390);
}

}  // namespace
}  // namespace tandem::sim::testing
