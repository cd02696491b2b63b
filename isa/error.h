// Error handling for every Tandem layer.
//
// tandem::Error is for mistakes a user can make (bad config, bad shape,
// malformed program, deadlocked tokens, out-of-range index). Its message names
// the thing, the value and the limit. TANDEM_ASSERT is for internal invariants
// only: a failure there is a bug in Tandem, never in the user's input.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace tandem {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Builds an Error message with stream syntax: throw Error(Msg() << "x=" << x).
class Msg {
 public:
  template <typename T>
  Msg& operator<<(const T& v) {
    s_ << v;
    return *this;
  }
  operator std::string() const { return s_.str(); }
  std::string str() const { return s_.str(); }

 private:
  std::ostringstream s_;
};

[[noreturn]] void internal_error(const char* file, int line, const char* cond, const std::string& msg);

}  // namespace tandem

// User-facing check: throws tandem::Error with the streamed message.
#define TANDEM_CHECK(cond, msg_stream)                           \
  do {                                                           \
    if (!(cond)) throw ::tandem::Error(::tandem::Msg() << msg_stream); \
  } while (0)

// Internal invariant: a failure is a Tandem bug.
#define TANDEM_ASSERT(cond, msg_stream)                                                   \
  do {                                                                                    \
    if (!(cond)) ::tandem::internal_error(__FILE__, __LINE__, #cond, ::tandem::Msg() << msg_stream); \
  } while (0)
