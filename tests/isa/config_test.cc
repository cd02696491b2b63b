// HwConfig tests: presets load with the documented derived values, and every
// loading/validation rule rejects bad input with a message naming the field,
// the value and the rule.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "isa/hw_config.h"
#include "tests/isa/isa_test_util.h"

namespace tandem {
namespace {

using isa::testing::expect_error;
using nlohmann::json;

json base() {
  std::ifstream in(config_dir() + "/tandem-8x8.json");
  return json::parse(in);
}

HwConfig load(const json& j) {
  return HwConfig::from_json_text(j.dump(), "<test>");
}

// Expects `j` to be rejected with a message containing every part.
void rejects(const json& j, std::initializer_list<std::string> parts) {
  expect_error([&] { load(j); }, parts);
}

json with(const std::string& key, const json& v) {
  json j = base();
  j[key] = v;
  return j;
}

TEST(Config, PresetsLoadWithDerivedDepths) {
  const HwConfig a = HwConfig::load_preset("tandem-8x8");
  EXPECT_EQ(a.name, "tandem-8x8");
  EXPECT_EQ(a.inp_elem_bytes, 8u);
  EXPECT_EQ(a.wgt_elem_bytes, 64u);
  EXPECT_EQ(a.acc_elem_bytes, 32u);
  EXPECT_EQ(a.out_elem_bytes, 8u);
  EXPECT_EQ(a.inp_depth, 16384u / 8);
  EXPECT_EQ(a.acc_depth, a.out_depth);
  const HwConfig b = HwConfig::load_preset("vta-16x16");
  EXPECT_EQ(b.block_in, 16);
  EXPECT_EQ(b.wgt_depth, 262144u / 256);
  EXPECT_EQ(b.uop_depth, 32768u / 4);
  EXPECT_EQ(b.clock_mhz, 100.0);
  // to_json_text round trip.
  EXPECT_EQ(HwConfig::from_json_text(b.to_json_text()).to_json_text(), b.to_json_text());
  EXPECT_EQ(HwConfig::default_config().name, "tandem-8x8");
}

TEST(Config, EveryMissingFieldRejected) {
  const json b = base();
  int n = 0;
  for (const auto& [key, v] : b.items()) {
    if (key == "description") continue;  // optional
    json j = b;
    j.erase(key);
    if (key == "name" || key == "clock_mhz")
      rejects(j, {"field " + key + " must be a"});
    else
      rejects(j, {"missing field " + key});
    ++n;
  }
  EXPECT_EQ(n, 20);
  json j = b;
  j.erase("description");
  EXPECT_NO_THROW(load(j));
}

TEST(Config, UnknownFieldRejected) {
  rejects(with("blok_in", 8), {"unknown field 'blok_in'"});
}

TEST(Config, WrongTypesRejected) {
  rejects(with("batch", "1"), {"field batch = \"1\" must be an integer"});
  rejects(with("block_in", 8.5), {"field block_in = 8.5 must be an integer"});
  rejects(with("dram_bytes", true), {"field dram_bytes = true must be an integer"});
  rejects(with("uop_buff_bytes", json::array()), {"field uop_buff_bytes = [] must be an integer"});
  rejects(with("name", 3), {"field name must be a string"});
  rejects(with("clock_mhz", "fast"), {"field clock_mhz must be a number"});
  rejects(with("batch", -1), {"field batch = -1 is out of range 0..2147483647"});
  rejects(with("inp_buff_bytes", 1ull << 32),
          {"field inp_buff_bytes = 4294967296", "out of range 0..4294967295"});
  rejects(with("dram_bytes", 18446744073709551615ull),
          {"field dram_bytes = 18446744073709551615", "multiple of 4096 in 1 MiB..16 GiB"});
  rejects(with("batch", 18446744073709551615ull),
          {"field batch = 18446744073709551615 is out of range 0..2147483647"});
  rejects(with("name", ""), {"field name must be a non-empty string"});
}

TEST(Config, WidthsMustBeTheSupportedOnes) {
  rejects(with("log_inp_width", 4), {"field log_inp_width = 4", "must be 3"});
  rejects(with("log_wgt_width", 2), {"field log_wgt_width = 2", "must be 3"});
  rejects(with("log_acc_width", 4), {"field log_acc_width = 4", "must be 5"});
  rejects(with("log_out_width", 5), {"field log_out_width = 5", "must be 3"});
}

TEST(Config, BlockShapeRules) {
  for (int v : {0, 3, 32})
    rejects(with("batch", v), {"field batch = " + std::to_string(v), "power of two in 1..16"});
  for (int v : {0, 12, 128})
    rejects(with("block_in", v),
            {"field block_in = " + std::to_string(v), "power of two in 1..64"});
  for (int v : {0, 6, 128})
    rejects(with("block_out", v),
            {"field block_out = " + std::to_string(v), "power of two in 1..64"});
}

TEST(Config, BufferSizeRules) {
  for (const char* f :
       {"uop_buff_bytes", "inp_buff_bytes", "wgt_buff_bytes", "acc_buff_bytes", "out_buff_bytes"}) {
    rejects(with(f, 12288), {std::string("field ") + f + " = 12288", "must be a power of two"});
    rejects(with(f, 0), {std::string("field ") + f + " = 0", "must be a power of two"});
    rejects(with(f, 128u << 20), {std::string("field ") + f + " = 134217728", "at most 64 MiB"});
  }
  // Too small: fewer than two elements (uop 4 B, inp 8 B, wgt 64 B, acc 32 B, out 8 B).
  rejects(with("uop_buff_bytes", 4),
          {"field uop_buff_bytes = 4", "at least two elements of 4 bytes"});
  rejects(with("inp_buff_bytes", 8),
          {"field inp_buff_bytes = 8", "at least two elements of 8 bytes"});
  rejects(with("wgt_buff_bytes", 64),
          {"field wgt_buff_bytes = 64", "at least two elements of 64 bytes"});
  rejects(with("acc_buff_bytes", 32),
          {"field acc_buff_bytes = 32", "at least two elements of 32 bytes"});
  rejects(with("out_buff_bytes", 8),
          {"field out_buff_bytes = 8", "at least two elements of 8 bytes"});
  // out depth must equal acc depth.
  rejects(with("out_buff_bytes", 8192),
          {"field out_buff_bytes = 8192", "as many output rows as accumulator rows (2048)"});
}

TEST(Config, QueueClockMemoryAndDramRules) {
  for (long v : {0L, 4097L}) {
    rejects(with("cmd_queue_depth", v),
            {"field cmd_queue_depth = " + std::to_string(v), "in 1..4096"});
    rejects(with("token_queue_depth", v),
            {"field token_queue_depth = " + std::to_string(v), "in 1..4096"});
  }
  rejects(with("clock_mhz", 0), {"field clock_mhz = 0", "must be in (0, 10000]"});
  rejects(with("clock_mhz", -5.0), {"field clock_mhz = -5", "must be in (0, 10000]"});
  rejects(with("clock_mhz", 10000.5), {"field clock_mhz = 10000.5", "must be in (0, 10000]"});
  for (long v : {0L, 3L, 256L})
    rejects(with("mem_bytes_per_cycle", v),
            {"field mem_bytes_per_cycle = " + std::to_string(v), "power of two in 1..128"});
  rejects(with("mem_latency_cycles", 1001), {"field mem_latency_cycles = 1001", "in 1..1000"});
  rejects(with("mem_latency_cycles", 0), {"field mem_latency_cycles = 0", "in 1..1000"});
  for (long v : {8L, 24L, 8192L})
    rejects(with("mem_burst_bytes", v),
            {"field mem_burst_bytes = " + std::to_string(v), "power of two in 16..4096"});
  json j = base();
  j["mem_bytes_per_cycle"] = 64;
  j["mem_burst_bytes"] = 32;
  rejects(j, {"field mem_burst_bytes = 32", "at least mem_bytes_per_cycle"});
  for (unsigned long long v : {0ull, 1ull << 19, (1ull << 34) + 4096, (1ull << 20) + 100})
    rejects(with("dram_bytes", v),
            {"field dram_bytes = " + std::to_string(v), "multiple of 4096 in 1 MiB..16 GiB"});
}

TEST(Config, InstructionWiderThan128BitsRejected) {
  // A 32 MiB micro-op buffer needs 23-bit sram_base: LOAD = 106 + 23 bits.
  rejects(with("uop_buff_bytes", 32u << 20),
          {"LOAD instruction needs 129 bits", "over the 128-bit limit"});
}

TEST(Config, MicroOpWiderThan32BitsRejected) {
  // acc/out 4096 rows (12 bits), inp 4096 (12), wgt 512 (9): 33-bit micro-op,
  // while every instruction still fits (uop 2048 entries).
  json j = base();
  j["acc_buff_bytes"] = 131072;
  j["out_buff_bytes"] = 32768;
  j["inp_buff_bytes"] = 32768;
  j["wgt_buff_bytes"] = 32768;
  j["uop_buff_bytes"] = 8192;
  rejects(j, {"micro-op needs 33 bits", "over the 32-bit limit"});
}

TEST(Config, BadJsonAndFilesRejected) {
  expect_error([] { HwConfig::from_json_text("{\"name\": ", "x.json"); },
               {"config x.json: invalid JSON"});
  expect_error([] { HwConfig::from_json_text("[1, 2]", "x.json"); },
               {"top level must be a JSON object"});
  expect_error([] { HwConfig::load_preset("no-such-preset"); },
               {"unknown config preset 'no-such-preset'", "presets: tandem-8x8, vta-16x16"});
  expect_error([] { HwConfig::load_preset("/nonexistent/dir/cfg.json"); },
               {"config file '/nonexistent/dir/cfg.json' cannot be opened"});
  expect_error([] { HwConfig::from_file("/nonexistent.json"); }, {"cannot be opened"});
}

}  // namespace
}  // namespace tandem
