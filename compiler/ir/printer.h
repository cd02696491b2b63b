// Readable text form of the IR (used by --dump-ir, error messages and the
// before/after tests). Expressions print with minimal parentheses by
// precedence (|| < && < comparisons < shifts < + - < * / %); "/" and "%"
// are floor division/modulo. Statements print one per line, two-space
// indentation:
//
//   for (i, 0, 16) {                     (kind shown when not serial:
//     for (j, 0, 4) vthread {             "for (v, min, extent) unrolled {")
//       C[i*16 + j] = C[i*16 + j] + A[i]
//     }
//   }
//   allocate A.inp: int8[64] in inp {
//   attr dma_copy = 0 "A.inp.i0" {       ("attr key = value "text" {")
//   gemm_update<C:acc, A:inp, B:wgt>(o0, o1, o2)   (calls with buffers)
//
// Vars print by name (names are expected to be unique within a function).
#pragma once

#include <ostream>
#include <string>

#include "compiler/ir/ir.h"

namespace tandem::ir {

std::string to_string(const Expr& e);
std::string to_string(const Stmt& s);
std::ostream& operator<<(std::ostream& os, const Expr& e);
std::ostream& operator<<(std::ostream& os, const Stmt& s);

}  // namespace tandem::ir
