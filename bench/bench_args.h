// Command-line options shared by the GEMM benchmarks (bench_fsim_gemm,
// bench_csim, bench_rtl): shape, repetitions, virtual threads, tiles,
// targets, configs and the JSON output path. Each benchmark passes its
// defaults and its usage line; unknown options are a tandem::Error.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "isa/error.h"

namespace tandem::bench {

struct BenchArgs {
  int m = 512, n = 512, k = 512, reps = 3, vthreads = 2;
  int tile_m = 0, tile_n = 0, tile_k = 0;  // 0 = automatic
  std::vector<std::string> targets;        // --target (repeatable)
  std::vector<std::string> configs;        // --config (repeatable)
  std::string json;
};

// Parses argv over `defaults`; repeated --target/--config replace the
// defaults' lists. Prints `usage` and exits 0 on --help.
inline BenchArgs parse_bench_args(int argc, char** argv, BenchArgs defaults, const char* usage) {
  BenchArgs a = defaults;
  bool targets_given = false, configs_given = false;
  auto need = [&](int& i) -> const char* {
    TANDEM_CHECK(i + 1 < argc, "option " << argv[i] << " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    if (o == "--size")
      a.m = a.n = a.k = std::atoi(need(i));
    else if (o == "--m")
      a.m = std::atoi(need(i));
    else if (o == "--n")
      a.n = std::atoi(need(i));
    else if (o == "--k")
      a.k = std::atoi(need(i));
    else if (o == "--tile-m")
      a.tile_m = std::atoi(need(i));
    else if (o == "--tile-n")
      a.tile_n = std::atoi(need(i));
    else if (o == "--tile-k")
      a.tile_k = std::atoi(need(i));
    else if (o == "--reps")
      a.reps = std::max(1, std::atoi(need(i)));
    else if (o == "--vthreads")
      a.vthreads = std::atoi(need(i));
    else if (o == "--json")
      a.json = need(i);
    else if (o == "--target" || o == "--config") {
      auto& list = o == "--target" ? a.targets : a.configs;
      bool& given = o == "--target" ? targets_given : configs_given;
      if (!given) list.clear();
      given = true;
      const std::string v = need(i);
      if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
    } else if (o == "--help" || o == "-h") {
      std::printf("%s\n", usage);
      std::exit(0);
    } else {
      throw Error(Msg() << "unknown option '" << o << "' (see --help)");
    }
  }
  TANDEM_CHECK(a.m > 0 && a.n > 0 && a.k > 0,
               "shape " << a.m << "x" << a.n << "x" << a.k << " must be positive");
  TANDEM_CHECK(a.vthreads == 1 || a.vthreads == 2, "--vthreads " << a.vthreads << " is not 1 or 2");
  return a;
}

}  // namespace tandem::bench
