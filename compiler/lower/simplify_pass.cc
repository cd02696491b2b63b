// The simplifier as a pass (loop ranges are bound while walking).
#include "compiler/ir/simplify.h"
#include "compiler/lower/passes.h"

namespace tandem::pass {

ir::Stmt simplify_pass(const ir::Stmt& body) {
  return ir::simplify(body);
}

}  // namespace tandem::pass
