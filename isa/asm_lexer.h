// Line cursor with the lexical rules of the assembly text form (internal to
// the assembler, isa/asm_parse.cc).
//
// Positions are byte offsets into the current line; errors are tandem::Error
// "file:line:col: message" with a 1-based column. Numbers are decimal or 0x
// hex with an optional '-'; range checks against fields are the caller's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "isa/asm_syntax.h"
#include "isa/error.h"

namespace tandem::isa::asm_syntax {

// A character for a message: 'c' when printable, "byte 0xHH" otherwise.
std::string printable(char c);

// A cursor over one line of text. Subclasses feed lines with set_line().
class Lexer {
 public:
  explicit Lexer(const std::string& file) : file_(file) {}

 protected:
  void set_line(std::string_view line, int lineno) {
    line_ = line;
    if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
    lineno_ = lineno;
    pos_ = 0;
  }

  // ---- errors and the cursor over the current line ----
  [[noreturn]] void fail_at(std::size_t pos, const std::string& msg) const {
    throw Error(Msg() << file_ << ":" << lineno_ << ":" << pos + 1 << ": " << msg);
  }
  [[noreturn]] void fail(const std::string& msg) const { fail_at(pos_, msg); }

  char peek() const { return pos_ < line_.size() ? line_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t')) ++pos_;
  }
  bool at_end() {
    skip_ws();
    return pos_ >= line_.size() || line_[pos_] == '#';
  }
  // What the cursor points at, for messages.
  std::string found() const {
    if (pos_ >= line_.size() || line_[pos_] == '#') return "end of line";
    return printable(line_[pos_]);
  }
  void expect(char c, const char* what) {
    skip_ws();
    if (peek() != c) fail(Msg() << "expected '" << c << "' " << what << ", found " << found());
    ++pos_;
  }
  // After a complete item: only whitespace, a comment or the line end may follow.
  void expect_separator(const std::string& after) {
    if (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t' && line_[pos_] != '#')
      fail(Msg() << "unexpected " << found() << " after " << after);
  }
  void expect_line_end(const std::string& after) {
    if (!at_end()) fail(Msg() << "unexpected " << found() << " after " << after);
  }
  std::string word() {
    std::string w;
    while (pos_ < line_.size() && is_name_char(line_[pos_])) w += line_[pos_++];
    return w;
  }

  // Integer: optional '-', decimal or 0x hex. Range checks are the caller's.
  std::int64_t number(const char* what);
  std::uint64_t unsigned_number(const char* what);
  std::uint64_t digits(std::size_t at, const char* what);

  // A buffer or config name: a plain identifier or a quoted string.
  std::string name(const char* what);
  std::string quoted(const char* what);

  const std::string& file_;
  std::string_view line_;
  int lineno_ = 0;
  std::size_t pos_ = 0;
};

}  // namespace tandem::isa::asm_syntax
