// Buffer renaming and storage merging (see buffer_rewrite.h).
#include "compiler/accel/buffer_rewrite.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::accel {
namespace {

using ir::Expr;
using ir::Stmt;

class Renamer : public ir::IRMutator {
 public:
  Renamer(const ir::Buffer& from, const ir::Buffer& to, std::int64_t offset)
      : from_(from), to_(to), offset_(offset) {}

  Expr visit(const ir::LoadNode* op, const Expr& self) override {
    Expr e = IRMutator::visit(op, self);
    const auto* n = e.as<ir::LoadNode>();
    if (!n->buffer.same_as(from_)) return e;
    Expr r = ir::LoadNode::make(to_, shift(n->indices));
    return r.dtype() == from_.dtype() ? r : ir::CastNode::make(from_.dtype(), r);
  }
  Stmt visit(const ir::StoreNode* op, const Stmt& self) override {
    Stmt s = IRMutator::visit(op, self);
    const auto* n = s.as<ir::StoreNode>();
    if (!n->buffer.same_as(from_)) return s;
    return ir::StoreNode::make(to_, shift(n->indices), n->value);
  }
  Expr visit(const ir::CallNode* op, const Expr& self) override {
    Expr e = IRMutator::visit(op, self);
    const auto* n = e.as<ir::CallNode>();
    bool hit = false;
    std::vector<ir::Buffer> bufs = n->buffers;
    for (ir::Buffer& b : bufs)
      if (b.same_as(from_)) b = to_, hit = true;
    if (!hit) return e;
    TANDEM_ASSERT(offset_ == 0, "rename_buffer with an offset through call '" << n->name << "'");
    return ir::CallNode::make(n->dtype, n->name, n->args, std::move(bufs));
  }
  Stmt visit(const ir::AllocateNode* op, const Stmt& self) override {
    Stmt s = IRMutator::visit(op, self);
    const auto* n = s.as<ir::AllocateNode>();
    if (!n->buffer.same_as(from_)) return s;
    return ir::AllocateNode::make(to_, n->body);
  }

 private:
  std::vector<Expr> shift(const std::vector<Expr>& idx) const {
    if (offset_ == 0) return idx;
    TANDEM_ASSERT(idx.size() == 1, "rename_buffer with an offset on an unflattened access");
    return {idx[0] + Expr(offset_)};
  }
  ir::Buffer from_, to_;
  std::int64_t offset_;
};

// Removes Allocate(b), keeping its body.
class AllocDropper : public ir::IRMutator {
 public:
  explicit AllocDropper(const ir::Buffer& b) : b_(b) {}
  Stmt visit(const ir::AllocateNode* op, const Stmt& self) override {
    if (op->buffer.same_as(b_)) return mutate(op->body);
    return IRMutator::visit(op, self);
  }

 private:
  ir::Buffer b_;
};

class AllocFinder : public ir::IRVisitor {
 public:
  explicit AllocFinder(const ir::Buffer& b) : b_(b) {}
  void visit(const ir::AllocateNode* op) override {
    if (op->buffer.same_as(b_)) found = op;
    IRVisitor::visit(op);
  }
  const ir::AllocateNode* found = nullptr;

 private:
  ir::Buffer b_;
};

class UseFinder : public ir::IRVisitor {
 public:
  explicit UseFinder(const ir::Buffer& b) : b_(b) {}
  void visit(const ir::LoadNode* op) override {
    if (op->buffer.same_as(b_)) read = true;
    IRVisitor::visit(op);
  }
  void visit(const ir::StoreNode* op) override {
    if (op->buffer.same_as(b_)) written = true;
    IRVisitor::visit(op);
  }
  void visit(const ir::CallNode* op) override {
    for (std::size_t k = 0; k < op->buffers.size(); ++k) {
      if (!op->buffers[k].same_as(b_)) continue;
      (k == 0 ? written : read) = true;
      // In-place calls (ALU: D is also read) count as reads too.
      if (k == 0 && op->name.rfind("alu_", 0) == 0) read = true;
    }
    IRVisitor::visit(op);
  }
  bool read = false, written = false;

 private:
  ir::Buffer b_;
};

}  // namespace

Stmt rename_buffer(const Stmt& s, const ir::Buffer& from, const ir::Buffer& to,
                   std::int64_t offset) {
  Renamer r(from, to, offset);
  return r.mutate(s);
}

const ir::AllocateNode* find_allocate(const Stmt& s, const ir::Buffer& b) {
  AllocFinder f(b);
  f.walk(s);
  return f.found;
}

std::optional<Stmt> merge_storage(const Stmt& s, const ir::Buffer& keep, const ir::Buffer& drop,
                                  std::int64_t offset) {
  const ir::AllocateNode* ak = find_allocate(s, keep);
  const ir::AllocateNode* ad = find_allocate(s, drop);
  if (ak == nullptr || ad == nullptr) return std::nullopt;
  // keep's Allocate inside drop's: drop it; renaming turns Allocate(drop)
  // into Allocate(keep), so keep lives as long as drop did.
  if (find_allocate(ad->body, keep) != nullptr) {
    AllocDropper d(keep);
    return rename_buffer(d.mutate(s), drop, keep, offset);
  }
  if (find_allocate(ak->body, drop) == nullptr) return std::nullopt;
  AllocDropper d(drop);
  return rename_buffer(d.mutate(s), drop, keep, offset);
}

bool reads_buffer(const Stmt& s, const ir::Buffer& b) {
  UseFinder f(b);
  f.walk(s);
  return f.read;
}

bool writes_buffer(const Stmt& s, const ir::Buffer& b) {
  UseFinder f(b);
  f.walk(s);
  return f.written;
}

}  // namespace tandem::accel
