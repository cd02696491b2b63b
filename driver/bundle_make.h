// Producing test-vector bundles: from an isa::Program and its host data to a
// driver::Bundle with images, DRAM regions and the expected output.
//
// make_bundle() runs the program once on fsim through driver::Runtime
// (prepare() gives the relocated instruction stream, the micro-op image and
// every buffer's DRAM address; launch() runs it), reads the output buffers
// back as the expected images and lets the workload check them against an
// independent host reference. When the csim target is built, it replays the
// finished bundle on csim, requires the same bytes, and records csim's
// cycles.total as the expected cycle count.
//
// Assumes the program declares every DRAM buffer it touches (isa::Program
// buffers) and that each is described in VectorSource::buffers.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "compiler/ops/conv2d.h"
#include "compiler/ops/dense.h"
#include "driver/bundle.h"
#include "driver/gemm_program.h"
#include "driver/packing.h"
#include "isa/hw_config.h"
#include "isa/program.h"

namespace tandem::driver {

struct VectorBuffer {
  RegionRole role = RegionRole::kInput;  // input/weight/bias: loaded; output: expected;
                                         // scratch: loaded as zeros
  std::uint32_t elem_bytes = 1;          // scalar element size (mismatch reports)
  std::vector<std::uint8_t> data;        // loaded bytes (padded with zeros to the buffer)
};

struct VectorSource {
  std::string workload;            // "gemm", "conv2d", "dense"
  std::string params_json = "{}";  // workload parameters (JSON object text)
  std::uint64_t seed = 0;
  std::string command_line;
  isa::Program program;
  std::map<std::string, VectorBuffer> buffers;  // program buffer name -> description
  // Checks the fsim outputs (buffer name -> bytes in DRAM layout) against an
  // independent reference; throws tandem::Error on a difference. Optional.
  std::function<void(const std::map<std::string, std::vector<std::uint8_t>>&)> verify;
};

// The bytes of a host vector, for VectorBuffer contents.
template <typename T>
std::vector<std::uint8_t> as_bytes(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
  return {p, p + v.size() * sizeof(T)};
}

// A VectorSource::verify that unpacks the int8 output buffer `buffer`
// (NCHW{B}n{BO}c of NCHW shape `out`) and requires it to equal `want` (NCHW).
std::function<void(const std::map<std::string, std::vector<std::uint8_t>>&)> verify_int8_output(
    const HwConfig& cfg, const std::string& workload, const std::string& buffer, const Shape4& out,
    std::vector<std::int8_t> want);

struct MakeBundleOptions {
  bool csim_cycles = true;  // replay on csim (when built) for the expected cycles
};

Bundle make_bundle(const HwConfig& cfg, const VectorSource& src,
                   const MakeBundleOptions& opts = {});

// A GEMM bundle: A (m x k, role input) and B (n x k, role weight) are
// uniform random int8 from `seed`; C (role output) is checked against
// driver::reference_gemm before it becomes the expected image.
Bundle make_gemm_bundle(const HwConfig& cfg, const GemmSpec& spec, std::uint64_t seed,
                        const std::string& command_line, const MakeBundleOptions& opts = {});

// A conv2d bundle compiled by the compiler (ops::compile_conv2d with
// `sch`, or ops::default_conv2d_schedule for `vthreads` when `sch` is null):
// data NCHW (role input) and kernel OIHW (role weight) are uniform random
// int8, the bias (role bias, int32, with epi.bias) uniform in [-4096, 4096],
// all from `seed`; res (role output) is checked against host_cpu::conv2d_nchw
// + shift_requantize + narrow before it becomes the expected image.
Bundle make_conv2d_bundle(const HwConfig& cfg, const ops::Conv2dShape& shape,
                          const ops::Epilogue& epi, const ops::Conv2dSchedule* sch, int vthreads,
                          std::uint64_t seed, const std::string& command_line,
                          const MakeBundleOptions& opts = {});

// A dense (fully connected) bundle compiled by ops::compile_dense (`sch`, or
// ops::default_dense_schedule for `vthreads` when null): data N x CI (role
// input), weight CO x CI (role weight), bias (role bias, int32, with
// epi.bias), seeded like conv2d; res (role output) is checked against
// host_cpu::gemm_s8 + bias + shift_requantize + narrow.
Bundle make_dense_bundle(const HwConfig& cfg, const ops::DenseShape& shape,
                         const ops::Epilogue& epi, const ops::DenseSchedule* sch, int vthreads,
                         std::uint64_t seed, const std::string& command_line,
                         const MakeBundleOptions& opts = {});

}  // namespace tandem::driver
