// AxiMemory: the DRAM behind the RTL's memory port (see hw/axi_memory.h).
#include "hw/axi_memory.h"

#include <algorithm>
#include <cstring>

#include "isa/error.h"

namespace tandem::hw {

AxiMemory::AxiMemory(sim::Dram& dram, std::uint32_t bytes_per_beat, std::uint32_t latency)
    : dram_(dram), P_(bytes_per_beat), L_(latency), beat_(bytes_per_beat) {
  TANDEM_ASSERT(P_ > 0 && L_ >= 1, "AxiMemory needs P > 0 and L >= 1");
}

void AxiMemory::reset() {
  reads_.clear();
  bresp_.clear();
  read_bus_free_ = 0;
  w_left_ = 0;
  error_.clear();
  error_id_ = 0;
}

void AxiMemory::fail(unsigned id, const std::string& msg) {
  if (!error_.empty()) return;
  error_ = msg;
  error_id_ = id;
}

bool AxiMemory::check(unsigned id, const char* what, std::uint32_t addr, std::uint32_t len,
                      std::uint32_t bytes) {
  const std::uint32_t beats = (bytes + P_ - 1) / P_;
  if (bytes == 0 || len + 1 != beats) {
    fail(id, Msg() << what << " burst at byte address 0x" << std::hex << addr << std::dec
                   << " announces " << len + 1 << " beats for " << bytes << " bytes (expected "
                   << beats << " beats of " << P_ << " bytes)");
    return false;
  }
  if (std::uint64_t{addr} + bytes > dram_.size()) {
    fail(id, Msg() << what << " of " << bytes << " bytes at byte address 0x" << std::hex << addr
                   << std::dec << " (" << addr << ") is outside the DRAM of " << dram_.size()
                   << " bytes");
    return false;
  }
  return true;
}

AxiMemory::RBeat AxiMemory::r_beat(std::uint64_t t) {
  RBeat r;
  if (reads_.empty()) return r;
  Read& rd = reads_.front();
  if (rd.first + rd.next != t) return r;
  const std::uint32_t off = rd.next * P_;
  const std::uint32_t n = std::min(P_, rd.bytes - off);
  std::memcpy(beat_.data(), dram_.data() + rd.addr + off, n);
  std::memset(beat_.data() + n, 0, P_ - n);
  r.valid = true;
  r.data = beat_.data();
  r.last = ++rd.next == rd.beats;
  if (r.last) reads_.pop_front();
  return r;
}

bool AxiMemory::b_valid(std::uint64_t t) {
  if (bresp_.empty() || bresp_.front() != t) return false;
  bresp_.pop_front();
  return true;
}

void AxiMemory::on_ar(std::uint64_t t, std::uint32_t addr, std::uint32_t len, std::uint32_t bytes,
                      unsigned id) {
  if (!check(id, "read", addr, len, bytes)) return;
  Read rd{t + L_, addr, bytes, len + 1};
  if (rd.first < read_bus_free_) {
    fail(id, Msg() << "read burst granted in cycle " << t << " would return data in cycle "
                   << rd.first << " while the previous burst still returns data until cycle "
                   << read_bus_free_ - 1 << " (the RTL broke the one-burst-at-a-time rule)");
    return;
  }
  read_bus_free_ = rd.first + rd.beats;
  reads_.push_back(rd);
}

void AxiMemory::on_aw(std::uint64_t t, std::uint32_t addr, std::uint32_t len, std::uint32_t bytes,
                      unsigned id) {
  if (w_left_ != 0) {
    fail(id, Msg() << "write burst granted in cycle " << t << " while " << w_left_
                   << " W beats of the previous burst are missing");
    return;
  }
  if (!check(id, "write", addr, len, bytes)) return;
  w_first_ = t;
  w_addr_ = addr;
  w_bytes_ = bytes;
  w_beats_ = len + 1;
  w_next_ = 0;
  w_left_ = len + 1;
  bresp_.push_back(t + L_ + w_beats_ - 1);
}

void AxiMemory::on_w(std::uint64_t t, const std::uint8_t* data, std::uint64_t strb, bool last) {
  if (w_left_ == 0 || w_first_ + w_next_ != t) {
    fail(3, Msg() << "W beat in cycle " << t << " outside a write burst's cycles");
    return;
  }
  const std::uint32_t off = w_next_ * P_;
  const std::uint32_t n = std::min(P_, w_bytes_ - off);
  for (std::uint32_t j = 0; j < P_; ++j) {
    const bool en = (strb >> j) & 1u;
    if (en && j >= n) {
      fail(3, Msg() << "W beat " << w_next_ << " strobes byte " << j << " past the burst's "
                    << w_bytes_ << " bytes");
      return;
    }
    if (en) dram_.data()[w_addr_ + off + j] = data[j];
  }
  ++w_next_;
  --w_left_;
  if (last != (w_left_ == 0))
    fail(3, Msg() << "WLAST is " << last << " on beat " << w_next_ - 1 << " of a " << w_beats_
                  << "-beat write burst");
}

}  // namespace tandem::hw
