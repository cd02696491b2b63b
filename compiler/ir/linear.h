// Canonical linear forms: sum of coeff * atom + constant.
//
// An atom is any non-linear sub-expression (Var, Load, FloorDiv, Min, a
// product of two non-constants, ...). Atoms are kept in a canonical total
// order: variables first by id, then other atoms by a structural order
// (compare_expr), and equal atoms are merged. Coefficient arithmetic wraps to
// the form's dtype, which is exact for + - * in two's complement.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/ir.h"

namespace tandem::ir {

struct LinearTerm {
  Expr atom;
  std::int64_t coeff;
};

struct LinearForm {
  DType dtype = DType::kInt32;
  std::vector<LinearTerm> terms;  // canonical order, no zero coefficients
  std::int64_t constant = 0;

  bool is_const() const { return terms.empty(); }
  // Coefficient of a variable (0 when absent).
  std::int64_t coeff_of(const VarNode* v) const;
};

// Structural total order on expressions (deterministic: Vars by id, Buffers
// by id, never by pointer). Returns <0, 0, >0.
int compare_expr(const Expr& a, const Expr& b);

// Decomposes e through Add, Sub and Mul-by-constant nodes.
LinearForm to_linear(const Expr& e);
// Rebuilds "t0*c0 + t1*c1 - t2*c2 + k" (positive terms first, constant last).
Expr from_linear(const LinearForm& f);

LinearForm add(const LinearForm& a, const LinearForm& b);
LinearForm scale(const LinearForm& a, std::int64_t k);
LinearForm sub(const LinearForm& a, const LinearForm& b);

}  // namespace tandem::ir
