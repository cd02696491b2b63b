// Tensor expressions: placeholders, computes, reductions.
//
// A Tensor IS an ir::Buffer (TensorNode derives from ir::BufferNode, scope
// "global"), so `A(i, k)` is simply ir::Load(A, {i, k}) and compute bodies are
// ordinary IR expressions. Each tensor records the Operation that produces it:
// a placeholder (an input) or a compute (a body over the op's axis Vars, with
// an ir::ReduceNode at the top for reductions).
//
// Shapes must be positive constants (tandem::Error otherwise): the
// accelerator flow needs static shapes. Assumes the operations form a DAG
// built with these functions (a tensor can only read tensors that exist).
//
//   Tensor A = placeholder({16, 8}, DType::kInt8, "A");
//   Tensor B = placeholder({4, 8}, DType::kInt8, "B");
//   IterVar k = reduce_axis(8, "k");
//   Tensor C = compute({16, 4}, [&](Var i, Var j) {
//     return sum(cast(DType::kInt32, A(i, k)) * cast(DType::kInt32, B(j, k)), {k});
//   }, "C");
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/ir/op.h"

namespace tandem::te {

using ir::DType;
using ir::Expr;
using ir::Range;
using ir::Var;

enum class IterKind : std::uint8_t { kDataPar, kReduce };

// An iteration axis: a Var with its range and kind. Identity is the Var.
struct IterVarNode {
  Var var;
  Range dom;  // constant min/extent for root axes; derived axes get theirs from bound inference
  IterKind kind = IterKind::kDataPar;
};

class IterVar {
 public:
  IterVar() = default;
  explicit IterVar(std::shared_ptr<const IterVarNode> n) : node_(std::move(n)) {}
  IterVar(Var v, Range dom, IterKind kind);
  bool defined() const { return node_ != nullptr; }
  const IterVarNode* get() const { return node_.get(); }
  const IterVarNode* operator->() const { return node_.get(); }
  // Same axis: identity is the variable (an IterVar rebuilt around the same Var
  // by compute() is the same axis).
  bool same_as(const IterVar& o) const {
    return node_ == o.node_ || (node_ && o.node_ && node_->var.same_as(o.node_->var));
  }
  const Var& var() const { return node_->var; }
  const std::string& name() const { return node_->var.name(); }
  IterKind kind() const { return node_->kind; }
  operator Expr() const { return node_->var; }  // NOLINT: use an axis inside expressions

 private:
  std::shared_ptr<const IterVarNode> node_;
};

class Tensor;

struct OperationNode {
  enum class Kind : std::uint8_t { kPlaceholder, kCompute };
  Kind kind = Kind::kPlaceholder;
  std::string name;
  std::vector<IterVar> axis;         // compute: one per output dimension
  std::vector<IterVar> reduce_axis;  // compute: the reduction axes (from the ReduceNode)
  Expr body;                         // compute: value at the axis vars
  std::vector<Tensor> inputs;        // tensors the body reads, first-occurrence order
};
using Operation = std::shared_ptr<const OperationNode>;

struct TensorNode : ir::BufferNode {
  TensorNode(std::string name, DType dtype, std::vector<Expr> shape, Operation op);
  Operation op;
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<const TensorNode> n) : node_(std::move(n)) {}
  // The tensor behind a buffer, or an undefined Tensor when b is not one.
  static Tensor from_buffer(const ir::Buffer& b);

  bool defined() const { return node_ != nullptr; }
  const TensorNode* get() const { return node_.get(); }
  const TensorNode* operator->() const { return node_.get(); }
  bool same_as(const Tensor& o) const { return node_ == o.node_; }
  ir::Buffer buffer() const { return ir::Buffer(node_); }
  operator ir::Buffer() const { return buffer(); }  // NOLINT
  const std::string& name() const { return node_->name; }
  DType dtype() const { return node_->dtype; }
  const std::vector<Expr>& shape() const { return node_->shape; }
  std::vector<std::int64_t> const_shape() const;
  size_t ndim() const { return node_->shape.size(); }
  const Operation& op() const { return node_->op; }
  bool is_placeholder() const { return node_->op->kind == OperationNode::Kind::kPlaceholder; }

  // Element access; the number of indices must equal ndim (tandem::Error).
  Expr operator()(std::vector<Expr> indices) const;
  template <typename... I>
  Expr operator()(I... idx) const {
    return (*this)(std::vector<Expr>{Expr(idx)...});
  }

 private:
  std::shared_ptr<const TensorNode> node_;
};

Tensor placeholder(std::vector<Expr> shape, DType dtype, std::string name);

// fcompute receives one Var per output dimension (named name.i0, ... unless
// axis_names are given). A ReduceNode may appear only at the top of the body.
Tensor compute(std::vector<Expr> shape,
               const std::function<Expr(const std::vector<Var>&)>& fcompute, std::string name,
               std::vector<std::string> axis_names = {});

// Convenience overload for lambdas taking one Var per dimension (1 to 6).
template <typename F>
requires(!std::is_invocable_v<F, const std::vector<Var>&>) Tensor
    compute(std::vector<Expr> shape, F f, std::string name,
            std::vector<std::string> axis_names = {}) {
  auto wrap = [f](const std::vector<Var>& v) -> Expr {
    if constexpr (std::is_invocable_v<F, Var>) {
      return v.size() == 1 ? Expr(f(v[0])) : Expr();
    } else if constexpr (std::is_invocable_v<F, Var, Var>) {
      return v.size() == 2 ? Expr(f(v[0], v[1])) : Expr();
    } else if constexpr (std::is_invocable_v<F, Var, Var, Var>) {
      return v.size() == 3 ? Expr(f(v[0], v[1], v[2])) : Expr();
    } else if constexpr (std::is_invocable_v<F, Var, Var, Var, Var>) {
      return v.size() == 4 ? Expr(f(v[0], v[1], v[2], v[3])) : Expr();
    } else if constexpr (std::is_invocable_v<F, Var, Var, Var, Var, Var>) {
      return v.size() == 5 ? Expr(f(v[0], v[1], v[2], v[3], v[4])) : Expr();
    } else {
      static_assert(std::is_invocable_v<F, Var, Var, Var, Var, Var, Var>,
                    "compute lambda must take 1-6 Vars or a std::vector<Var>");
      return v.size() == 6 ? Expr(f(v[0], v[1], v[2], v[3], v[4], v[5])) : Expr();
    }
  };
  return compute(std::move(shape), std::function<Expr(const std::vector<Var>&)>(wrap),
                 std::move(name), std::move(axis_names));
}

// A reduction axis over [dom.min, dom.min + dom.extent) (constants).
IterVar reduce_axis(Range dom, std::string name);
IterVar reduce_axis(std::int64_t extent, std::string name);

// Reductions over the given reduce axes (must be kReduce IterVars).
Expr sum(Expr source, std::vector<IterVar> axes);
Expr reduce_max(Expr source, std::vector<IterVar> axes);
Expr reduce_min(Expr source, std::vector<IterVar> axes);

// Element-wise helpers (re-exported from ir/op.h).
using ir::cast;
using ir::max;
using ir::min;
inline Expr if_then_else(Expr cond, Expr t, Expr f) {
  return ir::select(cond, t, f);
}

// All operations reachable from the outputs, producers before consumers.
std::vector<Tensor> topo_order(const std::vector<Tensor>& outputs);

}  // namespace tandem::te
