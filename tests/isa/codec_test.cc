// Codec tests: random encode/decode round trips for both presets, one
// overflow test per field per opcode, and malformed instruction words.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "isa/codec.h"
#include "isa/layout.h"
#include "tests/isa/isa_test_util.h"

namespace tandem::isa {
namespace {

using testing::expect_error;
using testing::field_max;
using testing::preset;

class CodecPreset : public ::testing::TestWithParam<std::string> {};

TEST_P(CodecPreset, RandomValidInstructionsRoundTrip) {
  const HwConfig& cfg = preset(GetParam());
  const Codec codec(cfg);
  std::mt19937_64 rng(1234);
  for (int op = 0; op < 5; ++op) {
    for (int n = 0; n < 2000; ++n) {
      const Instruction i = testing::random_insn(cfg, static_cast<Opcode>(op), rng);
      ASSERT_NO_THROW(validate(cfg, i, 0)) << "generator produced an invalid instruction";
      const Word128 w = codec.encode(i);
      ASSERT_EQ(codec.decode(w), i) << "opcode " << op << " sample " << n;
      ASSERT_EQ(codec.encode(codec.decode(w)), w);
    }
  }
}

TEST_P(CodecPreset, ExtremeFieldValuesRoundTrip) {
  // Every field at 0 and at its maximum (imm at min and max), per opcode.
  const HwConfig& cfg = preset(GetParam());
  const Codec codec(cfg);
  for (int op = 0; op < 5; ++op) {
    for (const Field& f : codec.layout(static_cast<Opcode>(op))) {
      if (f.name == "opcode" || f.name == "mem_type" || f.name == "alu_op") continue;
      for (std::int64_t v : {f.is_signed ? -(std::int64_t{1} << (f.width - 1)) : 0,
                             f.is_signed ? (std::int64_t{1} << (f.width - 1)) - 1
                                         : static_cast<std::int64_t>(field_max(f))}) {
        Instruction i;
        i.opcode = static_cast<Opcode>(op);
        set_field(i, f.name, v);
        const Instruction back = codec.decode(codec.encode(i));
        EXPECT_EQ(get_field(back, f.name), v) << opcode_name(i.opcode) << " " << f.name;
        EXPECT_EQ(back, i);
      }
    }
  }
}

TEST_P(CodecPreset, FieldsAreDisjointAndPlacedWhereTheLayoutSays) {
  // Setting one field to all ones sets exactly its bits in the word.
  const HwConfig& cfg = preset(GetParam());
  const Codec codec(cfg);
  for (int op = 0; op < 5; ++op) {
    for (const Field& f : codec.layout(static_cast<Opcode>(op))) {
      if (f.name == "opcode" || f.name == "mem_type" || f.name == "alu_op") continue;
      Instruction i;
      i.opcode = static_cast<Opcode>(op);
      set_field(i, f.name, f.is_signed ? -1 : static_cast<std::int64_t>(field_max(f)));
      const Word128 w = codec.encode(i);
      const unsigned __int128 word = (static_cast<unsigned __int128>(w.hi) << 64) | w.lo;
      const unsigned __int128 expect =
          (((static_cast<unsigned __int128>(1) << f.width) - 1) << f.offset) |
          static_cast<unsigned __int128>(op);
      EXPECT_TRUE(word == expect) << opcode_name(i.opcode) << " " << f.name;
    }
  }
}

TEST_P(CodecPreset, RandomMicroOpsRoundTrip) {
  const HwConfig& cfg = preset(GetParam());
  const Codec codec(cfg);
  std::mt19937_64 rng(99);
  for (int n = 0; n < 5000; ++n) {
    const Uop u = testing::random_uop(cfg, rng);
    const std::uint32_t w = codec.encode_uop(u);
    ASSERT_EQ(codec.decode_uop(w), u);
    ASSERT_EQ(codec.encode_uop(codec.decode_uop(w)), w);
  }
}

TEST_P(CodecPreset, MicroOpFieldOverflowRejected) {
  const HwConfig& cfg = preset(GetParam());
  const Codec codec(cfg);
  const auto f = codec.uop_fields();
  for (int k = 0; k < 3; ++k) {
    Uop u;
    std::uint32_t* parts[3] = {&u.dst, &u.src, &u.wgt};
    *parts[k] = static_cast<std::uint32_t>(field_max(f[k]) + 1);
    expect_error([&] { codec.encode_uop(u); }, {"micro-op field " + std::string(f[k].name),
                                                "value " + std::to_string(field_max(f[k]) + 1),
                                                "max " + std::to_string(field_max(f[k]))});
  }
}

TEST_P(CodecPreset, MalformedWordsRejected) {
  const HwConfig& cfg = preset(GetParam());
  const Codec codec(cfg);
  for (std::uint64_t op : {5, 6, 7})
    expect_error(
        [&] {
          codec.decode(Word128{op, 0});
        },
        {"opcode " + std::to_string(op), "not one of 0..4"});
  for (int op = 0; op < 5; ++op) {
    const unsigned used = layout_bits(codec.layout(static_cast<Opcode>(op)));
    for (unsigned bit : {used, 127u}) {
      if (bit >= 128) continue;
      Word128 w{static_cast<std::uint64_t>(op), 0};
      if (bit < 64)
        w.lo |= 1ull << bit;
      else
        w.hi |= 1ull << (bit - 64);
      expect_error([&] { codec.decode(w); },
                   {"malformed", "bits " + std::to_string(used) + "..127 must be zero"});
    }
  }
  // Memory type 5..7 in a LOAD/STORE word, ALU op 5..7 in an ALU word.
  for (int op : {0, 1}) {
    const Field& mt = codec.layout(static_cast<Opcode>(op))[5];
    ASSERT_EQ(mt.name, "mem_type");
    for (std::uint64_t v : {5, 7})
      expect_error(
          [&] {
            codec.decode(Word128{static_cast<std::uint64_t>(op) | v << mt.offset, 0});
          },
          {"memory type " + std::to_string(v)});
  }
  for (const Field& f : codec.layout(Opcode::kAlu)) {
    if (f.name != "alu_op") continue;
    const unsigned __int128 word = static_cast<unsigned __int128>(7) << f.offset | 4;
    expect_error(
        [&] {
          codec.decode(
              Word128{static_cast<std::uint64_t>(word), static_cast<std::uint64_t>(word >> 64)});
        },
        {"alu_op 7"});
  }
  // Unused high bits of a micro-op word (tandem-8x8 uses 31 of 32 bits).
  const unsigned ubits = layout_bits(codec.uop_fields());
  if (ubits < 32)
    expect_error(
        [&] { codec.decode_uop(1u << 31); },
        {"malformed micro-op word", "bits " + std::to_string(ubits) + "..31 must be zero"});
  Instruction bad;
  bad.opcode = static_cast<Opcode>(6);
  expect_error([&] { codec.encode(bad); }, {"opcode 6", "not one of 0..4"});
}

INSTANTIATE_TEST_SUITE_P(Presets, CodecPreset, ::testing::Values("tandem-8x8", "vta-16x16"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// ---- one overflow test per field per opcode (and both presets) ----

struct Overflow {
  std::string preset;
  Opcode op;
  Field field;
  std::int64_t value;  // first value outside the field
  std::string limit;   // the limit the message must name
};

std::vector<Overflow> overflow_cases() {
  std::vector<Overflow> out;
  for (const char* p : testing::kPresets) {
    const HwConfig& cfg = preset(p);
    for (int op = 0; op < 5; ++op) {
      for (const Field& f : insn_layout(cfg, static_cast<Opcode>(op))) {
        // opcode is checked before the fields; 1-bit flags are bools and
        // dram_base (32 bits) is a uint32: their overflow is unrepresentable
        // in an Instruction and is tested through the assembler instead.
        if (f.name == "opcode" || f.width == 1 || f.width >= 32) continue;
        if (f.is_signed) {
          const std::int64_t lo = -(std::int64_t{1} << (f.width - 1));
          const std::int64_t hi = (std::int64_t{1} << (f.width - 1)) - 1;
          const std::string range = "range " + std::to_string(lo) + ".." + std::to_string(hi);
          out.push_back({p, static_cast<Opcode>(op), f, lo - 1, range});
          out.push_back({p, static_cast<Opcode>(op), f, hi + 1, range});
        } else {
          out.push_back({p, static_cast<Opcode>(op), f, static_cast<std::int64_t>(field_max(f)) + 1,
                         "max " + std::to_string(field_max(f))});
        }
      }
    }
  }
  return out;
}

class FieldOverflow : public ::testing::TestWithParam<Overflow> {};

TEST_P(FieldOverflow, RejectedNamingFieldValueAndLimit) {
  const Overflow& c = GetParam();
  const Codec codec(preset(c.preset));
  Instruction i;
  i.opcode = c.op;
  set_field(i, c.field.name, c.value);
  ASSERT_EQ(get_field(i, c.field.name), c.value) << "value not representable in Instruction";
  expect_error([&] { codec.encode(i); },
               {std::string(opcode_name(c.op)) + " field " + std::string(c.field.name),
                "value " + std::to_string(c.value), c.limit});
  // The same check through the public helper the assembler uses.
  expect_error([&] { check_field_value(c.field, c.value, opcode_name(c.op)); },
               {"field " + std::string(c.field.name), c.limit});
}

INSTANTIATE_TEST_SUITE_P(AllFields, FieldOverflow, ::testing::ValuesIn(overflow_cases()),
                         [](const auto& info) {
                           const Overflow& c = info.param;
                           std::string n = c.preset + "_" + std::string(opcode_name(c.op)) + "_" +
                                           std::string(c.field.name) +
                                           (c.value < 0 ? "_below_min" : "_above_max");
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace tandem::isa
