// Assembler/disassembler: exact round trips (text -> Program -> binary ->
// Program -> text) for a file exercising every form and for random programs,
// the defaults of the hand-written form, and every parse error with its
// file:line:col.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "isa/asm.h"
#include "tests/isa/isa_test_util.h"

namespace tandem::isa {
namespace {

using testing::expect_error;
using testing::preset;

const HwConfig& cfg8() {
  return preset("tandem-8x8");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Text -> Program -> binary -> Program -> text -> Program must all agree.
void full_round_trip(const HwConfig& cfg, const Program& p) {
  const std::string text = disassemble(cfg, p);
  const Program q = assemble(cfg, text, "rt.s");
  ASSERT_EQ(q, p) << text;
  const auto bin = q.serialize(cfg);
  const Program r = Program::deserialize(cfg, bin);
  ASSERT_EQ(r, p);
  ASSERT_EQ(disassemble(cfg, r), text);
  ASSERT_EQ(assemble(cfg, disassemble(cfg, r), "rt2.s").serialize(cfg), bin);
}

TEST(Asm, EveryFormFileRoundTrips) {
  const std::string text =
      read_file(std::string(TANDEM_SOURCE_DIR) + "/tests/isa/data/every_form.s");
  const Program p = assemble(cfg8(), text, "every_form.s");
  ASSERT_EQ(p.insns.size(), 14u);
  ASSERT_EQ(p.uops.size(), 6u);
  ASSERT_EQ(p.relocs.size(), 5u);
  ASSERT_EQ(p.buffers.size(), 3u);
  EXPECT_EQ(p.buffers[1].name, "weights 1");
  EXPECT_EQ(p.relocs[2].buffer, "weights 1");
  EXPECT_EQ(p.relocs[2].elem_offset, 0u);
  EXPECT_EQ(p.relocs[1].elem_offset, 16u);
  EXPECT_EQ(p.insns[2].sram_base, 16u);  // 0x10
  EXPECT_EQ(p.uops[3], (Uop{3, 3, 0}));
  // Every opcode, memory type and ALU op appears.
  std::set<int> ops, mems, alus;
  for (const auto& i : p.insns) {
    ops.insert(static_cast<int>(i.opcode));
    if (i.opcode == Opcode::kLoad || i.opcode == Opcode::kStore)
      mems.insert(static_cast<int>(i.mem_type));
    if (i.opcode == Opcode::kAlu) alus.insert(static_cast<int>(i.alu_op));
  }
  EXPECT_EQ(ops.size(), 5u);
  EXPECT_EQ(mems.size(), 5u);
  EXPECT_EQ(alus.size(), 5u);
  full_round_trip(cfg8(), p);
}

TEST(Asm, EveryDataFileRoundTripsWithItsConfig) {
  int files = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(TANDEM_SOURCE_DIR) + "/tests/isa/data")) {
    if (e.path().extension() != ".s") continue;
    const std::string text = read_file(e.path().string());
    const auto name = config_directive(text);
    ASSERT_TRUE(name.has_value()) << e.path();
    const HwConfig& cfg = preset(*name);
    const Program p = assemble(cfg, text, e.path().filename().string());
    EXPECT_FALSE(p.insns.empty());
    full_round_trip(cfg, p);
    ++files;
  }
  EXPECT_GE(files, 3);
}

TEST(Asm, RandomProgramsRoundTripBothPresets) {
  for (const char* name : testing::kPresets) {
    const HwConfig& cfg = preset(name);
    std::mt19937_64 rng(2024);
    for (int n = 0; n < 40; ++n) {
      const Program p = testing::random_program(cfg, rng, static_cast<int>(rng() % 50));
      full_round_trip(cfg, p);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Asm, MutatedSourcesNeverCrash) {
  // Random byte edits of a valid source: each either assembles to a program
  // that round-trips or raises a located tandem::Error.
  const std::string good =
      read_file(std::string(TANDEM_SOURCE_DIR) + "/tests/isa/data/every_form.s");
  const char alphabet[] = "0123456789abcdefx=,:@+-\"\\()# \n.\t\xff_ABCloadstrgemuxpyi";
  std::mt19937_64 rng(77);
  int accepted = 0;
  for (int n = 0; n < 3000; ++n) {
    std::string t = good;
    for (int k = 0, edits = 1 + static_cast<int>(rng() % 3); k < edits; ++k) {
      const std::size_t at = rng() % t.size();
      const char c = alphabet[rng() % (sizeof(alphabet) - 1)];
      switch (rng() % 3) {
        case 0:
          t[at] = c;
          break;
        case 1:
          t.erase(at, 1 + rng() % 4);
          break;
        default:
          t.insert(at, 1, c);
          break;
      }
    }
    try {
      const Program p = assemble(cfg8(), t, "m.s");
      ++accepted;
      ASSERT_EQ(assemble(cfg8(), disassemble(cfg8(), p), "m2.s"), p) << t;
    } catch (const Error& e) {
      ASSERT_EQ(std::string(e.what()).rfind("m.s:", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, 3000);
}

TEST(Asm, NonCanonicalRelocationsUseExplicitRelocLines) {
  std::mt19937_64 rng(5);
  Program p = testing::random_program(cfg8(), rng, 30);
  // Find two LOAD/STORE instructions; relocate out of order, twice, with a
  // nonzero raw dram field.
  std::vector<std::uint32_t> mem;
  for (std::uint32_t k = 0; k < p.insns.size(); ++k)
    if (p.insns[k].opcode == Opcode::kLoad || p.insns[k].opcode == Opcode::kStore) mem.push_back(k);
  ASSERT_GE(mem.size(), 2u);
  p.insns[mem[0]].dram_base = 77;
  p.relocs = {Relocation{mem[1], "A", 5}, Relocation{mem[0], "x y", 0}, Relocation{mem[1], "A", 6}};
  const std::string text = disassemble(cfg8(), p);
  EXPECT_NE(text.find(".reloc " + std::to_string(mem[1]) + " @A+5\n"), std::string::npos) << text;
  EXPECT_NE(text.find(".reloc " + std::to_string(mem[0]) + " @\"x y\"+0\n"), std::string::npos);
  EXPECT_NE(text.find("dram=77 "), std::string::npos);
  full_round_trip(cfg8(), p);
}

TEST(Asm, HandWrittenDefaults) {
  const Program p = assemble(cfg8(),
                             "load inp sram=1 dram=100 y=1 x=2 stride=2\n"
                             "gemm uops=0:1 iter=1,1\n"
                             "alu add uops=0:1 iter=1,1 imm=-5\n"
                             "alu add uops=0:1 iter=1,1\n"
                             "alu max uops=0:1 iter=1,1 use_imm=0 imm=9\r\n"
                             "  finish   # done\n",
                             "d.s");
  EXPECT_EQ(p.config_name, "tandem-8x8");  // no .config: the assembler's config
  ASSERT_EQ(p.insns.size(), 6u);
  EXPECT_EQ(p.insns[5].opcode, Opcode::kFinish);
  EXPECT_EQ(p.insns[0].dram_base, 100u);
  EXPECT_EQ(p.insns[0].dep, DepFlags{});
  EXPECT_EQ(p.insns[0].y_pad_0 + p.insns[0].x_pad_1, 0u);
  EXPECT_FALSE(p.insns[1].reset);
  EXPECT_EQ(p.insns[1].dst_factor_out + p.insns[1].wgt_factor_in, 0u);
  EXPECT_TRUE(p.insns[2].use_imm);  // imm given -> use_imm=1
  EXPECT_EQ(p.insns[2].imm, -5);
  EXPECT_FALSE(p.insns[3].use_imm);
  EXPECT_FALSE(p.insns[4].use_imm);  // explicit use_imm wins
  EXPECT_EQ(p.insns[4].imm, 9);
  EXPECT_TRUE(p.relocs.empty());
  // Canonical text prints every field.
  const std::string t = disassemble(cfg8(), p);
  EXPECT_NE(t.find("load inp sram=1 dram=100 y=1 x=2 stride=2 pad=0,0,0,0 deps=none  # 0\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("alu max uops=0:1 iter=1,1 dst=0,0 src=0,0 use_imm=0 imm=9 reset=0 deps=none"),
            std::string::npos);
  Program empty;
  empty.config_name = "tandem-8x8";
  EXPECT_EQ(assemble(cfg8(), "", "empty.s"), empty);
}

TEST(Asm, ConfigDirectiveIsFound) {
  EXPECT_EQ(config_directive("# x\n  .config vta-16x16 # c\n"), "vta-16x16");
  EXPECT_EQ(config_directive(".config \"my cfg\"\n"), "my cfg");
  EXPECT_EQ(config_directive("finish\n.configx y\n"), std::nullopt);
  EXPECT_EQ(config_directive(""), std::nullopt);
  const Program p = assemble(preset("vta-16x16"), ".config vta-16x16\nfinish\n", "v.s");
  EXPECT_EQ(p.config_name, "vta-16x16");
}

TEST(Asm, DisassembleRejectsValuesWithoutAName) {
  Program p;
  p.config_name = "tandem-8x8";
  p.insns.resize(1);
  p.insns[0].opcode = static_cast<Opcode>(6);
  expect_error([&] { disassemble(cfg8(), p); }, {"instruction 0", "opcode 6"});
  p.insns[0].opcode = Opcode::kLoad;
  p.insns[0].mem_type = static_cast<MemType>(5);
  expect_error([&] { disassemble(cfg8(), p); }, {"memory type 5"});
  p.insns[0].opcode = Opcode::kAlu;
  p.insns[0].alu_op = static_cast<AluOp>(7);
  expect_error([&] { disassemble(cfg8(), p); }, {"alu_op 7"});
}

TEST(Asm, FormatTablesComeFromTheLayout) {
  const std::string t = format_tables_markdown({cfg8(), preset("vta-16x16")});
  EXPECT_NE(t.find("#### GEMM (opcode 2): tandem-8x8 123 of 128 bits, vta-16x16 127 of 128 bits"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("| imm (signed) | 124:109 | 16 | 126:111 | 16 |"), std::string::npos);
  EXPECT_NE(t.find("#### micro-op: tandem-8x8 31 of 32 bits, vta-16x16 32 of 32 bits"),
            std::string::npos);
  expect_error([] { format_tables_markdown({}); }, {"at least one config"});
}

TEST(Asm, ReadmeFormatTablesAreCurrent) {
  // isa/README.md embeds the generated tables between these markers;
  // regenerate with: tandem disasm --formats > tables.md
  const std::string readme = read_file(std::string(TANDEM_SOURCE_DIR) + "/isa/README.md");
  const std::string begin = "<!-- BEGIN generated: tandem disasm --formats -->\n";
  const std::string end = "<!-- END generated -->";
  const auto b = readme.find(begin);
  const auto e = readme.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::string expect = format_tables_markdown({cfg8(), preset("vta-16x16")});
  EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), expect);
}

// ---- parse errors: "file:line:col: message" ----

struct BadSource {
  const char* name;
  std::string text;
  std::string where;    // "line:col"
  std::string message;  // substring
};

const std::string kHead = ".config tandem-8x8\n.buffer A 64\n";  // lines 1-2

std::vector<BadSource> bad_sources() {
  const std::string L = "load inp sram=0 dram=0 y=1 x=1 stride=1";
  return {
      {"unknown_mnemonic", "lod inp sram=0", "1:1", "unknown mnemonic 'lod'"},
      {"no_mnemonic", "\xff", "1:1", "expected an instruction mnemonic, found byte 0xff"},
      {"unknown_key", "finish foo=1", "1:8", "unknown key 'foo' for finish (known: deps)"},
      {"wgt_key_on_alu", "alu add uops=0:1 iter=1,1 wgt=0,0", "1:27", "unknown key 'wgt' for alu"},
      {"missing_equals", "finish deps", "1:12", "expected '=' after key 'deps'"},
      {"duplicate_key", "finish deps=none deps=none", "1:18", "duplicate key 'deps'"},
      {"missing_required", "load inp sram=0 y=1 x=1 stride=1", "1:1",
       "load: missing required key 'dram'"},
      {"missing_iter", "gemm uops=0:1", "1:1", "gemm: missing required key 'iter'"},
      {"bad_number", "load inp sram=12a dram=0 y=1 x=1 stride=1", "1:17",
       "bad number: unexpected 'a' in value"},
      {"not_a_number", "load inp sram=x dram=0 y=1 x=1 stride=1", "1:15",
       "expected value (a decimal or 0x hex number), found 'x'"},
      {"bad_hex", "load inp sram=0x dram=0 y=1 x=1 stride=1", "1:17", "expected value"},
      {"number_too_big", "load inp sram=99999999999999999999 dram=0 y=1 x=1 stride=1", "1:15",
       "out of the 64-bit range"},
      {"sram_overflow", "load inp sram=4096 dram=0 y=1 x=1 stride=1", "1:15",
       "LOAD field sram_base: value 4096 does not fit in 12 bits (max 4095)"},
      {"dram_overflow", "load inp sram=0 dram=4294967296 y=1 x=1 stride=1", "1:22",
       "LOAD field dram_base: value 4294967296 does not fit in 32 bits (max 4294967295)"},
      {"negative_size", "store out sram=0 dram=0 y=-1 x=1 stride=1", "1:27",
       "STORE field y_size: value -1 does not fit in 16 bits"},
      {"pad_overflow", "load inp sram=0 dram=0 y=1 x=1 stride=1 pad=0,0,16,0", "1:49",
       "LOAD field x_pad_0: value 16 does not fit in 4 bits (max 15)"},
      {"iter_overflow", "gemm uops=0:4 iter=1,16384", "1:22",
       "GEMM field iter_in: value 16384 does not fit in 14 bits (max 16383)"},
      {"uop_end_overflow", "alu add uops=0:8192 iter=1,1", "1:16",
       "ALU field uop_end: value 8192 does not fit in 13 bits (max 8191)"},
      {"imm_below_min", "alu add uops=0:1 iter=1,1 imm=-32769", "1:31",
       "ALU field imm: value -32769 does not fit in 16 signed bits (range -32768..32767)"},
      {"imm_above_max", "alu add uops=0:1 iter=1,1 imm=32768", "1:31", "range -32768..32767"},
      {"reset_overflow", "gemm uops=0:1 iter=1,1 reset=2", "1:30",
       "GEMM field reset: value 2 does not fit in 1 bits (max 1)"},
      {"use_imm_overflow", "alu add uops=0:1 iter=1,1 use_imm=3", "1:35", "field use_imm: value 3"},
      {"short_list", "load inp sram=0 dram=0 y=1 x=1 stride=1 pad=1,1,1", "1:50",
       "expected ',' and 4 values for 'pad'"},
      {"range_colon", "gemm uops=0,4 iter=1,1", "1:12", "expected ':' in 'uops=begin:end'"},
      {"junk_after_value", L + ";", "1:40", "unexpected ';' after the value of 'stride'"},
      {"unknown_mem_type", "load foo sram=0", "1:6", "unknown memory type 'foo'"},
      {"unknown_alu_op", "alu div uops=0:1 iter=1,1", "1:5", "unknown ALU op 'div'"},
      {"unknown_flag", "finish deps=pop_prev,pop_last", "1:22",
       "unknown dependency flag 'pop_last'"},
      {"duplicate_flag", "finish deps=push_next,push_next", "1:23", "'push_next' given twice"},
      {"unknown_buffer", kHead + "load inp sram=0 dram=@B+0 y=1 x=1 stride=1", "3:23",
       "unknown buffer 'B'"},
      {"bad_reloc_offset", kHead + "load inp sram=0 dram=@A+z y=1 x=1 stride=1", "3:25",
       "expected relocation offset"},
      {"validate_load_out", kHead + "\n# c\nload out sram=0 dram=0 y=1 x=1 stride=1", "5:1",
       "instruction 0 (LOAD): memory type out cannot be loaded"},
      {"validate_stride", "finish\nload inp sram=0 dram=0 y=2 x=4 stride=3", "2:1",
       "instruction 1 (LOAD): x_stride 3 is smaller than x_size 4"},
      {"validate_store_flags", "store out sram=0 dram=0 y=1 x=1 stride=1 deps=push_next", "1:1",
       "store module has no next module"},
      {"validate_uop_range", "gemm uops=5:4 iter=1,1", "1:1", "uop_bgn 5 is after uop_end 4"},
      {"validate_uop_depth", "gemm uops=0:4097 iter=1,1", "1:1",
       "exceeds the uop buffer depth 4096"},
      {"unknown_directive", ".text\n.data", "2:1", "unknown directive '.data'"},
      {"duplicate_config", kHead + ".config tandem-8x8", "3:1", "duplicate .config directive"},
      {"wrong_config", ".config vta-16x16", "1:9",
       "program is for config 'vta-16x16' but the assembler uses config 'tandem-8x8'"},
      {"config_junk", ".config tandem-8x8 x", "1:20", "unexpected 'x' after the config name"},
      {"duplicate_buffer", kHead + ".buffer A 8", "3:9", "buffer 'A' declared twice"},
      {"empty_buffer_name", ".buffer \"\" 4", "1:9", "buffer name must not be empty"},
      {"buffer_size", ".buffer Q -4", "1:11", "expected buffer size in bytes"},
      {"buffer_name", ".buffer 9Q 4", "1:9", "expected buffer name (an identifier or a quoted"},
      {"unterminated_name", ".buffer \"abc 4", "1:9", "unterminated quoted buffer name"},
      {"bad_escape", ".buffer \"a\\q\" 4", "1:12", "unknown escape in quoted buffer name"},
      {"bad_hex_escape", ".buffer \"a\\x4g\" 4", "1:14", "bad \\x escape"},
      {"reloc_missing_insn", kHead + L + "\n.reloc 5 @A+0", "4:8",
       "relocation against instruction 5 but the program has 1 instructions"},
      {"reloc_on_gemm", "gemm uops=0:1 iter=1,1\n.reloc 0 @__uops+0", "2:8",
       "relocation against instruction 0 which is GEMM, not LOAD/STORE"},
      {"reloc_syntax", ".reloc 0 A+0", "1:10", "expected '@buffer+offset'"},
      {"uop_missing_field", ".uops\n(1, 2)", "2:6", "expected ',' between micro-op fields"},
      {"uop_overflow", ".uops\n(0, 0, 0)\n( 2048 ,0,0)", "3:3",
       "micro-op field dst: value 2048 does not fit in 11 bits (max 2047)"},
      {"uop_wgt_overflow", ".uops\n(0,0,512)", "2:6", "micro-op field wgt: value 512"},
      {"insn_in_uops", ".uops\nfinish", "2:1", "expected '(' to open a micro-op"},
      {"uop_unclosed", ".uops\n(1,2,3", "2:7", "expected ')' to close the micro-op"},
  };
}

class ParseError : public ::testing::TestWithParam<BadSource> {};

TEST_P(ParseError, ReportsFileLineColumn) {
  const BadSource& b = GetParam();
  const std::string msg = expect_error([&] { assemble(cfg8(), b.text, "bad.s"); },
                                       {"bad.s:" + b.where + ": ", b.message});
  EXPECT_EQ(msg.rfind("bad.s:" + b.where + ": ", 0), 0u) << msg;
}

INSTANTIATE_TEST_SUITE_P(All, ParseError, ::testing::ValuesIn(bad_sources()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tandem::isa
