// Bundle format tests: .hex encoding, write/read round trip, and rejection of
// corrupted, truncated, missing or malformed bundle files. Uses a synthetic
// bundle (the bytes need not form a runnable program here).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bundle_test_util.h"
#include "driver/bundle.h"
#include "driver/sha256.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

namespace fs = std::filesystem;
using test::expect_error;
using test::read_text;
using test::scratch_dir;
using test::write_text;

std::vector<std::uint8_t> bytes(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + 37 * i);
  return v;
}

BundleRegion region(const char* name, RegionRole role, std::uint64_t addr, std::uint32_t eb,
                    std::vector<std::uint8_t> data) {
  BundleRegion r;
  r.name = name;
  r.role = role;
  r.addr = addr;
  r.elem_bytes = eb;
  r.data = std::move(data);
  return r;
}

Bundle synthetic() {
  Bundle b;
  b.cfg = HwConfig::default_config();
  b.workload = "synthetic";
  b.workload_params_json = R"({"note":"format test"})";
  b.seed = 7;
  b.command_line = "test";
  b.insn_addr = 0x1000;
  b.insn_count = 3;
  b.uop_addr = 0x2000;
  b.uop_count = 5;
  b.loads.push_back(region("__insns", RegionRole::kInstructions, 0x1000, 16, bytes(48, 1)));
  b.loads.push_back(region("__uops", RegionRole::kUops, 0x2000, 4, bytes(20, 2)));
  b.loads.push_back(
      region("A", RegionRole::kInput, 0x3004, 1, bytes(13, 3)));  // unaligned, odd size
  b.loads.push_back(region("B", RegionRole::kWeight, 0x4000, 1, bytes(64, 4)));
  b.expected.push_back(region("C", RegionRole::kOutput, 0x5000, 1, bytes(24, 5)));
  b.expected_cycles = 1234;
  b.cycles_note = "csim";
  return b;
}

TEST(BundleHex, EncodesBeatsMostSignificantByteFirst) {
  const std::vector<std::uint8_t> d = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09};
  EXPECT_EQ(encode_hex(d, 0, 8), "0807060504030201\n0000000000000009\n");
  // Unaligned start: the first beat's low lanes lie outside the region.
  EXPECT_EQ(encode_hex({0xaa, 0xbb}, 6, 4), "bbaa0000\n");
  EXPECT_EQ(encode_hex({0xaa, 0xbb, 0xcc}, 3, 4), "aa000000\n0000ccbb\n");
  EXPECT_EQ(decode_hex("aa000000\n0000ccbb\n", 3, 3, 4, "x"),
            (std::vector<std::uint8_t>{0xaa, 0xbb, 0xcc}));
}

TEST(BundleHex, DecodeRejectsMalformedText) {
  expect_error([] { decode_hex("0807060504030201\n", 0, 9, 8, "f.hex"); },
               {"f.hex", "1 lines", "expected 2"});
  expect_error([] { decode_hex("08070605040302\n", 0, 8, 8, "f.hex"); },
               {"line 1", "14 characters"});
  expect_error([] { decode_hex("080706050403020g\n", 0, 8, 8, "f.hex"); },
               {"'0g' is not a hex byte"});
  expect_error([] { decode_hex("0100\n", 0, 1, 2, "f.hex"); }, {"outside the region"});
}

TEST(BundleFormat, RoundTripPreservesEverything) {
  const std::string dir = scratch_dir("roundtrip");
  const Bundle b = synthetic();
  write_bundle(b, dir);
  const Bundle r = read_bundle(dir);
  EXPECT_EQ(r.cfg.to_json_text(), b.cfg.to_json_text());
  EXPECT_EQ(r.workload, "synthetic");
  EXPECT_EQ(r.seed, 7u);
  EXPECT_EQ(r.insn_addr, b.insn_addr);
  EXPECT_EQ(r.insn_count, b.insn_count);
  EXPECT_EQ(r.uop_addr, b.uop_addr);
  EXPECT_EQ(r.uop_count, b.uop_count);
  ASSERT_EQ(r.loads.size(), b.loads.size());
  for (std::size_t i = 0; i < b.loads.size(); ++i) {
    EXPECT_EQ(r.loads[i].name, b.loads[i].name);
    EXPECT_EQ(r.loads[i].role, b.loads[i].role);
    EXPECT_EQ(r.loads[i].addr, b.loads[i].addr);
    EXPECT_EQ(r.loads[i].data, b.loads[i].data);
    EXPECT_EQ(r.loads[i].sha256, sha256_hex(b.loads[i].data));
  }
  ASSERT_EQ(r.expected.size(), 1u);
  EXPECT_EQ(r.expected[0].data, b.expected[0].data);
  EXPECT_EQ(r.expected[0].role, RegionRole::kOutput);
  ASSERT_TRUE(r.expected_cycles.has_value());
  EXPECT_EQ(*r.expected_cycles, 1234u);
  EXPECT_EQ(r.cycles_note, "csim");
  // The files the manifest names exist with the documented content.
  EXPECT_EQ(read_text(dir + "/" + r.loads[2].hex_file), encode_hex(b.loads[2].data, 0x3004, 8));
  EXPECT_EQ(read_text(dir + "/regions.txt"), region_list_text(r));
}

TEST(BundleFormat, NullExpectedCyclesKeepsReason) {
  const std::string dir = scratch_dir("nocycles");
  Bundle b = synthetic();
  b.expected_cycles.reset();
  b.cycles_note = "csim target not built";
  write_bundle(b, dir);
  const auto j = nlohmann::json::parse(read_text(dir + "/manifest.json"));
  EXPECT_TRUE(j["expected_cycles"]["value"].is_null());
  EXPECT_EQ(j["expected_cycles"]["reason"], "csim target not built");
  const Bundle r = read_bundle(dir);
  EXPECT_FALSE(r.expected_cycles.has_value());
  EXPECT_EQ(r.cycles_note, "csim target not built");
  EXPECT_NE(read_text(dir + "/regions.txt").find("expected_cycles -1\n"), std::string::npos);
}

TEST(BundleFormat, WriterRejectsInconsistentRegions) {
  const std::string dir = scratch_dir("badwrite");
  Bundle b = synthetic();
  b.loads[3].addr = 0x3008;  // overlaps A [0x3004, 0x3011)
  expect_error([&] { write_bundle(b, dir); }, {"'A'", "'B'", "overlap"});
  b = synthetic();
  b.insn_count = 4;  // 48 bytes hold 3 instructions
  expect_error([&] { write_bundle(b, dir); }, {"instruction region", "4 instructions"});
  b = synthetic();
  b.expected[0].addr = b.cfg.dram_bytes - 8;
  expect_error([&] { write_bundle(b, dir); }, {"'C'", "exceeds the addressable DRAM"});
  b = synthetic();
  b.expected[0].role = RegionRole::kInput;
  expect_error([&] { write_bundle(b, dir); }, {"'C'", "expected output"});
}

TEST(BundleCorruption, FlippedByteInBinIsAChecksumError) {
  const std::string dir = scratch_dir("flip_bin");
  write_bundle(synthetic(), dir);
  std::string s = read_text(dir + "/in_B.bin");
  s[17] ^= 0x10;
  write_text(dir + "/in_B.bin", s);
  expect_error([&] { read_bundle(dir); }, {"in_B.bin", "SHA-256", "expected", "corrupted"});
}

TEST(BundleCorruption, FlippedDigitInHexIsAChecksumError) {
  const std::string dir = scratch_dir("flip_hex");
  write_bundle(synthetic(), dir);
  std::string s = read_text(dir + "/expected_C.hex");
  s[3] = s[3] == '0' ? '1' : '0';
  write_text(dir + "/expected_C.hex", s);
  expect_error([&] { read_bundle(dir); }, {"expected_C.hex", "SHA-256"});
}

TEST(BundleCorruption, TruncatedFileIsASizeError) {
  const std::string dir = scratch_dir("truncated");
  write_bundle(synthetic(), dir);
  fs::resize_file(dir + "/insns.bin", 40);
  expect_error([&] { read_bundle(dir); },
               {"insns.bin", "size 40 bytes", "expected 48", "truncated"});
}

TEST(BundleCorruption, MissingFileIsNamed) {
  const std::string dir = scratch_dir("missing");
  write_bundle(synthetic(), dir);
  fs::remove(dir + "/uops.hex");
  expect_error([&] { read_bundle(dir); }, {"uops.hex", "missing"});
  fs::remove(dir + "/manifest.json");
  expect_error([&] { read_bundle(dir); }, {"manifest.json", "missing"});
  expect_error([&] { read_bundle(dir + "/nope"); }, {"does not exist"});
}

TEST(BundleCorruption, BadManifestJson) {
  const std::string dir = scratch_dir("badjson");
  write_bundle(synthetic(), dir);
  std::string s = read_text(dir + "/manifest.json");
  write_text(dir + "/manifest.json", s.substr(0, s.size() / 2));
  expect_error([&] { read_bundle(dir); }, {"manifest.json", "invalid JSON"});
}

TEST(BundleCorruption, MissingOrMistypedFieldIsNamed) {
  const std::string dir = scratch_dir("badfield");
  write_bundle(synthetic(), dir);
  const auto orig = nlohmann::json::parse(read_text(dir + "/manifest.json"));
  auto edit = [&](auto fn, std::vector<std::string> needles) {
    auto j = orig;
    fn(j);
    write_text(dir + "/manifest.json", j.dump(2));
    expect_error([&] { read_bundle(dir); }, needles);
  };
  edit([](auto& j) { j["regions"][1].erase("sha256"); }, {"field regions[1].sha256 is missing"});
  edit([](auto& j) { j["program"].erase("insn_count"); }, {"field program.insn_count is missing"});
  edit([](auto& j) { j.erase("expected_output"); }, {"field expected_output is missing"});
  edit([](auto& j) { j["regions"][0]["addr"] = "0x1000"; },
       {"regions[0].addr", "non-negative integer"});
  edit([](auto& j) { j["regions"][2]["role"] = "bogus"; },
       {"regions[2].role", "unknown region role 'bogus'"});
  edit([](auto& j) { j["regions"][2]["bin"] = "../etc/passwd"; },
       {"regions[2].bin", "plain file name"});
  edit([](auto& j) { j["config"]["block_in"] = 7; },
       {"manifest.json: field config", "block_in = 7"});
  edit([](auto& j) { j["format_version"] = 99; }, {"format_version 99", "not supported"});
  edit([](auto& j) { j["program"]["insn_count"] = 2; }, {"instruction region", "2 instructions"});
  edit([](auto& j) { j["regions"][3]["addr"] = 0xfffffffffffff000ull; },
       {"region 'B'", "exceeds the addressable DRAM"});
  // The region list the testbench reads must say what the manifest says.
  edit([](auto& j) { j["expected_cycles"]["value"] = 999; }, {"regions.txt", "does not match"});
  // Moving a region changes how its .hex file decodes.
  edit([](auto& j) { j["regions"][2]["addr"] = 0x3000; }, {"in_A.hex", "outside the region"});
}

}  // namespace
}  // namespace tandem::driver
