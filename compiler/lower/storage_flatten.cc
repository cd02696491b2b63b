// StorageFlatten: n-D Load/Store/Allocate -> 1-D buffers, row-major strides
// (index = sum_d idx_d * prod_{e>d} shape_e). Every buffer node gets one
// flattened twin, created on first use; arguments' twins are returned.
#include <map>

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/lower/passes.h"
#include "isa/error.h"

namespace tandem::pass {

namespace {

class Flattener : public ir::IRMutator {
 public:
  ir::Buffer flat(const ir::Buffer& b) {
    auto it = map_.find(b.get());
    if (it != map_.end()) return it->second;
    ir::Buffer f(b.name(), b.dtype(), {ir::Expr(b.num_elements())}, b.scope());
    map_[b.get()] = f;
    return f;
  }

  using IRMutator::visit;
  ir::Expr visit(const ir::LoadNode* op, const ir::Expr& self) override {
    ir::Expr e = IRMutator::visit(op, self);
    const ir::LoadNode* l = e.as<ir::LoadNode>();
    return ir::load(flat(l->buffer), {index(l->buffer, l->indices)});
  }
  ir::Expr visit(const ir::CallNode* op, const ir::Expr& self) override {
    ir::Expr e = IRMutator::visit(op, self);
    const ir::CallNode* c = e.as<ir::CallNode>();
    if (c->buffers.empty()) return e;
    std::vector<ir::Buffer> bufs;
    for (const ir::Buffer& b : c->buffers) bufs.push_back(flat(b));
    return ir::call(c->dtype, c->name, c->args, bufs);
  }
  ir::Stmt visit(const ir::StoreNode* op, const ir::Stmt& self) override {
    ir::Stmt s = IRMutator::visit(op, self);
    const ir::StoreNode* st = s.as<ir::StoreNode>();
    return ir::store(flat(st->buffer), {index(st->buffer, st->indices)}, st->value);
  }
  ir::Stmt visit(const ir::AllocateNode* op, const ir::Stmt& self) override {
    ir::Stmt s = IRMutator::visit(op, self);
    const ir::AllocateNode* a = s.as<ir::AllocateNode>();
    return ir::AllocateNode::make(flat(a->buffer), a->body);
  }

 private:
  static ir::Expr index(const ir::Buffer& b, const std::vector<ir::Expr>& idx) {
    const auto& shape = b->shape;
    TANDEM_ASSERT(idx.size() == shape.size() || (idx.size() == 1),
                  "access of " << b.name() << " with " << idx.size() << " indices");
    if (idx.size() == 1) return idx[0];
    ir::Expr flat = idx[0];
    for (size_t d = 1; d < idx.size(); ++d) flat = flat * shape[d] + idx[d];
    return flat;
  }

  std::map<const ir::BufferNode*, ir::Buffer> map_;
};

}  // namespace

ir::Stmt storage_flatten(const ir::Stmt& body, const std::vector<ir::Buffer>& args,
                         std::vector<ir::Buffer>* flat_args) {
  Flattener f;
  flat_args->clear();
  for (const ir::Buffer& a : args) flat_args->push_back(f.flat(a));
  return f.mutate(body);
}

}  // namespace tandem::pass
