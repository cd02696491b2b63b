// Assembler: the text form (see isa/asm.h, isa/README.md) -> isa::Program.
//
// One pass over the lines. Each instruction's fields are range-checked with
// the codec's own check (check_field_value) as they are read, so the error
// points at the offending value; each finished instruction then goes through
// isa::validate(). Assumes the HwConfig is finalized.
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "isa/asm.h"
#include "isa/asm_lexer.h"
#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::isa {
namespace {

using asm_syntax::is_name_char;
using asm_syntax::Lexer;

// How the value of a key is written.
enum class Kind {
  kScalar,  // one number -> fields[0]
  kList,    // n comma-separated numbers -> fields[0..n)
  kRange,   // a:b -> fields[0], fields[1]
  kDram,    // a number, or @buffer[+offset] (relocation)
  kDeps,    // none | flag[,flag...]
};

struct KeySpec {
  const char* key;
  Kind kind;
  std::vector<const char*> fields;
  bool required;
};

const std::vector<KeySpec>& keys_of(Opcode op) {
  static const std::vector<KeySpec> mem = {
      {"sram", Kind::kScalar, {"sram_base"}, true},
      {"dram", Kind::kDram, {"dram_base"}, true},
      {"y", Kind::kScalar, {"y_size"}, true},
      {"x", Kind::kScalar, {"x_size"}, true},
      {"stride", Kind::kScalar, {"x_stride"}, true},
      {"pad", Kind::kList, {"y_pad_0", "y_pad_1", "x_pad_0", "x_pad_1"}, false},
      {"deps", Kind::kDeps, {}, false},
  };
  static const std::vector<KeySpec> gemm = {
      {"uops", Kind::kRange, {"uop_bgn", "uop_end"}, true},
      {"iter", Kind::kList, {"iter_out", "iter_in"}, true},
      {"dst", Kind::kList, {"dst_factor_out", "dst_factor_in"}, false},
      {"src", Kind::kList, {"src_factor_out", "src_factor_in"}, false},
      {"wgt", Kind::kList, {"wgt_factor_out", "wgt_factor_in"}, false},
      {"reset", Kind::kScalar, {"reset"}, false},
      {"deps", Kind::kDeps, {}, false},
  };
  static const std::vector<KeySpec> alu = {
      {"uops", Kind::kRange, {"uop_bgn", "uop_end"}, true},
      {"iter", Kind::kList, {"iter_out", "iter_in"}, true},
      {"dst", Kind::kList, {"dst_factor_out", "dst_factor_in"}, false},
      {"src", Kind::kList, {"src_factor_out", "src_factor_in"}, false},
      {"use_imm", Kind::kScalar, {"use_imm"}, false},
      {"imm", Kind::kScalar, {"imm"}, false},
      {"reset", Kind::kScalar, {"reset"}, false},
      {"deps", Kind::kDeps, {}, false},
  };
  static const std::vector<KeySpec> finish = {{"deps", Kind::kDeps, {}, false}};
  switch (op) {
    case Opcode::kLoad:
    case Opcode::kStore:
      return mem;
    case Opcode::kGemm:
      return gemm;
    case Opcode::kAlu:
      return alu;
    case Opcode::kFinish:
      return finish;
  }
  return finish;
}

class Parser : Lexer {
 public:
  Parser(const HwConfig& cfg, const std::string& text, const std::string& file)
      : Lexer(file), cfg_(cfg), codec_(cfg), text_(text) {}

  Program run() {
    std::size_t start = 0;
    while (start <= text_.size()) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string::npos) end = text_.size();
      set_line(std::string_view(text_).substr(start, end - start), lineno_ + 1);
      parse_line();
      start = end + 1;
    }
    finish_relocs();
    if (!have_config_) prog_.config_name = cfg_.name;
    try {
      prog_.check(cfg_);
    } catch (const Error& e) {
      throw Error(Msg() << file_ << ": " << e.what());
    }
    return std::move(prog_);
  }

 private:
  // ---- lines ----
  void parse_line() {
    if (at_end()) return;
    if (peek() == '.') return directive();
    if (in_uops_) return uop_line();
    instruction();
  }

  void directive() {
    const std::size_t at = pos_++;
    const std::string d = "." + word();
    if (d == ".config") {
      if (have_config_) fail_at(at, "duplicate .config directive");
      const std::size_t name_at = (skip_ws(), pos_);
      const std::string n = name("config name");
      if (n != cfg_.name)
        fail_at(name_at, Msg() << "program is for config '" << n
                               << "' but the assembler uses config '" << cfg_.name << "'");
      prog_.config_name = n;
      have_config_ = true;
      expect_line_end("the config name");
    } else if (d == ".buffer") {
      const std::size_t name_at = (skip_ws(), pos_);
      const std::string n = name("buffer name");
      if (n.empty()) fail_at(name_at, "buffer name must not be empty");
      if (buffer_names_.count(n)) fail_at(name_at, Msg() << "buffer '" << n << "' declared twice");
      expect_separator("the buffer name");
      const std::uint64_t bytes = unsigned_number("buffer size in bytes");
      buffer_names_.insert(n);
      prog_.buffers.push_back(DramBuffer{n, bytes});
      expect_line_end("the buffer size");
    } else if (d == ".reloc") {
      const std::size_t idx_at = (skip_ws(), pos_);
      const std::uint64_t idx = unsigned_number("instruction index");
      if (idx > std::numeric_limits<std::uint32_t>::max())
        fail_at(idx_at, Msg() << "instruction index " << idx << " exceeds 4294967295");
      skip_ws();
      if (peek() != '@')
        fail(Msg() << "expected '@buffer+offset' after the instruction index, found " << found());
      ++pos_;
      Relocation r = reloc_target(static_cast<std::uint32_t>(idx));
      pending_.push_back({prog_.relocs.size(), lineno_, idx_at});
      prog_.relocs.push_back(r);
      expect_line_end("the relocation");
    } else if (d == ".uops") {
      in_uops_ = true;
      expect_line_end(".uops");
    } else if (d == ".text") {
      in_uops_ = false;
      expect_line_end(".text");
    } else {
      fail_at(at, Msg() << "unknown directive '" << d
                        << "' (known: .config, .buffer, .reloc, .uops, .text)");
    }
  }

  // After '@': buffer[+offset]; the buffer must be declared (or be __uops).
  Relocation reloc_target(std::uint32_t insn) {
    const std::size_t at = pos_;
    const std::string buf = name("buffer name");
    if (buf != kUopBufferName && !buffer_names_.count(buf))
      fail_at(at, Msg() << "unknown buffer '" << buf << "' (declare it with .buffer before use)");
    std::uint64_t off = 0;
    if (peek() == '+') {
      ++pos_;
      off = unsigned_number("relocation offset");
    }
    return Relocation{insn, buf, off};
  }

  void uop_line() {
    const Codec& c = codec_;
    while (!at_end()) {
      expect('(', "to open a micro-op (dst, src, wgt)");
      Uop u;
      std::uint32_t* parts[3] = {&u.dst, &u.src, &u.wgt};
      for (int k = 0; k < 3; ++k) {
        if (k) expect(',', "between micro-op fields");
        skip_ws();
        const std::size_t at = pos_;
        const std::int64_t v = number("micro-op field");
        checked(at, c.uop_fields()[k], v, "micro-op");
        *parts[k] = static_cast<std::uint32_t>(v);
      }
      expect(')', "to close the micro-op");
      expect_separator("the micro-op");
      prog_.uops.push_back(u);
    }
  }

  void checked(std::size_t at, const Field& f, std::int64_t v, std::string_view what) const {
    try {
      check_field_value(f, v, what);
    } catch (const Error& e) {
      fail_at(at, e.what());
    }
  }

  const Field& field(Opcode op, std::string_view n) const {
    for (const Field& f : codec_.layout(op))
      if (f.name == n) return f;
    TANDEM_ASSERT(false, "field " << n << " not in the layout of " << opcode_name(op));
  }

  void instruction() {
    const std::size_t at = pos_;
    const std::string m = word();
    if (m.empty()) fail(Msg() << "expected an instruction mnemonic, found " << found());
    Instruction insn;
    if (m == "load")
      insn.opcode = Opcode::kLoad;
    else if (m == "store")
      insn.opcode = Opcode::kStore;
    else if (m == "gemm")
      insn.opcode = Opcode::kGemm;
    else if (m == "alu")
      insn.opcode = Opcode::kAlu;
    else if (m == "finish")
      insn.opcode = Opcode::kFinish;
    else
      fail_at(at,
              Msg() << "unknown mnemonic '" << m << "' (known: load, store, gemm, alu, finish)");
    expect_separator("the mnemonic");
    const Opcode op = insn.opcode;
    const auto index = static_cast<std::uint32_t>(prog_.insns.size());
    if (op == Opcode::kLoad || op == Opcode::kStore) {
      skip_ws();
      const std::size_t mt_at = pos_;
      const std::string mt = word();
      int found_mt = -1;
      for (int k = 0; k <= 4; ++k)
        if (mt == mem_type_name(static_cast<MemType>(k))) found_mt = k;
      if (found_mt < 0)
        fail_at(mt_at,
                Msg() << "unknown memory type '" << mt << "' (known: uop, wgt, inp, acc, out)");
      insn.mem_type = static_cast<MemType>(found_mt);
      expect_separator("the memory type");
    } else if (op == Opcode::kAlu) {
      skip_ws();
      const std::size_t ao_at = pos_;
      const std::string ao = word();
      int found_op = -1;
      for (int k = 0; k <= 4; ++k)
        if (ao == alu_op_name(static_cast<AluOp>(k))) found_op = k;
      if (found_op < 0)
        fail_at(ao_at, Msg() << "unknown ALU op '" << ao << "' (known: min, max, add, shr, mul)");
      insn.alu_op = static_cast<AluOp>(found_op);
      expect_separator("the ALU op");
    }

    const auto& specs = keys_of(op);
    std::map<std::string, std::size_t> seen;
    std::optional<Relocation> reloc;
    while (!at_end()) {
      const std::size_t key_at = pos_;
      std::string key;
      while (pos_ < line_.size() && (is_name_char(line_[pos_]) && line_[pos_] != '.' &&
                                     line_[pos_] != '-' && line_[pos_] != '/'))
        key += line_[pos_++];
      if (key.empty()) fail(Msg() << "expected key=value, found " << found());
      const KeySpec* spec = nullptr;
      for (const auto& s : specs)
        if (key == s.key) spec = &s;
      if (!spec) {
        std::string known;
        for (const auto& s : specs) known += (known.empty() ? "" : ", ") + std::string(s.key);
        fail_at(key_at,
                Msg() << "unknown key '" << key << "' for " << m << " (known: " << known << ")");
      }
      if (seen.count(key)) fail_at(key_at, Msg() << "duplicate key '" << key << "'");
      seen[key] = key_at;
      if (peek() != '=') fail(Msg() << "expected '=' after key '" << key << "', found " << found());
      ++pos_;
      value(insn, *spec, index, reloc);
      expect_separator(Msg() << "the value of '" << key << "'");
    }
    for (const auto& s : specs)
      if (s.required && !seen.count(s.key))
        fail_at(at, Msg() << m << ": missing required key '" << s.key << "'");
    if (op == Opcode::kAlu && !seen.count("use_imm")) insn.use_imm = seen.count("imm") > 0;
    try {
      validate(cfg_, insn, index);
    } catch (const Error& e) {
      fail_at(at, e.what());
    }
    prog_.insns.push_back(insn);
    if (reloc) prog_.relocs.push_back(*reloc);
  }

  void value(Instruction& insn, const KeySpec& s, std::uint32_t index,
             std::optional<Relocation>& reloc) {
    const Opcode op = insn.opcode;
    const std::string_view what = opcode_name(op);
    auto scalar = [&](const char* fname) {
      const std::size_t at = pos_;
      const std::int64_t v = number("value");
      checked(at, field(op, fname), v, what);
      set_field(insn, fname, v);
    };
    switch (s.kind) {
      case Kind::kScalar:
        scalar(s.fields[0]);
        return;
      case Kind::kList:
        for (std::size_t k = 0; k < s.fields.size(); ++k) {
          if (k && peek() != ',')
            fail(Msg() << "expected ',' and " << s.fields.size() << " values for '" << s.key
                       << "', found " << found());
          if (k) ++pos_;
          scalar(s.fields[k]);
        }
        return;
      case Kind::kRange:
        scalar(s.fields[0]);
        if (peek() != ':')
          fail(Msg() << "expected ':' in '" << s.key << "=begin:end', found " << found());
        ++pos_;
        scalar(s.fields[1]);
        return;
      case Kind::kDram:
        if (peek() == '@') {
          ++pos_;
          reloc = reloc_target(index);
        } else {
          scalar("dram_base");
        }
        return;
      case Kind::kDeps:
        deps(insn);
        return;
    }
  }

  void deps(Instruction& insn) {
    std::size_t at = pos_;
    std::string w = word();
    if (w == "none") return;
    std::set<std::string> got;
    while (true) {
      bool* flag = w == "pop_prev"    ? &insn.dep.pop_prev
                   : w == "pop_next"  ? &insn.dep.pop_next
                   : w == "push_prev" ? &insn.dep.push_prev
                   : w == "push_next" ? &insn.dep.push_next
                                      : nullptr;
      if (!flag)
        fail_at(at, Msg() << "unknown dependency flag '" << w
                          << "' (known: none, pop_prev, pop_next, push_prev, push_next)");
      if (*flag) fail_at(at, Msg() << "dependency flag '" << w << "' given twice");
      *flag = true;
      if (peek() != ',') return;
      ++pos_;
      at = pos_;
      w = word();
    }
  }

  // Checks .reloc directives (which may refer to later instructions).
  void finish_relocs() {
    for (const auto& p : pending_) {
      const Relocation& r = prog_.relocs[p.reloc];
      lineno_ = p.line;
      if (r.insn >= prog_.insns.size())
        fail_at(p.col, Msg() << "relocation against instruction " << r.insn
                             << " but the program has " << prog_.insns.size() << " instructions");
      const Opcode op = prog_.insns[r.insn].opcode;
      if (op != Opcode::kLoad && op != Opcode::kStore)
        fail_at(p.col, Msg() << "relocation against instruction " << r.insn << " which is "
                             << opcode_name(op) << ", not LOAD/STORE");
    }
  }

  struct PendingReloc {
    std::size_t reloc;
    int line;
    std::size_t col;
  };

  const HwConfig& cfg_;
  const Codec codec_;
  const std::string& text_;
  bool in_uops_ = false;
  bool have_config_ = false;
  std::set<std::string> buffer_names_;
  std::vector<PendingReloc> pending_;
  Program prog_;
};

// Finds the first .config directive without assembling anything.
class ConfigScanner : Lexer {
 public:
  explicit ConfigScanner(const std::string& text) : Lexer(kFile), text_(text) {}
  std::optional<std::string> scan() {
    std::size_t start = 0;
    int lineno = 0;
    while (start < text_.size()) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string::npos) end = text_.size();
      set_line(std::string_view(text_).substr(start, end - start), ++lineno);
      start = end + 1;
      if (at_end() || peek() != '.') continue;
      ++pos_;
      if (word() != "config") continue;
      try {
        return name("config name");
      } catch (const Error&) {
        return std::nullopt;  // the assembler reports it with its location
      }
    }
    return std::nullopt;
  }

 private:
  static inline const std::string kFile = "<text>";
  const std::string& text_;
};

}  // namespace

Program assemble(const HwConfig& cfg, const std::string& text, const std::string& filename) {
  return Parser(cfg, text, filename).run();
}

std::optional<std::string> config_directive(const std::string& text) {
  return ConfigScanner(text).scan();
}

}  // namespace tandem::isa
