// DramAllocator: first-fit free list with coalescing (see header).
#include "driver/dram_allocator.h"

#include <algorithm>
#include <iterator>

#include "isa/error.h"

namespace tandem::driver {

DramAllocator::DramAllocator(std::uint64_t capacity, std::uint64_t base, std::uint64_t alignment)
    : capacity_(capacity), base_(base), alignment_(alignment) {
  TANDEM_CHECK(alignment > 0 && (alignment & (alignment - 1)) == 0,
               "DRAM allocator alignment " << alignment << " is not a power of two");
  TANDEM_CHECK(base % alignment == 0,
               "DRAM allocator base " << base << " is not aligned to " << alignment);
  const std::uint64_t usable = capacity / alignment * alignment;
  if (usable > 0) free_.emplace(base, usable);
}

std::uint64_t DramAllocator::largest_free_block() const {
  std::uint64_t m = 0;
  for (const auto& [a, s] : free_) m = std::max(m, s);
  return m;
}

std::uint64_t DramAllocator::block_size(std::uint64_t addr) const {
  auto it = used_.find(addr);
  return it == used_.end() ? 0 : it->second;
}

std::uint64_t DramAllocator::allocate(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t want = std::max<std::uint64_t>(1, bytes);
  TANDEM_CHECK(want <= capacity_, "DRAM allocation of " << bytes << " bytes for '" << what
                                                        << "' exceeds the DRAM capacity of "
                                                        << capacity_ << " bytes");
  const std::uint64_t size = (want + alignment_ - 1) / alignment_ * alignment_;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const std::uint64_t addr = it->first;
    const std::uint64_t rest = it->second - size;
    free_.erase(it);
    if (rest > 0) free_.emplace(addr + size, rest);
    used_.emplace(addr, size);
    in_use_ += size;
    return addr;
  }
  throw Error(Msg() << "out of device DRAM: allocating " << bytes << " bytes for '" << what << "' ("
                    << size << " after alignment to " << alignment_ << "), largest free block "
                    << largest_free_block() << " bytes, " << capacity_ - in_use_
                    << " bytes free in total, capacity " << capacity_ << " bytes");
}

void DramAllocator::free(std::uint64_t addr) {
  auto u = used_.find(addr);
  TANDEM_CHECK(u != used_.end(),
               "DRAM free of address " << addr << " which is not the start of a live block");
  std::uint64_t a = addr, s = u->second;
  in_use_ -= s;
  used_.erase(u);
  auto next = free_.lower_bound(a);
  if (next != free_.end() && a + s == next->first) {
    s += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == a) {
      a = prev->first;
      s += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(a, s);
}

}  // namespace tandem::driver
