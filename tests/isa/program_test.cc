// Program binary format: round trips, and every malformed binary (bad magic,
// every truncation, wrong config, trailing bytes, bad relocations, malformed
// words, random corruption) gives a tandem::Error, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "isa/program.h"
#include "tests/isa/isa_test_util.h"

namespace tandem::isa {
namespace {

using testing::expect_error;
using testing::preset;

using Bytes = std::vector<std::uint8_t>;

// A small program with every section non-empty.
Program small(const HwConfig& cfg) {
  Program p;
  p.config_name = cfg.name;
  Instruction ld;
  ld.opcode = Opcode::kLoad;
  ld.mem_type = MemType::kUop;
  ld.y_size = 1;
  ld.x_size = 2;
  ld.x_stride = 2;
  Instruction g;
  g.opcode = Opcode::kGemm;
  g.uop_end = 2;
  g.iter_out = g.iter_in = 1;
  Instruction st;
  st.opcode = Opcode::kStore;
  st.mem_type = MemType::kOut;
  st.y_size = st.x_size = st.x_stride = 1;
  Instruction fin;
  p.insns = {ld, g, st, fin};
  p.uops = {Uop{1, 2, 3}, Uop{4, 5, 6}};
  p.buffers = {DramBuffer{"C", 64}};
  p.relocs = {Relocation{0, kUopBufferName, 0}, Relocation{2, "C", 1}};
  return p;
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  std::memcpy(b.data() + at, &v, 4);
}

class ProgramPreset : public ::testing::TestWithParam<std::string> {};

TEST_P(ProgramPreset, RandomProgramsRoundTrip) {
  const HwConfig& cfg = preset(GetParam());
  std::mt19937_64 rng(7);
  for (int n = 0; n < 50; ++n) {
    const Program p = testing::random_program(cfg, rng, static_cast<int>(rng() % 60));
    ASSERT_NO_THROW(p.check(cfg));
    const Bytes b = p.serialize(cfg);
    const Program q = Program::deserialize(cfg, b);
    ASSERT_EQ(q, p);
    ASSERT_EQ(q.serialize(cfg), b);
  }
}

TEST_P(ProgramPreset, SaveAndLoadFile) {
  const HwConfig& cfg = preset(GetParam());
  const Program p = small(cfg);
  const std::string path = ::testing::TempDir() + "isa_program_" + GetParam() + ".bin";
  p.save(cfg, path);
  EXPECT_EQ(Program::load(cfg, path), p);
  std::remove(path.c_str());
  expect_error([&] { Program::load(cfg, path); }, {"cannot open program file", path});
  expect_error([&] { p.save(cfg, "/nonexistent/dir/p.bin"); }, {"cannot write program file"});
}

TEST_P(ProgramPreset, EveryTruncationRejected) {
  const HwConfig& cfg = preset(GetParam());
  const Bytes b = small(cfg).serialize(cfg);
  for (std::size_t n = 0; n < b.size(); ++n) {
    const Bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
    try {
      Program::deserialize(cfg, cut);
      ADD_FAILURE() << "truncation to " << n << " of " << b.size() << " bytes accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("malformed program"), std::string::npos)
          << n << ": " << e.what();
    }
  }
}

TEST_P(ProgramPreset, RandomCorruptionNeverCrashes) {
  const HwConfig& cfg = preset(GetParam());
  std::mt19937_64 rng(11);
  const Bytes good = testing::random_program(cfg, rng, 12).serialize(cfg);
  int rejected = 0;
  for (int n = 0; n < 3000; ++n) {
    Bytes b = good;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k)
      b[rng() % b.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    if (rng() % 8 == 0) b.resize(rng() % b.size());
    try {
      const Program p = Program::deserialize(cfg, b);
      EXPECT_NO_THROW(p.check(cfg));  // anything accepted is a valid program
      EXPECT_EQ(p.serialize(cfg), b);
    } catch (const Error&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
}

INSTANTIATE_TEST_SUITE_P(Presets, ProgramPreset, ::testing::Values("tandem-8x8", "vta-16x16"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Byte offsets in small()'s tandem-8x8 image.
constexpr std::size_t kNameLen = 8;  // after the 8-byte magic
constexpr std::size_t kInsnCount = 12 + 10;
constexpr std::size_t kInsns = kInsnCount + 4;
constexpr std::size_t kUopCount = kInsns + 4 * 16;
constexpr std::size_t kBufCount = kUopCount + 4 + 2 * 4;
constexpr std::size_t kRelocCount = kBufCount + 4 + 4 + 1 + 8;
constexpr std::size_t kReloc0 = kRelocCount + 4;

class Malformed : public ::testing::Test {
 protected:
  const HwConfig& cfg = preset("tandem-8x8");
  const Program p = small(cfg);
  const Bytes good = p.serialize(cfg);
  void SetUp() override {
    ASSERT_EQ(good.size(), kReloc0 + (4 + 4 + 6 + 8) + (4 + 4 + 1 + 8));
    ASSERT_EQ(Program::deserialize(cfg, good), p);
  }
  void rejects(const Bytes& b, std::initializer_list<std::string> parts) {
    expect_error([&] { Program::deserialize(cfg, b); }, parts);
  }
};

TEST_F(Malformed, BadMagic) {
  Bytes b = good;
  b[3] = 'X';
  rejects(b, {"bad magic at byte 0", "TNDMPRG1"});
  rejects(Bytes{}, {"truncated at byte 0 while reading magic"});
}

TEST_F(Malformed, WrongConfigName) {
  const HwConfig& other = preset("vta-16x16");
  expect_error([&] { Program::deserialize(other, good); },
               {"built for config 'tandem-8x8'", "device config is 'vta-16x16'"});
}

TEST_F(Malformed, TrailingBytes) {
  Bytes b = good;
  b.push_back(0);
  b.push_back(0);
  rejects(b, {"2 trailing bytes at byte " + std::to_string(good.size())});
}

TEST_F(Malformed, OversizedCountsAndStrings) {
  Bytes b = good;
  put_u32(b, kInsnCount, 0xffffffffu);
  rejects(b, {"instruction count 4294967295"});
  b = good;
  put_u32(b, kUopCount, 1000000);
  rejects(b, {"micro-op count 1000000"});
  b = good;
  put_u32(b, kBufCount, 70000);
  rejects(b, {"buffer count 70000 exceeds 65536"});
  b = good;
  put_u32(b, kRelocCount, 5);
  rejects(b, {"5 relocations for 4 instructions"});
  b = good;
  put_u32(b, kNameLen, 5000);
  rejects(b, {"string length 5000", "exceeds 4096"});
}

TEST_F(Malformed, BadRelocations) {
  Bytes b = good;
  put_u32(b, kReloc0, 9);
  rejects(b, {"relocation against instruction 9", "has 4 instructions"});
  b = good;
  put_u32(b, kReloc0, 1);
  rejects(b, {"relocation against instruction 1 which is GEMM"});
  b = good;
  b[b.size() - 9] = 'D';  // second relocation's buffer "C" -> "D"
  rejects(b, {"names unknown buffer 'D'"});
  Program q = p;
  q.buffers.push_back(DramBuffer{"C", 1});
  rejects(q.serialize(cfg), {"program buffer 'C' declared twice"});
  q = p;
  q.buffers[0].name = "";
  q.relocs.pop_back();
  rejects(q.serialize(cfg), {"empty name"});
}

TEST_F(Malformed, MalformedInstructionWords) {
  Bytes b = good;
  b[kInsns + 16] = (b[kInsns + 16] & ~7) | 7;  // instruction 1: opcode 7
  rejects(b, {"instruction 1 at byte " + std::to_string(kInsns + 16), "opcode 7"});
  b = good;
  b[kInsns + 3 * 16 + 15] = 0x80;  // FINISH with bit 127 set
  rejects(b, {"instruction 3", "bits 7..127 must be zero"});
  b = good;
  b[kInsns + 15] = 0x40;  // LOAD bit 126
  rejects(b, {"instruction 0", "bits 118..127 must be zero"});
  b = good;
  b[kInsns + 16 + 1] |= 0x01;  // instruction 1 (GEMM) bit 8: uop_bgn 1 > uop_end? no: 1 <= 2
  EXPECT_NO_THROW(Program::deserialize(cfg, b));
  b = good;
  b[kUopCount + 4 + 3] |= 0x80;  // micro-op 0: unused bit 31
  rejects(b, {"micro-op 0 at byte " + std::to_string(kUopCount + 4), "bits 31..31 must be zero"});
  // A decodable word that fails validation: LOAD of out (mem_type 4).
  b = good;
  b[kInsns] = static_cast<std::uint8_t>((b[kInsns] & 0x7f) | 0x00);
  b[kInsns + 1] =
      static_cast<std::uint8_t>((b[kInsns + 1] & ~0x03) | 0x02);  // mem_type bits 7..9 = 4
  rejects(b, {"instruction 0 (LOAD)", "memory type out cannot be loaded"});
}

}  // namespace
}  // namespace tandem::isa
