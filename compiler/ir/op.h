// Expression-building operators and helpers over ir::Expr.
//
// Operators build raw nodes (no simplification). An integer literal on one
// side takes the dtype of the other side; otherwise both sides must have the
// same dtype (tandem::Error naming the operator and both dtypes).
// "/" and "%" are FLOOR division / modulo; ">>" is arithmetic.
#pragma once

#include "compiler/ir/ir.h"

namespace tandem::ir {

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator-(Expr a);  // 0 - a
Expr operator*(Expr a, Expr b);
Expr operator/(Expr a, Expr b);  // floordiv
Expr operator%(Expr a, Expr b);  // floormod
Expr operator<<(Expr a, Expr b);
Expr operator>>(Expr a, Expr b);
Expr operator==(Expr a, Expr b);
Expr operator!=(Expr a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);
Expr operator&&(Expr a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator!(Expr a);

Expr floordiv(Expr a, Expr b);
Expr floormod(Expr a, Expr b);
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);
Expr select(Expr cond, Expr t, Expr f);
Expr cast(DType d, Expr v);  // no-op when v already has dtype d
Expr load(Buffer b, std::vector<Expr> indices);
Expr call(DType d, std::string name, std::vector<Expr> args, std::vector<Buffer> buffers = {});

// Statement helpers.
Stmt store(Buffer b, std::vector<Expr> indices, Expr value);
Stmt for_loop(Var v, Expr min, Expr extent, Stmt body, ForKind kind = ForKind::kSerial);
Stmt seq(std::vector<Stmt> stmts);
Stmt evaluate(Expr e);

}  // namespace tandem::ir
