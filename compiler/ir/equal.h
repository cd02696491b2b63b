// Structural equality of IR trees.
//
// Two trees are equal when they have the same node kinds, dtypes, constants,
// names of calls/attrs, the same Buffer nodes, and the same Var nodes, except
// that variables BOUND inside the compared trees (For/LetStmt/Reduce vars) are
// matched positionally (alpha-equivalence): `for (i..) A[i]` equals
// `for (j..) A[j]`. Free variables must be the same Var node.
#pragma once

#include "compiler/ir/ir.h"

namespace tandem::ir {

bool equal(const Expr& a, const Expr& b);
bool equal(const Stmt& a, const Stmt& b);

}  // namespace tandem::ir
