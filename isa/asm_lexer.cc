// Number, name and quoted-string lexing of the assembly text form.
#include "isa/asm_lexer.h"

#include <limits>

namespace tandem::isa::asm_syntax {

std::string printable(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

std::int64_t Lexer::number(const char* what) {
  skip_ws();
  const std::size_t at = pos_;
  bool neg = false;
  if (peek() == '-') {
    neg = true;
    ++pos_;
  }
  const std::uint64_t mag = digits(at, what);
  const std::uint64_t lim = neg ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (mag > lim)
    fail_at(at,
            Msg() << what << " " << line_.substr(at, pos_ - at) << " is out of the 64-bit range");
  return neg ? static_cast<std::int64_t>(0 - mag) : static_cast<std::int64_t>(mag);
}

std::uint64_t Lexer::unsigned_number(const char* what) {
  skip_ws();
  return digits(pos_, what);
}

std::uint64_t Lexer::digits(std::size_t at, const char* what) {
  int base = 10;
  if (peek() == '0' && pos_ + 1 < line_.size() &&
      (line_[pos_ + 1] == 'x' || line_[pos_ + 1] == 'X')) {
    base = 16;
    pos_ += 2;
  }
  const std::size_t first = pos_;
  std::uint64_t v = 0;
  bool overflow = false;
  for (; pos_ < line_.size(); ++pos_) {
    const char c = line_[pos_];
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      break;
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / base) overflow = true;
    v = v * base + d;
  }
  if (pos_ == first) {
    pos_ = first;
    fail(Msg() << "expected " << what << " (a decimal or 0x hex number), found " << found());
  }
  if (pos_ < line_.size() && (is_name_char(line_[pos_]))) {
    fail(Msg() << "bad number: unexpected " << found() << " in " << what);
  }
  if (overflow)
    fail_at(at,
            Msg() << what << " " << line_.substr(at, pos_ - at) << " is out of the 64-bit range");
  return v;
}

std::string Lexer::name(const char* what) {
  skip_ws();
  if (peek() == '"') return quoted(what);
  if (!is_name_start(peek()))
    fail(Msg() << "expected " << what << " (an identifier or a quoted string), found " << found());
  return word();
}

std::string Lexer::quoted(const char* what) {
  const std::size_t open = pos_++;
  std::string s;
  while (true) {
    if (pos_ >= line_.size()) fail_at(open, Msg() << "unterminated quoted " << what);
    const char c = line_[pos_++];
    if (c == '"') return s;
    if (c != '\\') {
      s += c;
      continue;
    }
    const char e = peek();
    ++pos_;
    if (e == '\\' || e == '"')
      s += e;
    else if (e == 'n')
      s += '\n';
    else if (e == 't')
      s += '\t';
    else if (e == 'x') {
      int v = 0;
      for (int k = 0; k < 2; ++k, ++pos_) {
        const char h = peek();
        int d = h >= '0' && h <= '9'   ? h - '0'
                : h >= 'a' && h <= 'f' ? h - 'a' + 10
                : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                       : -1;
        if (d < 0)
          fail(Msg() << "bad \\x escape in quoted " << what << ": expected a hex digit, found "
                     << found());
        v = v * 16 + d;
      }
      s += static_cast<char>(v);
    } else {
      --pos_;
      fail(Msg() << "unknown escape in quoted " << what << ": " << found());
    }
  }
}

}  // namespace tandem::isa::asm_syntax
