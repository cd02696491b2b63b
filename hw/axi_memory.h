// AxiMemory: the C++ DRAM behind the RTL's AXI4-style master port.
//
// Implements the memory timing contract of hw/README.md on a sim::Dram:
// ARREADY/AWREADY/WREADY and RREADY/BREADY are always 1; a read burst whose
// AR handshake is in cycle g returns its beats in cycles g+L .. g+L+beats-1
// (in order); a write burst whose AW handshake is in cycle g takes its W
// beats in cycles g .. g+beats-1 (written to DRAM as they arrive, under
// WSTRB) and its B response comes in cycle g+L+beats-1. Beats are packed:
// beat i of a burst at byte address A carries bytes [A+i*P, A+i*P+P), of
// which the first `bytes` of the burst are meaningful (ARBYTES/AWBYTES);
// read bytes past that are zero. L >= 1.
// Every request is checked against the DRAM size and the beat count; a
// violation is recorded (failed()/error()) and the caller stops the run.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "sim/dram.h"

namespace tandem::hw {

class AxiMemory {
 public:
  AxiMemory(sim::Dram& dram, std::uint32_t bytes_per_beat, std::uint32_t latency);

  // Forgets every burst in flight (a new run).
  void reset();

  // Outputs for cycle t; call once per cycle, in increasing t, before the
  // RTL evaluates cycle t. `data` points at bytes_per_beat bytes.
  struct RBeat {
    bool valid = false;
    bool last = false;
    const std::uint8_t* data = nullptr;
  };
  RBeat r_beat(std::uint64_t t);
  bool b_valid(std::uint64_t t);

  // Requests the RTL drives in cycle t (after it evaluated cycle t).
  void on_ar(std::uint64_t t, std::uint32_t addr, std::uint32_t len, std::uint32_t bytes,
             unsigned id);
  void on_aw(std::uint64_t t, std::uint32_t addr, std::uint32_t len, std::uint32_t bytes,
             unsigned id);
  void on_w(std::uint64_t t, const std::uint8_t* data, std::uint64_t strb, bool last);

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // Requester id of the failing request (0 fetch, 1 load, 2 compute, 3 store).
  unsigned error_id() const { return error_id_; }
  bool idle() const { return reads_.empty() && bresp_.empty() && w_left_ == 0; }

 private:
  struct Read {
    std::uint64_t first;  // cycle of beat 0
    std::uint32_t addr, bytes, beats, next = 0;
  };
  void fail(unsigned id, const std::string& msg);
  bool check(unsigned id, const char* what, std::uint32_t addr, std::uint32_t len,
             std::uint32_t bytes);

  sim::Dram& dram_;
  std::uint32_t P_, L_;
  std::deque<Read> reads_;
  std::deque<std::uint64_t> bresp_;
  std::vector<std::uint8_t> beat_;
  std::uint64_t read_bus_free_ = 0;  // first cycle after the last scheduled R beat
  // write burst being received
  std::uint64_t w_first_ = 0;
  std::uint32_t w_addr_ = 0, w_bytes_ = 0, w_beats_ = 0, w_next_ = 0, w_left_ = 0;
  std::string error_;
  unsigned error_id_ = 0;
};

}  // namespace tandem::hw
