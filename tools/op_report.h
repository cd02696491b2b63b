// Shared reporting of the run commands (gemm, conv2d, dense): the first
// mismatching output element, the statistics table, the compiled-operator
// summary and the JSON result file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/ops/compiled_op.h"
#include "driver/packing.h"
#include "isa/device.h"
#include "isa/error.h"

namespace tandem::cli {

// "PASS", or "FAIL at [n,c,h,w] (NCHW): got X expected Y" for the first
// element of `got` that differs from `want` (both NCHW of shape `out`).
inline std::string first_mismatch_nchw(const std::vector<std::int8_t>& got,
                                       const std::vector<std::int8_t>& want,
                                       const driver::Shape4& out) {
  TANDEM_ASSERT(got.size() == want.size(), "result sizes differ");
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;
    const std::size_t w = i % out.w, h = i / out.w % out.h, c = i / out.w / out.h % out.c,
                      n = i / out.w / out.h / out.c;
    return (Msg() << "FAIL at [" << n << "," << c << "," << h << "," << w << "] (NCHW): got "
                  << int(got[i]) << " expected " << int(want[i]))
        .str();
  }
  return "PASS";
}

inline void print_stats(const isa::Stats& st) {
  std::printf("statistics:\n");
  for (const auto& [k, v] : st.counters)
    std::printf("  %-32s %llu\n", k.c_str(), static_cast<unsigned long long>(v));
  for (const auto& [k, v] : st.values) std::printf("  %-32s %.6g\n", k.c_str(), v);
}

// Program summary, check line, statistics and compile/run times of a
// compiled operator's run.
inline void print_op_run(const ops::CompiledOp& op, const isa::Stats& st, const std::string& check,
                         double run_s) {
  std::printf("program: %llu instructions, %llu micro-ops, %llu micro-ops executed, %llu tokens\n",
              static_cast<unsigned long long>(op.insn_count()),
              static_cast<unsigned long long>(op.uop_count()),
              static_cast<unsigned long long>(op.uops_executed()),
              static_cast<unsigned long long>(op.stats.codegen.tokens));
  std::printf("check: %s\n", check.c_str());
  print_stats(st);
  std::printf("compile time: %.6f s (lower %.6f s, accelerator passes %.6f s); run %.6f s\n",
              op.compile_seconds(), op.lower_seconds, op.accel_seconds, run_s);
}

// The JSON fields every compiled-operator run writes.
inline nlohmann::json op_run_json(const ops::CompiledOp& op, const isa::Stats& st,
                                  const std::string& check, double run_s) {
  nlohmann::json j;
  j["instructions"] = op.insn_count();
  j["uops"] = op.uop_count();
  j["uops_executed"] = op.uops_executed();
  j["check"] = {{"pass", check == "PASS"}, {"message", check}};
  j["stats"] = nlohmann::json::parse(st.to_json());
  j["compile_seconds"] = {
      {"total", op.compile_seconds()}, {"lower", op.lower_seconds}, {"accel", op.accel_seconds}};
  j["run_seconds"] = run_s;
  return j;
}

inline void write_json_file(const std::string& path, const nlohmann::json& j, const char* cmd) {
  std::ofstream f(path);
  TANDEM_CHECK(f.good(), cmd << ": cannot write '" << path << "'");
  f << j.dump(2) << "\n";
}

}  // namespace tandem::cli
