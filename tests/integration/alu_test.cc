// ALU instruction tests on every target: each op with an immediate and with a
// tensor operand, ReLU, shift-and-scale requantization, and the store/load
// of the output buffer. All 32 bits of every ALU result are checked by
// storing the result, shifting it right by 8 and storing again (x4), with
// store->compute tokens protecting the out rows between the stores.
#include <limits>

#include "harness.h"
#include "host_cpu/reference.h"

namespace tandem::integration {
namespace {

using isa::AluOp;
using isa::MemType;
using isa::Module;

class AluTest : public AccelTest {
 protected:
  // Loads X (n rows) to acc[0..n) and Y (n rows) to acc[n..2n), runs
  // `ops` (each over the n rows dst = i, src = n + i), then stores the four
  // bytes of every result. Returns the int32 results reassembled.
  std::vector<std::int32_t> run_ops(const std::vector<std::int32_t>& x,
                                    const std::vector<std::int32_t>& y,
                                    const std::vector<isa::KernelOp>& ops) {
    const auto n = static_cast<std::uint32_t>(x.size() / row());
    std::vector<std::int32_t> xy = x;
    xy.insert(xy.end(), y.begin(), y.end());
    put("XY", xy);
    driver::CommandBuilder b(cfg);
    b.declare_buffer("XY", xy.size() * 4);
    for (int k = 0; k < 4; ++k) {
      b.declare_buffer("O" + std::to_string(k), n * cfg.out_elem_bytes);
      make("O" + std::to_string(k), n * cfg.out_elem_bytes);
    }
    b.load(MemType::kAcc, 0, {"XY", 0}, 1, 2 * n, 2 * n);
    for (const auto& op : ops) b.kernel(op, {{n, 1, 1, 0}}, {{0, n, 0}});
    for (int k = 0; k < 4; ++k) {
      if (k > 0) {
        b.pop_dep(Module::kStore, Module::kCompute);  // out rows stored: may overwrite
        b.kernel(isa::KernelOp::alu_imm(AluOp::kShr, 8), {{n, 1, 1, 0}}, {{0, 0, 0}});
      }
      b.push_dep(Module::kCompute, Module::kStore);
      b.pop_dep(Module::kCompute, Module::kStore);
      b.store(0, {"O" + std::to_string(k), 0}, 1, n, n);
      if (k < 3) b.push_dep(Module::kStore, Module::kCompute);
    }
    rt->run(b.finish());
    std::vector<std::int32_t> r(x.size(), 0);
    for (int k = 0; k < 4; ++k) {
      const auto o = get<std::int8_t>("O" + std::to_string(k));
      for (std::size_t i = 0; i < r.size(); ++i)
        r[i] =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(r[i]) |
                                      (static_cast<std::uint32_t>(std::uint8_t(o[i])) << (8 * k)));
    }
    return r;
  }

  std::vector<std::int32_t> host(const std::vector<std::int32_t>& x,
                                 const std::vector<std::int32_t>& y,
                                 const std::vector<isa::KernelOp>& ops) {
    std::vector<std::int32_t> r = x;
    for (const auto& op : ops)
      for (std::size_t i = 0; i < r.size(); ++i)
        r[i] = op.reset ? 0 : host_cpu::alu(op.alu_op, r[i], op.use_imm ? op.imm : y[i]);
    return r;
  }

  void check(const std::vector<std::int32_t>& x, const std::vector<std::int32_t>& y,
             const std::vector<isa::KernelOp>& ops, const std::string& what) {
    const auto got = run_ops(x, y, ops);
    const auto want = host(x, y, ops);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], want[i]) << what << " at element " << i << " (x=" << x[i] << ", y=" << y[i]
                                 << ")";
  }

  int rows() const { return slow_target() ? 4 : 16; }
};

TEST_P(AluTest, EachOpWithImmediate) {
  const std::size_t n = std::size_t(rows()) * row();
  auto x = random_vec<std::int32_t>(n, -100000, 100000);
  x[0] = std::numeric_limits<std::int32_t>::max();
  x[1] = std::numeric_limits<std::int32_t>::min();
  const std::vector<std::int32_t> y(n, 0);
  const struct {
    AluOp op;
    int imm;
  } cases[] = {{AluOp::kMin, 77}, {AluOp::kMin, -5000},  {AluOp::kMax, 123}, {AluOp::kMax, -32768},
               {AluOp::kAdd, 1},  {AluOp::kAdd, -32768}, {AluOp::kShr, 3},   {AluOp::kShr, 0},
               {AluOp::kShr, -4}, {AluOp::kShr, 40},     {AluOp::kShr, -40}, {AluOp::kMul, 32767},
               {AluOp::kMul, -3}};
  for (const auto& c : cases)
    check(x, y, {isa::KernelOp::alu_imm(c.op, c.imm)},
          std::string(isa::alu_op_name(c.op)) + " imm " + std::to_string(c.imm));
}

TEST_P(AluTest, EachOpWithTensorOperand) {
  const std::size_t n = std::size_t(rows()) * row();
  auto x = random_vec<std::int32_t>(n, -2000000000, 2000000000);
  for (AluOp op : {AluOp::kMin, AluOp::kMax, AluOp::kAdd, AluOp::kMul}) {
    const auto y = random_vec<std::int32_t>(n, -2000000000, 2000000000);
    check(x, y, {isa::KernelOp::alu_tensor(op)}, std::string(isa::alu_op_name(op)) + " tensor");
  }
  // Shift amounts incl. negative (left) and beyond 31.
  const auto s = random_vec<std::int32_t>(n, -40, 40);
  check(x, s, {isa::KernelOp::alu_tensor(AluOp::kShr)}, "SHR tensor");
}

TEST_P(AluTest, Relu) {
  const std::size_t n = std::size_t(rows()) * row();
  const auto x = random_vec<std::int32_t>(n, -1000, 1000);
  check(x, std::vector<std::int32_t>(n), {isa::KernelOp::alu_imm(AluOp::kMax, 0)}, "ReLU");
}

TEST_P(AluTest, ShiftAndScaleThenClip) {
  const std::size_t n = std::size_t(rows()) * row();
  const auto x = random_vec<std::int32_t>(n, -1 << 20, 1 << 20);
  const std::vector<isa::KernelOp> ops = {
      isa::KernelOp::alu_imm(AluOp::kShr, 6), isa::KernelOp::alu_imm(AluOp::kMul, 3),
      isa::KernelOp::alu_imm(AluOp::kMin, 127), isa::KernelOp::alu_imm(AluOp::kMax, -128)};
  check(x, std::vector<std::int32_t>(n), ops, "shift-scale-clip");
  // Same pipeline on the host through the reference requantizer.
  const auto got = run_ops(x, std::vector<std::int32_t>(n), ops);
  std::vector<std::int32_t> scaled(n);
  for (std::size_t i = 0; i < n; ++i) scaled[i] = host_cpu::shift_right(x[i], 6) * 3;
  EXPECT_EQ(got, host_cpu::shift_requantize(scaled, 0, -128, 127));
}

TEST_P(AluTest, StoreLoadOfTheOutputBuffer) {
  // Load acc, ALU add 0, store: out = narrow(acc).
  const std::size_t n = std::size_t(rows()) * row();
  const auto x = random_vec<std::int32_t>(n, std::numeric_limits<std::int32_t>::min(),
                                          std::numeric_limits<std::int32_t>::max());
  put("X", x);
  make("O", n);
  const auto nr = static_cast<std::uint32_t>(rows());
  driver::CommandBuilder b(cfg);
  b.declare_buffer("X", n * 4);
  b.declare_buffer("O", n);
  b.load(MemType::kAcc, 0, {"X", 0}, 1, nr, nr);
  b.kernel(isa::KernelOp::alu_imm(AluOp::kAdd, 0), {{nr, 1, 1, 0}}, {{0, 0, 0}});
  b.push_dep(Module::kCompute, Module::kStore);
  b.pop_dep(Module::kCompute, Module::kStore);
  b.store(0, {"O", 0}, 1, nr, nr);
  const auto stats = rt->run(b.finish());
  const auto o = get<std::int8_t>("O");
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(o[i], host_cpu::narrow_s8(x[i])) << i;
  EXPECT_EQ(stats.get("uop.alu"), nr);
  EXPECT_EQ(stats.get("bytes.store.out"), n);
}

INSTANTIATE_TEST_SUITE_P(Targets, AluTest, testing::ValuesIn(all_targets()), target_name);

}  // namespace
}  // namespace tandem::integration
