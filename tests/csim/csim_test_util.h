// Helpers for the csim tests: presets with modified timing, hand-built raw
// instruction streams written straight into device DRAM, and a parsed view
// of csim's Chrome trace (slices with their exact cycles).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "isa/codec.h"
#include "isa/device.h"
#include "isa/error.h"
#include "isa/hw_config.h"
#include "isa/insn.h"
#include "sim/csim/csim.h"

namespace tandem::sim::csim_test {

inline HwConfig preset(const std::string& name) {
  return HwConfig::load_preset(name);
}

// tandem-8x8 with other memory-port / queue parameters.
inline HwConfig timing_config(std::uint32_t latency, std::uint32_t bytes_per_cycle = 8,
                              std::uint32_t burst = 256, std::uint32_t cmd_depth = 64,
                              std::uint32_t token_depth = 128) {
  HwConfig c = preset("tandem-8x8");
  c.mem_latency_cycles = latency;
  c.mem_bytes_per_cycle = bytes_per_cycle;
  c.mem_burst_bytes = burst;
  c.cmd_queue_depth = cmd_depth;
  c.token_queue_depth = token_depth;
  c.finalize();
  return c;
}

inline isa::DepFlags deps(bool pop_prev, bool pop_next, bool push_prev, bool push_next) {
  isa::DepFlags d;
  d.pop_prev = pop_prev;
  d.pop_next = pop_next;
  d.push_prev = push_prev;
  d.push_next = push_next;
  return d;
}

inline isa::Instruction gemm(std::uint32_t uops, std::uint32_t iter_out = 1,
                             std::uint32_t iter_in = 1, isa::DepFlags d = {}) {
  isa::Instruction i;
  i.opcode = isa::Opcode::kGemm;
  i.uop_bgn = 0;
  i.uop_end = uops;
  i.iter_out = iter_out;
  i.iter_in = iter_in;
  i.dep = d;
  return i;
}

inline isa::Instruction dma(isa::Opcode op, isa::MemType mem, std::uint32_t sram,
                            std::uint32_t dram, std::uint32_t y, std::uint32_t x,
                            std::uint32_t stride, isa::DepFlags d = {}) {
  isa::Instruction i;
  i.opcode = op;
  i.mem_type = mem;
  i.sram_base = sram;
  i.dram_base = dram;
  i.y_size = y;
  i.x_size = x;
  i.x_stride = stride;
  i.dep = d;
  return i;
}

inline isa::Instruction finish() {
  isa::Instruction i;
  i.opcode = isa::Opcode::kFinish;
  return i;
}

inline constexpr std::uint64_t kInsnAddr = 0x10000;

// Encodes `insns` at kInsnAddr (or `addr`), launches and waits.
inline isa::Stats run_raw(isa::Device& dev, const std::vector<isa::Instruction>& insns,
                          std::uint64_t addr = kInsnAddr) {
  const isa::Codec codec(dev.config());
  std::vector<std::uint8_t> bytes;
  for (const auto& i : insns) {
    const isa::Word128 w = codec.encode(i);
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::uint8_t>(w.lo >> (8 * b)));
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<std::uint8_t>(w.hi >> (8 * b)));
  }
  dev.write_dram(addr, bytes.data(), bytes.size());
  dev.launch(addr, static_cast<std::uint32_t>(insns.size()));
  dev.wait();
  return dev.stats();
}

// A unique temporary file path for this test.
inline std::string temp_path(const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "_" + info->name();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return (std::filesystem::temp_directory_path() / ("tandem_csim_" + name + suffix)).string();
}

struct Slice {
  std::string track;  // fetch, load, compute, store, memory
  std::string name;
  std::uint64_t cycle = 0, cycles = 0;  // first cycle, length
  nlohmann::json args;
  std::uint64_t last() const { return cycle + cycles - 1; }
};

struct Trace {
  nlohmann::json json;
  std::vector<Slice> slices;
  std::vector<Slice> on(const std::string& track, const std::string& name = "") const {
    std::vector<Slice> r;
    for (const auto& s : slices)
      if (s.track == track && (name.empty() || s.name == name)) r.push_back(s);
    return r;
  }
};

inline Trace read_trace(const std::string& path) {
  std::ifstream f(path);
  Trace t;
  t.json = nlohmann::json::parse(f);  // throws on invalid JSON
  std::map<int, std::string> tracks;
  for (const auto& e : t.json.at("traceEvents"))
    if (e.at("ph") == "M" && e.at("name") == "thread_name")
      tracks[e.at("tid").get<int>()] = e.at("args").at("name").get<std::string>();
  for (const auto& e : t.json.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    Slice s;
    s.track = tracks.at(e.at("tid").get<int>());
    s.name = e.at("name").get<std::string>();
    s.args = e.at("args");
    s.cycle = s.args.at("cycle").get<std::uint64_t>();
    s.cycles = s.args.at("cycles").get<std::uint64_t>();
    t.slices.push_back(s);
  }
  return t;
}

// Runs `insns` on a fresh csim device of `cfg` with a trace; returns both.
inline std::pair<isa::Stats, Trace> run_traced(const HwConfig& cfg,
                                               const std::vector<isa::Instruction>& insns) {
  isa::DeviceOptions o;
  o.trace_path = temp_path(".json");
  auto dev = make_csim(cfg, o);
  isa::Stats s = run_raw(*dev, insns);
  Trace t = read_trace(o.trace_path);
  std::filesystem::remove(o.trace_path);
  return {s, t};
}

inline std::string expect_error(const std::function<void()>& fn,
                                std::initializer_list<std::string> parts) {
  try {
    fn();
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "message lacks '" << p << "': " << msg;
    return msg;
  }
  ADD_FAILURE() << "no tandem::Error thrown";
  return {};
}

}  // namespace tandem::sim::csim_test
