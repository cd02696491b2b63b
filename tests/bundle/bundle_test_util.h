// Helpers for the bundle tests: scratch directories under the build tree,
// whole-file text I/O, and an expectation that a call throws tandem::Error
// whose message contains given substrings.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "isa/error.h"

namespace tandem::driver::test {

// A fresh, empty directory for one test.
inline std::string scratch_dir(const std::string& name) {
  const std::filesystem::path p =
      std::filesystem::path(TANDEM_BINARY_DIR) / "tests_tmp" / "bundle" / name;
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_text(const std::string& path, const std::string& s) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << s;
}

template <typename F>
void expect_error(F&& fn, const std::vector<std::string>& needles) {
  try {
    fn();
    ADD_FAILURE() << "expected tandem::Error containing '" << needles.front() << "'";
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& n : needles)
      EXPECT_NE(msg.find(n), std::string::npos) << "message lacks '" << n << "': " << msg;
  }
}

}  // namespace tandem::driver::test

#include "driver/bundle.h"
#include "isa/codec.h"

namespace tandem::driver::test {

// A bundle whose program deadlocks: a GEMM waits for a load->compute token
// that no instruction pushes. Its expected output is 64 zero bytes.
inline Bundle deadlocking_bundle() {
  Bundle b;
  b.cfg = HwConfig::default_config();
  b.workload = "deadlock";
  b.command_line = "test";
  isa::Instruction gemm;
  gemm.opcode = isa::Opcode::kGemm;
  gemm.dep.pop_prev = true;
  gemm.uop_bgn = 0;
  gemm.uop_end = 1;
  gemm.iter_out = 1;
  gemm.iter_in = 1;
  isa::Instruction finish;
  finish.opcode = isa::Opcode::kFinish;
  const isa::Codec codec(b.cfg);
  BundleRegion insns;
  insns.name = "__insns";
  insns.role = RegionRole::kInstructions;
  insns.elem_bytes = 16;
  insns.addr = 0x1000;
  for (const auto& i : {gemm, finish}) {
    const isa::Word128 w = codec.encode(i);
    for (int k = 0; k < 8; ++k) insns.data.push_back(static_cast<std::uint8_t>(w.lo >> (8 * k)));
    for (int k = 0; k < 8; ++k) insns.data.push_back(static_cast<std::uint8_t>(w.hi >> (8 * k)));
  }
  b.insn_addr = insns.addr;
  b.insn_count = 2;
  b.loads.push_back(insns);
  BundleRegion out;
  out.name = "out";
  out.role = RegionRole::kOutput;
  out.addr = 0x2000;
  out.data.assign(64, 0);
  b.expected.push_back(out);
  b.cycles_note = "the program deadlocks";
  return b;
}

}  // namespace tandem::driver::test
