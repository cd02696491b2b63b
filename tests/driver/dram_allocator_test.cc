// Tests of driver::DramAllocator: alignment, reuse, coalescing, OOM errors.
#include "driver/dram_allocator.h"

#include <gtest/gtest.h>

#include <string>

#include "isa/error.h"

namespace tandem::driver {
namespace {

TEST(DramAllocator, AlignsEveryBlock) {
  DramAllocator a(1 << 20);
  const auto x = a.allocate(1);
  const auto y = a.allocate(4097);
  const auto z = a.allocate(0);
  EXPECT_EQ(x % 4096, 0u);
  EXPECT_EQ(y % 4096, 0u);
  EXPECT_EQ(z % 4096, 0u);
  EXPECT_EQ(a.block_size(y), 8192u);
  EXPECT_EQ(a.bytes_in_use(), 4096u + 8192u + 4096u);
  EXPECT_NE(x, y);
  EXPECT_NE(y, z);
  EXPECT_THROW(DramAllocator(4096, 0, 3000), Error);
  EXPECT_THROW(DramAllocator(4096, 100, 4096), Error);
}

TEST(DramAllocator, ReusesAndCoalescesFreedBlocks) {
  DramAllocator a(4 * 4096);
  const auto b0 = a.allocate(4096);
  const auto b1 = a.allocate(4096);
  const auto b2 = a.allocate(4096);
  const auto b3 = a.allocate(4096);
  EXPECT_THROW(a.allocate(1), Error);
  a.free(b1);
  EXPECT_EQ(a.allocate(10), b1);  // reuse
  a.free(b1);
  a.free(b2);
  EXPECT_EQ(a.largest_free_block(), 2 * 4096u);  // b1+b2 coalesced
  EXPECT_EQ(a.allocate(8192), b1);
  a.free(b0);
  a.free(b3);
  a.free(b1);
  EXPECT_EQ(a.largest_free_block(), 4 * 4096u);
  EXPECT_EQ(a.bytes_in_use(), 0u);
  EXPECT_EQ(a.live_blocks(), 0u);
}

TEST(DramAllocator, FreeOfUnknownAddressIsAnError) {
  DramAllocator a(1 << 16);
  const auto b = a.allocate(100);
  EXPECT_THROW(a.free(b + 4096), Error);
  a.free(b);
  EXPECT_THROW(a.free(b), Error);
}

TEST(DramAllocator, OutOfMemoryMessageNamesRequestLargestBlockAndCapacity) {
  DramAllocator a(16 * 4096);
  std::uint64_t blocks[16];
  for (auto& b : blocks) b = a.allocate(4096);
  for (int k = 0; k < 16; k += 2) a.free(blocks[k]);  // fragment: 8 free single pages
  try {
    a.allocate(8192, "weights");
    FAIL() << "expected an out-of-memory Error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("8192 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("'weights'"), std::string::npos) << m;
    EXPECT_NE(m.find("largest free block 4096"), std::string::npos) << m;
    EXPECT_NE(m.find("capacity 65536"), std::string::npos) << m;
  }
  EXPECT_THROW(a.allocate(1ull << 40), Error);
}

}  // namespace
}  // namespace tandem::driver
