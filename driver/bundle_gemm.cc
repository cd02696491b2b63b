// make_gemm_bundle(): a driver::gemm_program with seeded random int8 inputs,
// checked against driver::reference_gemm (see driver/bundle_make.h).
#include <nlohmann/json.hpp>
#include <random>

#include "driver/bundle_make.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

std::vector<std::int8_t> random_int8(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = static_cast<std::int8_t>(d(rng));
  return v;
}

}  // namespace

Bundle make_gemm_bundle(const HwConfig& cfg, const GemmSpec& spec, std::uint64_t seed,
                        const std::string& command_line, const MakeBundleOptions& opts) {
  const GemmProgram gp = build_gemm_program(cfg, spec);
  std::mt19937_64 rng(seed);
  const auto a = random_int8(static_cast<std::size_t>(spec.m) * spec.k, rng);
  const auto bm = random_int8(static_cast<std::size_t>(spec.n) * spec.k, rng);
  const auto want = reference_gemm(spec, a, bm);

  VectorSource src;
  src.workload = "gemm";
  nlohmann::ordered_json p;
  p["m"] = spec.m;
  p["n"] = spec.n;
  p["k"] = spec.k;
  p["vthreads"] = spec.vthreads;
  p["requantize"] = spec.requantize;
  if (spec.requantize) {
    p["shift"] = spec.shift;
    p["clip_lo"] = spec.clip_lo;
    p["clip_hi"] = spec.clip_hi;
  }
  p["tiling"] = {{"tm", gp.tiling.tm}, {"tn", gp.tiling.tn}, {"tk", gp.tiling.tk}};
  p["layout"] = {{"A", "[ceil(m/BATCH)][ceil(k/BLOCK_IN)] blocks of BATCH x BLOCK_IN int8"},
                 {"B", "[ceil(n/BLOCK_OUT)][ceil(k/BLOCK_IN)] blocks of BLOCK_OUT x BLOCK_IN int8"},
                 {"C", "[ceil(m/BATCH)][ceil(n/BLOCK_OUT)] blocks of BATCH x BLOCK_OUT int8"}};
  src.params_json = p.dump();
  src.seed = seed;
  src.command_line = command_line;
  src.program = gp.program;
  src.buffers["A"] = {RegionRole::kInput, 1, as_bytes(pack_gemm_a(cfg, a, spec.m, spec.k))};
  src.buffers["B"] = {RegionRole::kWeight, 1, as_bytes(pack_gemm_b(cfg, bm, spec.n, spec.k))};
  src.buffers["C"] = {RegionRole::kOutput, 1, {}};
  src.verify = [&](const std::map<std::string, std::vector<std::uint8_t>>& out) {
    const auto& c = out.at("C");
    const auto got = unpack_gemm_c(
        cfg, std::span<const std::int8_t>(reinterpret_cast<const std::int8_t*>(c.data()), c.size()),
        spec.m, spec.n);
    TANDEM_ASSERT(got.size() == want.size(), "unpacked C has " << got.size() << " elements");
    for (std::size_t i = 0; i < got.size(); ++i)
      TANDEM_CHECK(got[i] == want[i], "vectors: fsim result C["
                                          << i / spec.n << "][" << i % spec.n
                                          << "] = " << int{got[i]} << " differs from the host "
                                          << "reference " << int{want[i]}
                                          << "; refusing to write the bundle");
  };
  return make_bundle(cfg, src, opts);
}

}  // namespace tandem::driver
