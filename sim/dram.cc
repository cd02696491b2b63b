// Dram: calloc-backed, bounds-checked device memory (see sim/dram.h).
//
// Assumes a 64-bit host: the whole capacity is reserved with calloc, which
// on Linux maps zero pages lazily, so untouched DRAM costs no memory.
#include "sim/dram.h"

#include <cstring>

#include "isa/error.h"

namespace tandem::sim {

Dram::Dram(std::uint64_t bytes) : size_(bytes) {
  TANDEM_CHECK(bytes > 0, "DRAM capacity must be positive (got 0 bytes)");
  void* p = std::calloc(static_cast<std::size_t>(bytes), 1);
  TANDEM_CHECK(p != nullptr, "cannot allocate a DRAM of " << bytes << " bytes");
  mem_.reset(static_cast<std::uint8_t*>(p));
}

void Dram::check_range(std::uint64_t addr, std::uint64_t bytes, const char* what) const {
  // Written to avoid overflow of addr + bytes.
  TANDEM_CHECK(addr <= size_ && bytes <= size_ - addr,
               (what ? what : "DRAM access")
                   << ": " << bytes << " bytes at address 0x" << std::hex << addr << std::dec
                   << " (" << addr << ") exceed the DRAM capacity of " << size_ << " bytes");
}

void Dram::write(std::uint64_t addr, const void* src, std::size_t bytes) {
  check_range(addr, bytes, "DRAM write");
  if (bytes) std::memcpy(mem_.get() + addr, src, bytes);
}

void Dram::read(std::uint64_t addr, void* dst, std::size_t bytes) const {
  check_range(addr, bytes, "DRAM read");
  if (bytes) std::memcpy(dst, mem_.get() + addr, bytes);
}

}  // namespace tandem::sim
