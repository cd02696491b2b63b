// TraceRecorder: csim's Chrome/Perfetto trace (JSON "traceEvents").
//
// One track (tid) per module -- fetch, load, compute, store -- and one for
// the memory port. Each instruction is a complete ("X") slice named by its
// opcode from its issue cycle through its push cycle, with args index, mem
// (LOAD/STORE), uops (GEMM/ALU), bytes (DMA), cycle (issue) and cycles
// (length). Each memory burst is a slice on the memory track over the cycles
// it owns the bus. Each token is a flow: "s" at the push on the producer's
// track, "f" (binding to the enclosing slice) at the pop on the consumer's.
// Token and command-queue occupancies are counter ("C") tracks. Timestamps
// are microseconds at the config's clock (cycle / clock_mhz). Events are
// kept compactly in memory and written once at the end of the run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/csim/timeline.h"

namespace tandem::sim::csim {

enum Track : std::uint8_t { kTrackFetch = 1, kTrackLoad, kTrackCompute, kTrackStore, kTrackMemory };

class TraceRecorder {
 public:
  explicit TraceRecorder(double clock_mhz) : mhz_(clock_mhz) {}

  struct SliceArgs {
    std::int64_t index = -1;    // instruction index (-1: none)
    const char* mem = nullptr;  // memory type of a DMA
    std::int64_t uops = -1;     // GEMM/ALU micro-ops
    std::int64_t bytes = -1;    // DMA or burst bytes
    std::int64_t addr = -1;     // burst DRAM address
    std::int64_t insns = -1;    // fetch: instructions read
  };
  // A slice over cycles [first, last] (inclusive). `name` must be a string
  // literal or otherwise outlive the recorder, and need no JSON escaping.
  void slice(Track t, const char* name, Cycle first, Cycle last, const SliceArgs& a);
  // A token flow endpoint: start (push) or finish (pop) of token `id`.
  void flow(bool start, const char* queue, std::uint64_t id, Track t, Cycle at);
  void counter(const char* name, Cycle at, std::int64_t value);
  std::size_t size() const { return slices_.size() + flows_.size() + counters_.size(); }

  // Writes {"traceEvents": [...], ...}; throws tandem::Error if the file
  // cannot be written.
  void write(const std::string& path, const std::string& config_name) const;

 private:
  struct Slice {
    Track track;
    const char* name;
    Cycle first, last;
    SliceArgs args;
  };
  struct Flow {
    bool start;
    Track track;
    const char* queue;
    std::uint64_t id;
    Cycle at;
  };
  struct Counter {
    const char* name;
    Cycle at;
    std::int64_t value;
  };
  double mhz_;
  std::vector<Slice> slices_;
  std::vector<Flow> flows_;
  std::vector<Counter> counters_;
};

}  // namespace tandem::sim::csim
