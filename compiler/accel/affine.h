// Affine index forms and a small integer evaluator for the accelerator passes.
//
// Affine: constant + sum(coeff * var), the shape every DMA address, micro-op
// index and loop bound takes after lowering. as_affine() accepts exactly the
// expressions ir::to_linear() reduces to Var atoms (anything else, e.g. a
// floordiv or a load, gives nullopt). Env binds loop variables to values while
// the code generator walks the unrolled outer loops; eval() evaluates any
// integer/bool expression over it (tandem::Error for an unbound variable or a
// construct that has no value, such as a Load).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/ir.h"

namespace tandem::accel {

struct AffineTerm {
  ir::Var var;
  std::int64_t coeff = 0;
};

struct Affine {
  std::int64_t constant = 0;
  std::vector<AffineTerm> terms;  // no zero coefficients, at most one per var

  std::int64_t coeff(const ir::VarNode* v) const;
  bool uses(const ir::VarNode* v) const { return coeff(v) != 0; }
  // Substitutes v := value.
  Affine bind(const ir::VarNode* v, std::int64_t value) const;
  Affine add(const Affine& o) const;
  Affine scaled(std::int64_t k) const;
  // Removes the term of v (same as bind(v, 0)).
  Affine without(const ir::VarNode* v) const { return bind(v, 0); }
  // All coefficients and the constant divisible by k.
  bool divisible_by(std::int64_t k) const;
  Affine divided_by(std::int64_t k) const;  // requires divisible_by(k)
  ir::Expr to_expr() const;
  bool operator==(const Affine& o) const;
};

std::optional<Affine> as_affine(const ir::Expr& e);

// Variable bindings of the code generator: a small stack (loop depth is small).
class Env {
 public:
  void push(const ir::VarNode* v, std::int64_t value) { vals_.emplace_back(v, value); }
  void pop() { vals_.pop_back(); }
  void set_top(std::int64_t value) { vals_.back().second = value; }
  const std::int64_t* find(const ir::VarNode* v) const {
    for (auto it = vals_.rbegin(); it != vals_.rend(); ++it)
      if (it->first == v) return &it->second;
    return nullptr;
  }
  std::int64_t get(const ir::VarNode* v) const;

 private:
  std::vector<std::pair<const ir::VarNode*, std::int64_t>> vals_;
};

std::int64_t eval(const Affine& a, const Env& env);
std::int64_t eval(const ir::Expr& e, const Env& env);

// An expression compiled for repeated evaluation: affine when possible.
class CompiledExpr {
 public:
  CompiledExpr() = default;
  explicit CompiledExpr(const ir::Expr& e);
  std::int64_t operator()(const Env& env) const {
    return affine_ ? eval(*affine_, env) : eval(expr_, env);
  }
  const std::optional<Affine>& affine() const { return affine_; }
  const ir::Expr& expr() const { return expr_; }

 private:
  ir::Expr expr_;
  std::optional<Affine> affine_;
};

}  // namespace tandem::accel
