// Dram: the byte-addressed device memory shared by every simulator backend.
//
// Pages are zero on first touch (calloc), so a large DRAM costs nothing until
// used. Every access is bounds-checked and an out-of-range access is a
// tandem::Error naming the address, the size and the DRAM capacity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace tandem::sim {

class Dram {
 public:
  explicit Dram(std::uint64_t bytes);
  std::uint64_t size() const { return size_; }

  // Throws tandem::Error unless [addr, addr+bytes) lies inside the DRAM.
  void check_range(std::uint64_t addr, std::uint64_t bytes, const char* what) const;
  void write(std::uint64_t addr, const void* src, std::size_t bytes);
  void read(std::uint64_t addr, void* dst, std::size_t bytes) const;
  // Raw pointer for fast paths; call check_range first.
  std::uint8_t* data() { return mem_.get(); }
  const std::uint8_t* data() const { return mem_.get(); }

 private:
  struct Free {
    void operator()(std::uint8_t* p) const { std::free(p); }
  };
  std::uint64_t size_;
  std::unique_ptr<std::uint8_t, Free> mem_;
};

}  // namespace tandem::sim
