// RtlEngine: one verilated tandem_top plus its AXI memory model, clocked
// cycle by cycle (the type-erased face of VerilatedEngine<V>, see
// hw/rtl_engine_impl.h), and the registry of the models built into this
// binary (one per preset, generated as rtl_models.cc by hw/CMakeLists.txt).
//
// The engine knows nothing about programs: it resets the RTL, pulses
// ctrl_start and clocks until ctrl_done, a memory-model error or a cycle
// budget, and reports the RTL's status outputs and per-cycle counters.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "isa/hw_config.h"
#include "sim/dram.h"

namespace tandem::hw {

// Snapshot of tandem_top's control and debug outputs (see hw/README.md).
struct RtlStatus {
  bool done = false;
  bool error = false;
  std::uint64_t cycles = 0;  // ctrl_cycles
  unsigned err_code = 0;
  std::uint32_t err_aux = 0, err_insn = 0, err_value = 0;
  std::array<std::uint32_t, 4> tokens{};  // l2c, c2l, c2s, s2c
  std::array<unsigned, 4> state{};        // fetch, load, compute, store (dbg_state nibbles)
  std::array<std::uint32_t, 3> qcount{};  // load, compute, store
  std::array<std::uint32_t, 4> idx{};     // fetch, load, compute, store instruction index
};

// Error codes of ctrl_err_code (hw/rtl/tandem_types_pkg.sv).
enum RtlErr : unsigned {
  kErrNone = 0,
  kErrLeftover = 1,
  kErrDeadlock = 2,
  kErrIllegal = 3,
  kErrSram = 4,
  kErrDram = 5,
  kErrAxi = 6
};
// dbg_state module nibble values.
enum RtlModState : unsigned { kIdle = 0, kStallToken = 1, kIssue = 2, kBusy = 3, kPushWait = 4 };

struct RunOutcome {
  RtlStatus status;
  // Cycles spent in each dbg_state value, per unit (fetch, load, compute, store).
  std::array<std::array<std::uint64_t, 8>, 4> state_cycles{};
  std::uint64_t bus_busy = 0;     // cycles the memory data bus was owned
  std::uint64_t fetch_stall = 0;  // cycles fetch waited on a full command queue
  std::uint64_t cycles_run = 0;   // cycles clocked after start
  bool budget_exceeded = false;
  std::string mem_error;  // memory-model error ("" if none)
  unsigned mem_error_id = 0;
  double seconds = 0;
};

class RtlEngine {
 public:
  virtual ~RtlEngine() = default;
  // Waveform of the following runs (VCD); "" closes it.
  virtual void set_trace(const std::string& vcd_path) = 0;
  virtual RunOutcome run(std::uint32_t insn_addr, std::uint32_t insn_count,
                         std::uint64_t budget) = 0;
};

// One verilated model: the preset it was built from and a factory.
struct RtlModelEntry {
  const char* preset;
  const char* config_json;  // the JSON the model's tandem_pkg was generated from
  std::function<std::unique_ptr<RtlEngine>(const HwConfig&, sim::Dram&)> make;
};
const std::vector<RtlModelEntry>& rtl_models();

}  // namespace tandem::hw
