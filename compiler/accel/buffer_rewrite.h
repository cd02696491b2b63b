// Buffer-level rewrites used by the accelerator passes.
//
// rename_buffer() redirects every use of one buffer (Load, Store, the buffer
// lists of Calls, its Allocate) to another, optionally shifting the scalar
// index and wrapping loads in a cast. merge_storage() makes `drop` share the
// storage of `keep`: `keep`'s Allocate ends up at the outer of the two
// positions (so it covers every former use of `drop`) and `drop`'s Allocate
// disappears. Both Allocates must lie on one root-to-leaf path (true when a
// statement uses both buffers); otherwise merge_storage returns nullopt.
#pragma once

#include <cstdint>
#include <optional>

#include "compiler/ir/ir.h"

namespace tandem::accel {

// Loads of `from` become `to`[i + offset] (cast to from's dtype when the
// dtypes differ); Stores and Call buffer lists are redirected likewise.
ir::Stmt rename_buffer(const ir::Stmt& s, const ir::Buffer& from, const ir::Buffer& to,
                       std::int64_t offset = 0);

// The Allocate node of b in s, or nullptr.
const ir::AllocateNode* find_allocate(const ir::Stmt& s, const ir::Buffer& b);

std::optional<ir::Stmt> merge_storage(const ir::Stmt& s, const ir::Buffer& keep,
                                      const ir::Buffer& drop, std::int64_t offset = 0);

// True when buffer b is read (Load or as a Call operand) anywhere in s / e.
bool reads_buffer(const ir::Stmt& s, const ir::Buffer& b);
// True when b is written (Store, or buffers[0] of a Call) anywhere in s.
bool writes_buffer(const ir::Stmt& s, const ir::Buffer& b);

}  // namespace tandem::accel
