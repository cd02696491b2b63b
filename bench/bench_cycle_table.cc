// bench_cycle_table: cycles.total of the RTL (the cycle truth) beside csim
// for the same programs: blocked GEMMs (driver::build_gemm_program, 1 and 2
// virtual threads, both presets) and small instruction tests written
// straight into DRAM. Prints a table and, with --json FILE, writes the rows
// as JSON. Exit code 0 even when cycles differ (this is a report, not a
// test); 1 on errors. Needs a build with both the rtl and csim targets.
//
// Usage: bench_cycle_table [--json FILE] [--quick]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "driver/device_registry.h"
#include "driver/gemm_program.h"
#include "driver/runtime.h"
#include "isa/codec.h"
#include "isa/error.h"
#include "tests/hw/random_program.h"

namespace {

using namespace tandem;
using isa::MemType;
using isa::Opcode;

constexpr std::uint64_t kInsnAddr = 0x10000, kUopAddr = 0x40000, kData = 0x100000;

struct Raw {
  std::vector<isa::Instruction> insns;
  std::vector<isa::Uop> uops;
};

isa::Instruction dma(Opcode op, MemType m, std::uint32_t sram, std::uint32_t dram, std::uint32_t y,
                     std::uint32_t x, std::uint32_t stride, bool pop_a = false, bool pop_b = false,
                     bool push_a = false, bool push_b = false) {
  isa::Instruction i;
  i.opcode = op;
  i.mem_type = m;
  i.sram_base = sram;
  i.dram_base = dram;
  i.y_size = y;
  i.x_size = x;
  i.x_stride = stride;
  i.dep = {pop_a, pop_b, push_a, push_b};
  return i;
}
isa::Instruction gemm(std::uint32_t bgn, std::uint32_t end, std::uint32_t io, std::uint32_t ii) {
  isa::Instruction i;
  i.opcode = Opcode::kGemm;
  i.uop_bgn = bgn;
  i.uop_end = end;
  i.iter_out = io;
  i.iter_in = ii;
  return i;
}
isa::Instruction finish(bool pop_next = false) {
  isa::Instruction i;
  i.opcode = Opcode::kFinish;
  i.dep.pop_next = pop_next;
  return i;
}
std::uint32_t elem(const HwConfig& c, MemType m, std::uint64_t byte_off) {
  return static_cast<std::uint32_t>((kData + byte_off) / c.elem_bytes(static_cast<int>(m)));
}

// The per-unit state counters both cycle backends report.
std::vector<std::string> state_counters() {
  std::vector<std::string> v = {"fetch.stall.queue_full", "mem.bus_cycles"};
  for (const char* u : {"fetch", "load", "compute", "store"})
    for (const char* k : {".busy", ".idle", ".stall.token", ".stall.token_full"})
      if (std::string(u) != "fetch" || std::string(k) == ".busy" || std::string(k) == ".idle")
        v.push_back(std::string(u) + k);
  return v;
}

// Names of the state counters on which two runs disagree.
std::string counter_diffs(const isa::Stats& a, const isa::Stats& b) {
  std::string d;
  for (const auto& k : state_counters())
    if (a.get(k) != b.get(k))
      d += (d.empty() ? "" : " ") + k + "(" + std::to_string(a.get(k)) + "/" +
           std::to_string(b.get(k)) + ")";
  return d;
}

isa::Stats run_raw(const std::string& target, const HwConfig& cfg, const Raw& p) {
  auto dev = driver::make_device(target, cfg);
  const isa::Codec codec(cfg);
  std::vector<std::uint8_t> u, ins;
  for (const auto& x : p.uops) {
    const std::uint32_t w = codec.encode_uop(x);
    for (int b = 0; b < 4; ++b) u.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
  }
  for (const auto& i : p.insns) {
    const isa::Word128 w = codec.encode(i);
    for (int b = 0; b < 8; ++b) ins.push_back(static_cast<std::uint8_t>(w.lo >> (8 * b)));
    for (int b = 0; b < 8; ++b) ins.push_back(static_cast<std::uint8_t>(w.hi >> (8 * b)));
  }
  if (!u.empty()) dev->write_dram(kUopAddr, u.data(), u.size());
  dev->write_dram(kInsnAddr, ins.data(), ins.size());
  dev->launch(kInsnAddr, static_cast<std::uint32_t>(p.insns.size()));
  dev->wait();
  return dev->stats();
}

// The instruction tests: name -> program for a config.
std::vector<std::pair<std::string, std::function<Raw(const HwConfig&)>>> insn_tests() {
  std::vector<std::pair<std::string, std::function<Raw(const HwConfig&)>>> t;
  t.push_back({"finish only", [](const HwConfig&) { return Raw{{finish()}, {}}; }});
  t.push_back(
      {"load inp 1x8", [](const HwConfig& c) {
         return Raw{
             {dma(Opcode::kLoad, MemType::kInp, 0, elem(c, MemType::kInp, 0), 1, 8, 8), finish()},
             {}};
       }});
  t.push_back(
      {"load wgt 3x5 stride 9", [](const HwConfig& c) {
         return Raw{
             {dma(Opcode::kLoad, MemType::kWgt, 0, elem(c, MemType::kWgt, 0), 3, 5, 9), finish()},
             {}};
       }});
  t.push_back({"load acc padded 4x6 (1,2,3,1)", [](const HwConfig& c) {
                 auto l = dma(Opcode::kLoad, MemType::kAcc, 0, elem(c, MemType::kAcc, 64), 4, 6, 7);
                 l.y_pad_0 = 1, l.y_pad_1 = 2, l.x_pad_0 = 3, l.x_pad_1 = 1;
                 return Raw{{l, finish()}, {}};
               }});
  t.push_back({"row crossing burst boundary", [](const HwConfig& c) {
                 // inp row starting 40 bytes before a 256-byte boundary
                 const std::uint32_t eb = c.inp_elem_bytes;
                 return Raw{{dma(Opcode::kLoad, MemType::kInp, 0,
                                 elem(c, MemType::kInp, 4096 - 5 * eb), 2, 40, 41),
                             finish()},
                            {}};
               }});
  t.push_back({"uop load odd offset + gemm 2x3x5", [](const HwConfig& c) {
                 Raw r;
                 for (std::uint32_t u = 0; u < 9; ++u) r.uops.push_back({u, u, u % 3});
                 r.insns.push_back(dma(Opcode::kLoad, MemType::kUop, 1, kUopAddr / 4 + 3, 1, 5, 5));
                 r.insns.push_back(gemm(1, 6, 2, 3));
                 r.insns.push_back(finish());
                 (void)c;
                 return r;
               }});
  t.push_back({"gemm n=0, n=1, n=7", [](const HwConfig&) {
                 return Raw{{gemm(0, 0, 1, 1), gemm(0, 1, 1, 1), gemm(0, 1, 7, 1), finish()}, {}};
               }});
  t.push_back(
      {"store 3x5 stride 8", [](const HwConfig& c) {
         return Raw{{dma(Opcode::kStore, MemType::kOut, 0, elem(c, MemType::kOut, 0x8000), 3, 5, 8),
                     finish()},
                    {}};
       }});
  t.push_back({"load/compute/store token chain x4", [](const HwConfig& c) {
                 Raw r;
                 for (int k = 0; k < 4; ++k) {
                   r.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, elem(c, MemType::kInp, 0),
                                         2, 4, 4, false, k > 0, false, true));
                   auto g = gemm(0, 1, 3, 1);
                   g.dep = {true, k > 0, true, true};
                   r.insns.push_back(g);
                   r.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0,
                                         elem(c, MemType::kOut, 0x8000 + 64 * k), 1, 4, 4, true,
                                         false, true, false));
                 }
                 r.insns.push_back(dma(Opcode::kLoad, MemType::kInp, 0, elem(c, MemType::kInp, 0),
                                       1, 1, 1, false, true, false, false));
                 r.insns.push_back(finish(true));
                 return r;
               }});
  t.push_back({"70 gemms behind a token (queue full)", [](const HwConfig& c) {
                 Raw r;
                 // a long load first; the GEMMs queue up behind the first one's token wait
                 r.insns.push_back(dma(Opcode::kLoad, MemType::kWgt, 0, elem(c, MemType::kWgt, 0),
                                       8, 8, 8, false, false, false, true));
                 auto g0 = gemm(0, 1, 1, 1);
                 g0.dep.pop_prev = true;
                 r.insns.push_back(g0);
                 for (int k = 0; k < 70; ++k) r.insns.push_back(gemm(0, 1, 2, 1));
                 r.insns.push_back(dma(Opcode::kStore, MemType::kOut, 0,
                                       elem(c, MemType::kOut, 0x8000), 1, 2, 2));
                 r.insns.push_back(finish());
                 return r;
               }});
  return t;
}

struct Row {
  std::string preset, program;
  std::uint64_t rtl = 0, csim = 0;
  std::string error, counters;  // counters: state counters that differ (rtl/csim)
};

}  // namespace

int main(int argc, char** argv) {
  std::string json_path;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json_path = argv[++i];
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else {
      std::fprintf(stderr, "usage: bench_cycle_table [--json FILE] [--quick]\n");
      return 2;
    }
  }
  if (!driver::target_available("rtl") || !driver::target_available("csim")) {
    std::fprintf(stderr, "bench_cycle_table: this build lacks the rtl or csim target\n");
    return 1;
  }
  std::vector<Row> rows;
  for (const char* preset : {"tandem-8x8", "vta-16x16"}) {
    const HwConfig cfg = HwConfig::load_preset(preset);
    for (const auto& [name, make] : insn_tests()) {
      Row r;
      r.preset = preset;
      r.program = name;
      try {
        const Raw p = make(cfg);
        const isa::Stats a = run_raw("rtl", cfg, p), b = run_raw("csim", cfg, p);
        r.rtl = a.get("cycles.total");
        r.csim = b.get("cycles.total");
        r.counters = counter_diffs(a, b);
      } catch (const Error& e) {
        r.error = e.what();
      }
      rows.push_back(r);
    }
    // random programs (tests/hw/random_program.h)
    for (std::uint32_t seed : {1u, 2u, 3u, 4u}) {
      Row r;
      r.preset = preset;
      r.program = "random program seed " + std::to_string(seed);
      try {
        hw_test::RandomProgramGen g(cfg, seed);
        const hw_test::RawProgram p = g.make(3 + static_cast<int>(seed));
        auto a = driver::make_device("rtl", cfg), b = driver::make_device("csim", cfg);
        const isa::Stats sa = hw_test::run(*a, p), sb = hw_test::run(*b, p);
        r.rtl = sa.get("cycles.total");
        r.csim = sb.get("cycles.total");
        r.counters = counter_diffs(sa, sb);
      } catch (const Error& e) {
        r.error = e.what();
      }
      rows.push_back(r);
    }
    // m, n, k and tile sizes in blocks (0 = automatic)
    std::vector<std::array<int, 6>> sizes = {{16, 16, 16, 0, 0, 0},
                                             {64, 64, 64, 16, 2, 2},
                                             {30, 50, 70, 8, 2, 3},
                                             {64, 64, 64, 0, 0, 0}};
    if (!quick) sizes.push_back({128, 128, 128, 32, 4, 4});
    for (const auto& sz : sizes) {
      for (int v : {1, 2}) {
        driver::GemmSpec spec{sz[0], sz[1], sz[2], v};
        spec.tile_m = sz[3];
        spec.tile_n = sz[4];
        spec.tile_k = sz[5];
        Row r;
        r.preset = preset;
        r.program = "gemm " + std::to_string(sz[0]) + "x" + std::to_string(sz[1]) + "x" +
                    std::to_string(sz[2]) +
                    (sz[3] ? " tiles " + std::to_string(sz[3]) + "," + std::to_string(sz[4]) + "," +
                                 std::to_string(sz[5])
                           : "") +
                    " vt" + std::to_string(v);
        try {
          const driver::GemmProgram gp = driver::build_gemm_program(cfg, spec);
          std::mt19937 rng(7);
          std::vector<std::int8_t> a(static_cast<std::size_t>(sz[0]) * sz[2]),
              b(static_cast<std::size_t>(sz[1]) * sz[2]);
          for (auto& x : a) x = static_cast<std::int8_t>(rng());
          for (auto& x : b) x = static_cast<std::int8_t>(rng());
          driver::Runtime rt(cfg, "rtl"), cs(cfg, "csim");
          const auto rr = driver::run_gemm(rt, gp, a, b);
          const auto cr = driver::run_gemm(cs, gp, a, b);
          r.rtl = rr.stats.get("cycles.total");
          r.csim = cr.stats.get("cycles.total");
          r.counters = counter_diffs(rr.stats, cr.stats);
          if (rr.c != cr.c) r.error = "outputs differ";
        } catch (const Error& e) {
          r.error = e.what();
        }
        rows.push_back(r);
      }
    }
  }
  std::printf("%-10s  %-44s %10s %10s %8s %8s  %s\n", "preset", "program", "rtl", "csim", "diff",
              "diff%", "state counters");
  int equal = 0, same_counters = 0;
  nlohmann::json j = nlohmann::json::array();
  for (const Row& r : rows) {
    const long long d = static_cast<long long>(r.csim) - static_cast<long long>(r.rtl);
    const double pct = r.rtl ? 100.0 * static_cast<double>(d) / static_cast<double>(r.rtl) : 0;
    if (!r.error.empty())
      std::printf("%-10s  %-44s ERROR: %s\n", r.preset.c_str(), r.program.c_str(), r.error.c_str());
    else
      std::printf("%-10s  %-44s %10llu %10llu %8lld %7.2f%%  %s\n", r.preset.c_str(),
                  r.program.c_str(), static_cast<unsigned long long>(r.rtl),
                  static_cast<unsigned long long>(r.csim), d, pct,
                  r.counters.empty() ? "equal" : ("differ: " + r.counters).c_str());
    equal += r.error.empty() && d == 0;
    same_counters += r.error.empty() && r.counters.empty();
    j.push_back({{"preset", r.preset},
                 {"program", r.program},
                 {"rtl_cycles", r.rtl},
                 {"csim_cycles", r.csim},
                 {"diff", d},
                 {"error", r.error},
                 {"state_counter_diffs", r.counters}});
  }
  std::printf("%d of %zu programs have equal cycle counts, %d equal state counters\n", equal,
              rows.size(), same_counters);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << nlohmann::json{{"benchmark", "cycle_table"}, {"rows", j}}.dump(2) << "\n";
  }
  return 0;
}
