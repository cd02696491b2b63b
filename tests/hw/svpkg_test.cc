// The generated SystemVerilog package: every instruction and micro-op field
// position equals the C++ codec's layout, the buffer parameters equal the
// config, and the package the build verilated is the generator's output.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "isa/error.h"
#include "isa/layout.h"
#include "isa/sv_package.h"

namespace tandem::hw_test {
namespace {

std::map<std::string, long long> params(const std::string& text) {
  std::map<std::string, long long> m;
  const std::regex re(R"(localparam int (\w+) = (-?\d+);)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it)
    m[(*it)[1]] = std::stoll((*it)[2]);
  return m;
}

std::string upper(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

class SvPackage : public testing::TestWithParam<std::string> {};

TEST_P(SvPackage, FieldsMatchTheCodecLayout) {
  const HwConfig cfg = HwConfig::load_preset(GetParam());
  const std::string text = isa::sv_package(cfg);
  const auto p = params(text);
  int checked = 0;
  for (isa::Opcode op : {isa::Opcode::kLoad, isa::Opcode::kStore, isa::Opcode::kGemm,
                         isa::Opcode::kAlu, isa::Opcode::kFinish}) {
    for (const isa::Field& f : isa::insn_layout(cfg, op)) {
      const std::string n = upper(isa::opcode_name(op)) + "_" + upper(f.name);
      ASSERT_TRUE(p.count(n + "_LSB") && p.count(n + "_W")) << n;
      EXPECT_EQ(p.at(n + "_LSB"), f.offset) << n;
      EXPECT_EQ(p.at(n + "_W"), f.width) << n;
      ++checked;
    }
  }
  for (const isa::Field& f : isa::uop_layout(cfg)) {
    const std::string n = "UOP_" + upper(f.name);
    EXPECT_EQ(p.at(n + "_LSB"), f.offset) << n;
    EXPECT_EQ(p.at(n + "_W"), f.width) << n;
    ++checked;
  }
  EXPECT_GT(checked, 40);
  EXPECT_EQ(p.at("ACC_DEPTH"), cfg.acc_depth);
  EXPECT_EQ(p.at("WGT_ELEM_BITS"), cfg.wgt_elem_bytes * 8);
  EXPECT_EQ(p.at("INP_IDX_W"), cfg.log_inp_depth);
  EXPECT_EQ(p.at("MEM_DATA_W"), cfg.mem_bytes_per_cycle * 8);
  EXPECT_EQ(p.at("MEM_BURST_BYTES"), cfg.mem_burst_bytes);
  EXPECT_EQ(p.at("CMD_QUEUE_DEPTH"), cfg.cmd_queue_depth);
  EXPECT_EQ(p.at("TOKEN_QUEUE_DEPTH"), cfg.token_queue_depth);
  EXPECT_EQ(p.at("BLOCK_IN"), cfg.block_in);
  EXPECT_NE(text.find("localparam logic [2:0] OP_ALU = 3'd4;"), std::string::npos);
  EXPECT_NE(text.find("localparam logic [2:0] MEM_OUT = 3'd4;"), std::string::npos);
  EXPECT_NE(text.find("package tandem_pkg;"), std::string::npos);
  EXPECT_NE(text.find("endpackage"), std::string::npos);
}

TEST_P(SvPackage, TheBuildVerilatedTheGeneratorsOutput) {
  const HwConfig cfg = HwConfig::load_preset(GetParam());
  std::string id = GetParam();
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  const std::string path = std::string(TANDEM_BINARY_DIR) + "/hw/gen_" + id + "/tandem_pkg.sv";
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), isa::sv_package(cfg));
}

TEST(SvPackageCustom, FollowsTheConfig) {
  HwConfig c = HwConfig::load_preset("tandem-8x8");
  c.inp_buff_bytes = 8192;  // 1024 inp elements: GEMM src factors narrow, ALU's do not
  c.mem_burst_bytes = 512;
  c.finalize();
  const auto p = params(isa::sv_package(c));
  EXPECT_EQ(p.at("INP_IDX_W"), 10);
  EXPECT_EQ(p.at("GEMM_SRC_FACTOR_OUT_W"), 10);
  EXPECT_EQ(p.at("ALU_SRC_FACTOR_OUT_W"), c.log_acc_depth);
  EXPECT_EQ(p.at("FETCH_BUF_INSNS"), 32);
  HwConfig raw;  // not finalized
  EXPECT_THROW(isa::sv_package(raw), Error);
}

INSTANTIATE_TEST_SUITE_P(Presets, SvPackage, testing::Values("tandem-8x8", "vta-16x16"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

}  // namespace
}  // namespace tandem::hw_test
