// IntrinOffsets: intrinsic calls whose operands are tensor_addr(Load(buf,
// {flat}), elem) become calls with `buffers` = the operand buffers and args =
// the element offsets flat/elem (then any scalar args). Divisibility of each
// offset is proven with the enclosing loop ranges; otherwise tandem::Error.
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify.h"
#include "compiler/lower/passes.h"
#include "isa/error.h"
#include "tensorize/match.h"

namespace tandem::pass {

namespace {

class Offsets : public ir::IRMutator {
 public:
  using IRMutator::visit;
  ir::Stmt visit(const ir::ForNode* op, const ir::Stmt& self) override {
    const std::int64_t* mn = ir::as_const_int(op->min);
    const std::int64_t* ex = ir::as_const_int(op->extent);
    if (mn && ex) an_.bind(op->var, *mn, *ex);
    ir::Stmt r = IRMutator::visit(op, self);
    an_.unbind(op->var);
    return r;
  }
  ir::Expr visit(const ir::CallNode* op, const ir::Expr& self) override {
    std::vector<ir::Buffer> bufs = op->buffers;
    std::vector<ir::Expr> offs, rest;
    bool any = false;
    for (const ir::Expr& a : op->args) {
      const ir::CallNode* ta = a.as<ir::CallNode>();
      if (!ta || ta->name != tensorize::kTensorAddr) {
        rest.push_back(mutate(a));
        continue;
      }
      any = true;
      const ir::LoadNode* l = ta->args[0].as<ir::LoadNode>();
      const std::int64_t* elem = ir::as_const_int(ta->args[1]);
      TANDEM_ASSERT(l && elem && l->indices.size() == 1, "malformed tensor_addr operand");
      ir::Expr flat = an_.simplify(l->indices[0]);
      ir::Expr rem = an_.simplify(flat % ir::Expr(*elem));
      TANDEM_CHECK(ir::is_const_int(rem, 0),
                   op->name << ": the offset " << ir::to_string(flat) << " into "
                            << l->buffer.name() << " is not a multiple of the intrinsic tile ("
                            << *elem << " elements); its tiles must be aligned");
      bufs.push_back(l->buffer);
      offs.push_back(an_.simplify(flat / ir::Expr(*elem)));
    }
    if (!any) return IRMutator::visit(op, self);
    offs.insert(offs.end(), rest.begin(), rest.end());
    return ir::call(op->dtype, op->name, offs, bufs);
  }

 private:
  ir::Analyzer an_;
};

}  // namespace

ir::Stmt intrin_offsets(const ir::Stmt& body) {
  Offsets o;
  return o.mutate(body);
}

}  // namespace tandem::pass
