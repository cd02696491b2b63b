// A small reference interpreter of the loop IR (for tests and debugging).
//
// Runs a statement over named host buffers holding int64 values (wrapped to
// each buffer's dtype on store). Buffers passed in are used by identity;
// Allocate creates zero-filled scratch storage. Loads and stores are
// bounds-checked against the buffer's element count (tandem::Error naming
// buffer, index and size). Calls are dispatched to registered handlers
// (tandem::Error for an unknown call). Multi-dimensional accesses are
// flattened row-major, so the interpreter runs IR before and after storage
// flattening.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/ir/ir.h"

namespace tandem::ir {

class Interpreter {
 public:
  using Storage = std::vector<std::int64_t>;
  // Handler of Call `name`: receives the evaluated args and the storage of the
  // call's buffers (same order as CallNode::buffers); returns the call value.
  using CallHandler = std::function<std::int64_t(const std::vector<std::int64_t>& args,
                                                 std::vector<Storage*>& bufs)>;

  // Binds a buffer to caller-owned storage (size must be >= element count).
  void bind(const Buffer& b, Storage* storage);
  void register_call(const std::string& name, CallHandler h);
  // Upper bound on executed statements (guards against runaway loops).
  void set_step_limit(std::uint64_t n) { step_limit_ = n; }

  void run(const Stmt& s);
  std::int64_t eval(const Expr& e);

 private:
  Storage& storage_of(const Buffer& b);
  std::int64_t flat_index(const Buffer& b, const std::vector<Expr>& idx);

  std::unordered_map<const BufferNode*, Storage*> bound_;
  std::unordered_map<const BufferNode*, Storage> scratch_;
  std::unordered_map<const VarNode*, std::int64_t> vars_;
  std::map<std::string, CallHandler> calls_;
  std::uint64_t steps_ = 0;
  std::uint64_t step_limit_ = 200'000'000;
};

}  // namespace tandem::ir
