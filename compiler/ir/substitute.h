// Variable substitution and small free-variable queries.
//
// substitute() replaces free occurrences of Vars (by node identity) with
// expressions; it does not descend into a binder that rebinds the same Var.
#pragma once

#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "compiler/ir/ir.h"

namespace tandem::ir {

using VarMap = std::unordered_map<const VarNode*, Expr>;
using VarSet = std::unordered_set<const VarNode*>;

Expr substitute(const Expr& e, const VarMap& map);
Stmt substitute(const Stmt& s, const VarMap& map);
// Replaces Loads/Stores of buffer `from` by buffer `to` (same indices).
Stmt replace_buffer(const Stmt& s, const Buffer& from, const Buffer& to);
Expr replace_buffer(const Expr& e, const Buffer& from, const Buffer& to);

// True when e mentions any of the vars / the var.
bool uses_var(const Expr& e, const VarSet& vars);
bool uses_var(const Expr& e, const VarNode* v);
bool uses_var(const Stmt& s, const VarNode* v);
// All Vars read in e (free or not), in first-occurrence order.
std::vector<Var> collect_vars(const Expr& e);

}  // namespace tandem::ir
