// validate(): every structural rule of a single instruction is enforced with
// a message naming the instruction, the value and the rule; legal corner
// cases are accepted.
#include <gtest/gtest.h>

#include "isa/codec.h"
#include "tests/isa/isa_test_util.h"

namespace tandem::isa {
namespace {

using testing::expect_error;

const HwConfig& cfg() {
  return testing::preset("tandem-8x8");
}

Instruction load(MemType m) {
  Instruction i;
  i.opcode = Opcode::kLoad;
  i.mem_type = m;
  i.y_size = 2;
  i.x_size = 4;
  i.x_stride = 4;
  return i;
}

Instruction store() {
  Instruction i = load(MemType::kOut);
  i.opcode = Opcode::kStore;
  return i;
}

Instruction compute(Opcode op) {
  Instruction i;
  i.opcode = op;
  i.uop_bgn = 0;
  i.uop_end = 4;
  i.iter_out = i.iter_in = 1;
  return i;
}

void invalid(const Instruction& i, std::initializer_list<std::string> parts) {
  expect_error([&] { validate(cfg(), i, 7); }, parts);
}

TEST(Validate, LegalInstructionsAccepted) {
  for (MemType m : {MemType::kUop, MemType::kWgt, MemType::kInp, MemType::kAcc})
    EXPECT_NO_THROW(validate(cfg(), load(m), 0));
  EXPECT_NO_THROW(validate(cfg(), store(), 0));
  EXPECT_NO_THROW(validate(cfg(), compute(Opcode::kGemm), 0));
  EXPECT_NO_THROW(validate(cfg(), compute(Opcode::kAlu), 0));
  Instruction f;
  f.opcode = Opcode::kFinish;
  f.dep = {true, true, true, true};
  EXPECT_NO_THROW(validate(cfg(), f, 0));
  // Compute-module loads (uop, acc) may use all four flags; padding on inp.
  Instruction a = load(MemType::kAcc);
  a.dep = {true, true, true, true};
  a.y_pad_0 = a.x_pad_1 = 15;
  EXPECT_NO_THROW(validate(cfg(), a, 0));
  // One row: stride is irrelevant.
  Instruction one = load(MemType::kInp);
  one.y_size = 1;
  one.x_stride = 0;
  EXPECT_NO_THROW(validate(cfg(), one, 0));
  // Empty and full micro-op ranges.
  Instruction g = compute(Opcode::kGemm);
  g.uop_bgn = g.uop_end = 5;
  EXPECT_NO_THROW(validate(cfg(), g, 0));
  g.uop_bgn = 0;
  g.uop_end = cfg().uop_depth;
  EXPECT_NO_THROW(validate(cfg(), g, 0));
}

TEST(Validate, LoadOfOutRejected) {
  invalid(load(MemType::kOut), {"instruction 7 (LOAD)", "memory type out cannot be loaded"});
}

TEST(Validate, UnknownMemoryTypeRejected) {
  invalid(load(static_cast<MemType>(5)),
          {"instruction 7 (LOAD)", "memory type 5 is not one of 0..4"});
  Instruction s = store();
  s.mem_type = static_cast<MemType>(7);
  invalid(s, {"instruction 7 (STORE)", "memory type 7 is not one of 0..4"});
}

TEST(Validate, PaddedMicroOpLoadRejected) {
  for (int k = 0; k < 4; ++k) {
    Instruction i = load(MemType::kUop);
    std::uint32_t* pads[4] = {&i.y_pad_0, &i.y_pad_1, &i.x_pad_0, &i.x_pad_1};
    *pads[k] = 1;
    invalid(i, {"micro-op loads cannot pad"});
  }
}

TEST(Validate, LoadModuleWithPrevFlagsRejected) {
  for (MemType m : {MemType::kInp, MemType::kWgt}) {
    Instruction i = load(m);
    i.dep.pop_prev = true;
    invalid(i, {"load module", "pop_prev/push_prev must be 0"});
    i = load(m);
    i.dep.push_prev = true;
    invalid(i, {"load module", "pop_prev/push_prev must be 0"});
  }
}

TEST(Validate, StoreOfNonOutRejected) {
  for (MemType m : {MemType::kUop, MemType::kWgt, MemType::kInp, MemType::kAcc}) {
    Instruction i = store();
    i.mem_type = m;
    invalid(i, {"instruction 7 (STORE)",
                "memory type " + std::string(mem_type_name(m)) + " cannot be stored (only out)"});
  }
}

TEST(Validate, PaddedStoreRejected) {
  for (int k = 0; k < 4; ++k) {
    Instruction i = store();
    std::uint32_t* pads[4] = {&i.y_pad_0, &i.y_pad_1, &i.x_pad_0, &i.x_pad_1};
    *pads[k] = 2;
    invalid(i, {"stores cannot pad"});
  }
}

TEST(Validate, StoreWithNextFlagsRejected) {
  Instruction i = store();
  i.dep.pop_next = true;
  invalid(i, {"store module has no next module", "pop_next/push_next must be 0"});
  i = store();
  i.dep.push_next = true;
  invalid(i, {"store module has no next module"});
}

TEST(Validate, StrideSmallerThanRowRejected) {
  Instruction i = load(MemType::kInp);
  i.x_stride = 3;
  invalid(i, {"x_stride 3 is smaller than x_size 4"});
  Instruction s = store();
  s.x_stride = 1;
  invalid(s, {"instruction 7 (STORE)", "x_stride 1 is smaller than x_size 4"});
}

TEST(Validate, MicroOpRangeRules) {
  for (Opcode op : {Opcode::kGemm, Opcode::kAlu}) {
    Instruction i = compute(op);
    i.uop_bgn = 5;
    i.uop_end = 4;
    invalid(i, {"uop_bgn 5 is after uop_end 4"});
    i = compute(op);
    i.uop_end = cfg().uop_depth + 1;
    invalid(i, {"uop_end " + std::to_string(cfg().uop_depth + 1),
                "exceeds the uop buffer depth " + std::to_string(cfg().uop_depth)});
  }
}

TEST(Validate, AluRules) {
  Instruction i = compute(Opcode::kAlu);
  i.wgt_factor_out = 1;
  invalid(i, {"instruction 7 (ALU)", "no weight factors"});
  i = compute(Opcode::kAlu);
  i.wgt_factor_in = 3;
  invalid(i, {"no weight factors"});
  i = compute(Opcode::kAlu);
  i.alu_op = static_cast<AluOp>(5);
  invalid(i, {"alu_op 5 is not one of 0..4"});
}

TEST(Validate, UnknownOpcodeRejected) {
  Instruction i;
  i.opcode = static_cast<Opcode>(5);
  invalid(i, {"unknown opcode"});
}

}  // namespace
}  // namespace tandem::isa
