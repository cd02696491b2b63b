// RemoveUnitLoops: `for (v, m, 1) body` -> body[v := m]. Loops of other
// extents are kept (vthread loops included).
#include "compiler/ir/mutator.h"
#include "compiler/ir/substitute.h"
#include "compiler/lower/passes.h"

namespace tandem::pass {

namespace {

class Remover : public ir::IRMutator {
 public:
  using IRMutator::visit;
  ir::Stmt visit(const ir::ForNode* op, const ir::Stmt& self) override {
    ir::Stmt s = IRMutator::visit(op, self);
    const ir::ForNode* f = s.as<ir::ForNode>();
    if (!f || !ir::is_const_int(f->extent, 1)) return s;
    return ir::substitute(f->body, {{f->var.get(), f->min}});
  }
};

}  // namespace

ir::Stmt remove_unit_loops(const ir::Stmt& body) {
  Remover r;
  return r.mutate(body);
}

}  // namespace tandem::pass
