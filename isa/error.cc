// Internal-error reporting for TANDEM_ASSERT.
#include "isa/error.h"

#include <cstdio>
#include <cstdlib>

namespace tandem {

void internal_error(const char* file, int line, const char* cond, const std::string& msg) {
  std::fprintf(stderr, "tandem internal error at %s:%d: %s (%s)\n", file, line, cond, msg.c_str());
  std::abort();
}

}  // namespace tandem
