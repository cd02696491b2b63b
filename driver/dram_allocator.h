// DramAllocator: first-fit allocator of device DRAM physical addresses.
//
// Hands out byte addresses inside [base, base + capacity), every block
// aligned to `alignment` bytes (default 4096, so every buffer is aligned to
// any SRAM element size) and its size rounded up to the alignment. Freed
// blocks coalesce with their free neighbours and are reused. It only does
// bookkeeping: it never touches the device memory itself.
// Running out of memory raises tandem::Error naming the request, the largest
// free block and the capacity; freeing an address that is not the start of a
// live block is an Error too.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace tandem::driver {

class DramAllocator {
 public:
  DramAllocator(std::uint64_t capacity, std::uint64_t base = 0, std::uint64_t alignment = 4096);

  // Returns the address of a new block of at least `bytes` bytes (a 0-byte
  // request still gets one aligned unit). `what` names the block in errors.
  std::uint64_t allocate(std::uint64_t bytes, const std::string& what = "buffer");
  void free(std::uint64_t addr);

  std::uint64_t capacity() const { return capacity_; }
  std::uint64_t base() const { return base_; }
  std::uint64_t alignment() const { return alignment_; }
  std::uint64_t bytes_in_use() const { return in_use_; }
  std::uint64_t largest_free_block() const;
  std::size_t live_blocks() const { return used_.size(); }
  // Size (rounded) of the live block starting at `addr`, 0 if none.
  std::uint64_t block_size(std::uint64_t addr) const;

 private:
  std::uint64_t capacity_, base_, alignment_;
  std::uint64_t in_use_ = 0;
  std::map<std::uint64_t, std::uint64_t> free_;  // addr -> size
  std::map<std::uint64_t, std::uint64_t> used_;  // addr -> size
};

}  // namespace tandem::driver
