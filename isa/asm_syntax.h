// Lexical rules of the assembly text form shared by the assembler and the
// disassembler (internal to isa/asm_*.cc and isa/disasm.cc).
//
// A name (buffer or config) is written bare when it is a plain identifier
// [A-Za-z_][A-Za-z0-9_.-/]* and otherwise as a double-quoted string with the
// escapes \\ \" \n \t and \xHH (exactly two hex digits) for any other byte
// outside printable ASCII, so every byte string round-trips.
#pragma once

#include <string>
#include <string_view>

namespace tandem::isa::asm_syntax {

inline bool is_name_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

inline bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '/';
}

inline bool is_plain_name(std::string_view s) {
  if (s.empty() || !is_name_start(s[0])) return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return true;
}

// The text form of a name: bare when plain, quoted and escaped otherwise.
inline std::string quote_name(std::string_view s) {
  if (is_plain_name(s)) return std::string(s);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\' || c == '"') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

}  // namespace tandem::isa::asm_syntax
