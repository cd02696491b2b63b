// Program serialization and consistency checks.
#include "isa/program.h"

#include <cstring>
#include <fstream>
#include <set>

#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::isa {
namespace {

constexpr char kMagic[8] = {'T', 'N', 'D', 'M', 'P', 'R', 'G', '1'};

class Writer {
 public:
  void u32(std::uint32_t v) { raw(&v, 4); }
  void u64(std::uint64_t v) { raw(&v, 8); }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void raw(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  std::vector<std::uint8_t> out;
};

class Reader {
 public:
  explicit Reader(const std::vector<std::uint8_t>& b) : b_(b) {}
  void raw(void* p, std::size_t n, const char* what) {
    TANDEM_CHECK(pos_ + n <= b_.size(), "malformed program: truncated at byte "
                                            << pos_ << " while reading " << what << " (" << n
                                            << " bytes needed, " << b_.size() - pos_ << " left)");
    std::memcpy(p, b_.data() + pos_, n);
    pos_ += n;
  }
  std::uint32_t u32(const char* what) {
    std::uint32_t v;
    raw(&v, 4, what);
    return v;
  }
  std::uint64_t u64(const char* what) {
    std::uint64_t v;
    raw(&v, 8, what);
    return v;
  }
  std::string str(const char* what) {
    const std::uint32_t n = u32(what);
    TANDEM_CHECK(n <= 4096, "malformed program: string length " << n << " at byte " << pos_ - 4
                                                                << " exceeds 4096");
    std::string s(n, '\0');
    raw(s.data(), n, what);
    return s;
  }
  std::size_t pos() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }

 private:
  const std::vector<std::uint8_t>& b_;
  std::size_t pos_ = 0;
};

}  // namespace

const DramBuffer* Program::find_buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::uint8_t> Program::serialize(const HwConfig& cfg) const {
  const Codec codec(cfg);
  Writer w;
  w.raw(kMagic, 8);
  w.str(config_name);
  w.u32(static_cast<std::uint32_t>(insns.size()));
  for (const auto& i : insns) {
    const Word128 word = codec.encode(i);
    w.u64(word.lo);
    w.u64(word.hi);
  }
  w.u32(static_cast<std::uint32_t>(uops.size()));
  for (const auto& u : uops) w.u32(codec.encode_uop(u));
  w.u32(static_cast<std::uint32_t>(buffers.size()));
  for (const auto& b : buffers) {
    w.str(b.name);
    w.u64(b.bytes);
  }
  w.u32(static_cast<std::uint32_t>(relocs.size()));
  for (const auto& r : relocs) {
    w.u32(r.insn);
    w.str(r.buffer);
    w.u64(r.elem_offset);
  }
  return w.out;
}

Program Program::deserialize(const HwConfig& cfg, const std::vector<std::uint8_t>& bytes) {
  const Codec codec(cfg);
  Reader r(bytes);
  char magic[8];
  r.raw(magic, 8, "magic");
  TANDEM_CHECK(std::memcmp(magic, kMagic, 8) == 0,
               "malformed program: bad magic at byte 0 (expected TNDMPRG1)");
  Program p;
  p.config_name = r.str("config name");
  TANDEM_CHECK(p.config_name == cfg.name, "program was built for config '"
                                              << p.config_name << "' but the device config is '"
                                              << cfg.name << "'");
  const std::uint32_t ni = r.u32("instruction count");
  TANDEM_CHECK(static_cast<std::uint64_t>(ni) * 16 <= r.left(),
               "malformed program: instruction count " << ni << " needs " << ni * 16ull
                                                       << " bytes but only " << r.left()
                                                       << " remain");
  p.insns.reserve(ni);
  for (std::uint32_t k = 0; k < ni; ++k) {
    Word128 word;
    const std::size_t at = r.pos();
    word.lo = r.u64("instruction");
    word.hi = r.u64("instruction");
    try {
      p.insns.push_back(codec.decode(word));
    } catch (const Error& e) {
      throw Error(Msg() << "instruction " << k << " at byte " << at << ": " << e.what());
    }
  }
  const std::uint32_t nu = r.u32("micro-op count");
  TANDEM_CHECK(static_cast<std::uint64_t>(nu) * 4 <= r.left(),
               "malformed program: micro-op count " << nu << " exceeds the remaining "
                                                    << r.left() << " bytes");
  p.uops.reserve(nu);
  for (std::uint32_t k = 0; k < nu; ++k) {
    const std::size_t at = r.pos();
    try {
      p.uops.push_back(codec.decode_uop(r.u32("micro-op")));
    } catch (const Error& e) {
      throw Error(Msg() << "micro-op " << k << " at byte " << at << ": " << e.what());
    }
  }
  const std::uint32_t nb = r.u32("buffer count");
  TANDEM_CHECK(nb <= 65536, "malformed program: buffer count " << nb << " exceeds 65536");
  for (std::uint32_t k = 0; k < nb; ++k) {
    DramBuffer b;
    b.name = r.str("buffer name");
    b.bytes = r.u64("buffer size");
    p.buffers.push_back(b);
  }
  const std::uint32_t nr = r.u32("relocation count");
  TANDEM_CHECK(nr <= ni, "malformed program: " << nr << " relocations for " << ni
                                               << " instructions");
  for (std::uint32_t k = 0; k < nr; ++k) {
    Relocation rel;
    rel.insn = r.u32("relocation");
    rel.buffer = r.str("relocation buffer");
    rel.elem_offset = r.u64("relocation offset");
    p.relocs.push_back(rel);
  }
  TANDEM_CHECK(r.left() == 0, "malformed program: " << r.left() << " trailing bytes at byte "
                                                     << r.pos());
  p.check(cfg);
  return p;
}

void Program::save(const HwConfig& cfg, const std::string& path) const {
  const auto bytes = serialize(cfg);
  std::ofstream out(path, std::ios::binary);
  TANDEM_CHECK(out.good(), "cannot write program file '" << path << "'");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Program Program::load(const HwConfig& cfg, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  TANDEM_CHECK(in.good(), "cannot open program file '" << path << "'");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  try {
    return deserialize(cfg, bytes);
  } catch (const Error& e) {
    throw Error(Msg() << path << ": " << e.what());
  }
}

void Program::check(const HwConfig& cfg) const {
  for (std::size_t k = 0; k < insns.size(); ++k) validate(cfg, insns[k], k);
  std::set<std::string> names;
  for (const auto& b : buffers) {
    TANDEM_CHECK(!b.name.empty(), "program buffer with an empty name");
    TANDEM_CHECK(names.insert(b.name).second, "program buffer '" << b.name << "' declared twice");
  }
  for (const auto& r : relocs) {
    TANDEM_CHECK(r.insn < insns.size(), "relocation against instruction "
                                            << r.insn << " but the program has " << insns.size()
                                            << " instructions");
    const auto op = insns[r.insn].opcode;
    TANDEM_CHECK(op == Opcode::kLoad || op == Opcode::kStore,
                 "relocation against instruction " << r.insn << " which is "
                                                   << opcode_name(op) << ", not LOAD/STORE");
    TANDEM_CHECK(r.buffer == kUopBufferName || names.count(r.buffer),
                 "relocation of instruction " << r.insn << " names unknown buffer '" << r.buffer
                                              << "'");
  }
}

}  // namespace tandem::isa
