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
