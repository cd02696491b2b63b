// Reference interpreter of the loop IR (see interpreter.h).
#include "compiler/ir/interpreter.h"

#include <optional>

#include "compiler/ir/const_fold.h"
#include "compiler/ir/printer.h"
#include "isa/error.h"

namespace tandem::ir {

void Interpreter::bind(const Buffer& b, Storage* storage) {
  TANDEM_CHECK(storage && static_cast<std::int64_t>(storage->size()) >= b.num_elements(),
               "interpreter: storage for buffer " << b.name() << " holds "
                                                  << (storage ? storage->size() : 0)
                                                  << " elements, needs " << b.num_elements());
  bound_[b.get()] = storage;
}

void Interpreter::register_call(const std::string& name, CallHandler h) {
  calls_[name] = std::move(h);
}

Interpreter::Storage& Interpreter::storage_of(const Buffer& b) {
  auto it = bound_.find(b.get());
  if (it != bound_.end()) return *it->second;
  auto jt = scratch_.find(b.get());
  TANDEM_CHECK(jt != scratch_.end(),
               "interpreter: buffer " << b.name() << " is neither bound nor allocated");
  return jt->second;
}

std::int64_t Interpreter::flat_index(const Buffer& b, const std::vector<Expr>& idx) {
  const auto& shape = b->shape;
  std::int64_t flat = 0;
  if (idx.size() == 1) {
    flat = eval(idx[0]);
  } else {
    TANDEM_CHECK(idx.size() == shape.size(), "interpreter: " << idx.size() << " indices for "
                                                             << shape.size() << "-D buffer "
                                                             << b.name());
    for (size_t d = 0; d < idx.size(); ++d) {
      std::int64_t i = eval(idx[d]);
      std::int64_t ext = *as_const_int(shape[d]);
      TANDEM_CHECK(i >= 0 && i < ext, "interpreter: index " << i << " of dimension " << d << " of "
                                                            << b.name() << " outside [0, " << ext
                                                            << ")");
      flat = flat * ext + i;
    }
  }
  std::int64_t n = b.num_elements();
  TANDEM_CHECK(flat >= 0 && flat < n, "interpreter: index " << flat << " of buffer " << b.name()
                                                            << " outside [0, " << n << ")");
  return flat;
}

std::int64_t Interpreter::eval(const Expr& e) {
  switch (e.node_type()) {
    case NodeType::kIntImm:
      return e.as<IntImmNode>()->value;
    case NodeType::kVar: {
      auto it = vars_.find(e.as<VarNode>());
      TANDEM_CHECK(it != vars_.end(), "interpreter: unbound variable " << e.as<VarNode>()->name);
      return it->second;
    }
#define TANDEM_X(n)                                                         \
  case NodeType::k##n: {                                                    \
    auto* op = e.as<n##Node>();                                             \
    std::int64_t a = eval(op->a);                                           \
    if (NodeType::k##n == NodeType::kAnd && !a) return 0;                   \
    if (NodeType::k##n == NodeType::kOr && a) return 1;                     \
    std::int64_t b = eval(op->b);                                           \
    bool ok = false;                                                        \
    std::int64_t r = fold_binary(NodeType::k##n, op->a.dtype(), a, b, &ok); \
    TANDEM_CHECK(ok, "interpreter: division by zero in " << to_string(e));  \
    return r;                                                               \
  }
      TANDEM_IR_BINARY_NODES(TANDEM_X)
#undef TANDEM_X
    case NodeType::kNot:
      return eval(e.as<NotNode>()->a) ? 0 : 1;
    case NodeType::kSelect: {
      auto* op = e.as<SelectNode>();
      return eval(op->cond) ? eval(op->true_value) : eval(op->false_value);
    }
    case NodeType::kCast:
      return wrap_to(e.dtype(), eval(e.as<CastNode>()->value));
    case NodeType::kLoad: {
      auto* op = e.as<LoadNode>();
      std::int64_t i = flat_index(op->buffer, op->indices);
      return storage_of(op->buffer)[i];
    }
    case NodeType::kCall: {
      auto* op = e.as<CallNode>();
      auto it = calls_.find(op->name);
      TANDEM_CHECK(it != calls_.end(), "interpreter: no handler for call " << op->name);
      std::vector<std::int64_t> args;
      for (const Expr& a : op->args) args.push_back(eval(a));
      std::vector<Storage*> bufs;
      for (const Buffer& b : op->buffers) bufs.push_back(&storage_of(b));
      return it->second(args, bufs);
    }
    default:
      throw Error(Msg() << "interpreter: cannot evaluate " << node_type_name(e.node_type()));
  }
}

void Interpreter::run(const Stmt& s) {
  if (!s.defined()) return;
  TANDEM_CHECK(++steps_ <= step_limit_, "interpreter: step limit " << step_limit_ << " exceeded");
  switch (s.node_type()) {
    case NodeType::kFor: {
      auto* op = s.as<ForNode>();
      std::int64_t mn = eval(op->min), ext = eval(op->extent);
      auto saved = vars_.find(op->var.get()) != vars_.end()
                       ? std::optional<std::int64_t>(vars_[op->var.get()])
                       : std::nullopt;
      for (std::int64_t i = mn; i < mn + ext; ++i) {
        vars_[op->var.get()] = i;
        run(op->body);
      }
      if (saved) {
        vars_[op->var.get()] = *saved;
      } else {
        vars_.erase(op->var.get());
      }
      return;
    }
    case NodeType::kLetStmt: {
      auto* op = s.as<LetStmtNode>();
      vars_[op->var.get()] = eval(op->value);
      run(op->body);
      vars_.erase(op->var.get());
      return;
    }
    case NodeType::kIfThenElse: {
      auto* op = s.as<IfThenElseNode>();
      if (eval(op->cond)) {
        run(op->then_case);
      } else {
        run(op->else_case);
      }
      return;
    }
    case NodeType::kStore: {
      auto* op = s.as<StoreNode>();
      std::int64_t v = eval(op->value);
      std::int64_t i = flat_index(op->buffer, op->indices);
      storage_of(op->buffer)[i] = wrap_to(op->buffer.dtype(), v);
      return;
    }
    case NodeType::kAllocate: {
      auto* op = s.as<AllocateNode>();
      scratch_[op->buffer.get()] = Storage(op->buffer.num_elements(), 0);
      run(op->body);
      scratch_.erase(op->buffer.get());
      return;
    }
    case NodeType::kSeq:
      for (const Stmt& c : s.as<SeqNode>()->stmts) run(c);
      return;
    case NodeType::kAttrStmt:
      run(s.as<AttrStmtNode>()->body);
      return;
    case NodeType::kEvaluate:
      eval(s.as<EvaluateNode>()->value);
      return;
    default:
      throw Error(Msg() << "interpreter: cannot run " << node_type_name(s.node_type()));
  }
}

}  // namespace tandem::ir
