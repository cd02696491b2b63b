// manifest.json writer and strict parser (see driver/bundle_manifest.h and
// docs/test-vectors.md for the schema).
#include "driver/bundle_manifest.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // keeps the documented field order

std::string hex_addr(std::uint64_t a) {
  std::ostringstream s;
  s << "0x" << std::hex << a;
  return s.str();
}

ojson region_json(const BundleRegion& r, const FileEntry& hex) {
  ojson j;
  j["name"] = r.name;
  j["role"] = std::string(region_role_name(r.role));
  j["addr"] = r.addr;
  j["addr_hex"] = hex_addr(r.addr);
  j["size"] = r.data.size();
  j["elem_bytes"] = r.elem_bytes;
  j["sha256"] = r.sha256;
  j["bin"] = r.bin_file;
  j["hex"] = hex.file;
  j["hex_size"] = hex.bytes;
  j["hex_sha256"] = hex.sha256;
  return j;
}

// Typed access to manifest fields; errors name the JSON path.
class Fields {
 public:
  explicit Fields(const json& root) : root_(root) {}

  const json& at(const json& obj, const std::string& path, const std::string& key) const {
    TANDEM_CHECK(obj.is_object(), "manifest.json: " << (path.empty() ? "top level" : path)
                                                    << " must be a JSON object");
    const std::string p = path.empty() ? key : path + "." + key;
    TANDEM_CHECK(obj.contains(key), "manifest.json: field " << p << " is missing");
    return obj.at(key);
  }
  std::uint64_t u64(const json& obj, const std::string& path, const std::string& key) const {
    const json& v = at(obj, path, key);
    TANDEM_CHECK(v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0),
                 "manifest.json: field " << join(path, key) << " = " << v.dump()
                                         << " must be a non-negative integer");
    return v.get<std::uint64_t>();
  }
  std::uint32_t u32(const json& obj, const std::string& path, const std::string& key) const {
    const std::uint64_t v = u64(obj, path, key);
    TANDEM_CHECK(v <= 0xffffffffull,
                 "manifest.json: field " << join(path, key) << " = " << v << " exceeds 2^32-1");
    return static_cast<std::uint32_t>(v);
  }
  std::string str(const json& obj, const std::string& path, const std::string& key) const {
    const json& v = at(obj, path, key);
    TANDEM_CHECK(v.is_string(), "manifest.json: field " << join(path, key) << " = " << v.dump()
                                                        << " must be a string");
    return v.get<std::string>();
  }
  // A file name inside the bundle directory: no path separators, not "." or "..".
  std::string file(const json& obj, const std::string& path, const std::string& key) const {
    const std::string f = str(obj, path, key);
    TANDEM_CHECK(!f.empty() && f != "." && f != ".." && f.find('/') == std::string::npos &&
                     f.find('\\') == std::string::npos,
                 "manifest.json: field " << join(path, key) << " = '" << f
                                         << "' must be a plain file name inside the bundle");
    return f;
  }
  std::string sha(const json& obj, const std::string& path, const std::string& key) const {
    const std::string s = str(obj, path, key);
    bool ok = s.size() == 64;
    for (char c : s) ok = ok && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    TANDEM_CHECK(ok, "manifest.json: field " << join(path, key) << " = '" << s
                                             << "' must be 64 lower-case hex digits (SHA-256)");
    return s;
  }
  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  const json& root() const { return root_; }

 private:
  const json& root_;
};

void parse_region(const Fields& f, const json& j, const std::string& path, BundleRegion& r,
                  FileEntry& bin, FileEntry& hex) {
  r.name = f.str(j, path, "name");
  try {
    r.role = parse_region_role(f.str(j, path, "role"));
  } catch (const Error& e) {
    throw Error(Msg() << "manifest.json: field " << path << ".role: " << e.what());
  }
  r.addr = f.u64(j, path, "addr");
  r.elem_bytes = f.u32(j, path, "elem_bytes");
  r.sha256 = f.sha(j, path, "sha256");
  r.bin_file = f.file(j, path, "bin");
  r.hex_file = f.file(j, path, "hex");
  bin = {r.bin_file, f.u64(j, path, "size"), r.sha256};
  hex = {r.hex_file, f.u64(j, path, "hex_size"), f.sha(j, path, "hex_sha256")};
}

}  // namespace

void check_bundle_regions(const Bundle& b, const std::string& what) {
  const HwConfig& cfg = b.cfg;
  TANDEM_CHECK(b.insn_count > 0, what << ": the program has no instructions");
  TANDEM_CHECK(!b.expected.empty(), what << ": no expected output region");
  struct Span {
    std::uint64_t lo, hi;
    std::string name;
  };
  std::vector<Span> spans;
  std::set<std::string> names;
  int n_insn = 0, n_uop = 0;
  auto check = [&](const BundleRegion& r, bool expected) {
    TANDEM_CHECK(!r.name.empty(), what << ": a region has an empty name");
    TANDEM_CHECK(names.insert(r.name).second,
                 what << ": region name '" << r.name << "' is used twice");
    TANDEM_CHECK(!r.data.empty(), what << ": region '" << r.name << "' is empty");
    TANDEM_CHECK(r.elem_bytes == 1 || r.elem_bytes == 2 || r.elem_bytes == 4 || r.elem_bytes == 8 ||
                     r.elem_bytes == 16,
                 what << ": region '" << r.name << "': elem_bytes " << r.elem_bytes
                      << " must be 1, 2, 4, 8 or 16");
    const std::uint64_t limit = std::min<std::uint64_t>(cfg.dram_bytes, 1ull << 32);
    TANDEM_CHECK(r.addr <= limit && r.data.size() <= limit - r.addr,
                 what << ": region '" << r.name << "' [" << r.addr << ", " << r.addr + r.data.size()
                      << ") exceeds the addressable DRAM of " << limit << " bytes");
    TANDEM_CHECK(
        expected == (r.role == RegionRole::kOutput),
        what << ": region '" << r.name << "' has role " << region_role_name(r.role)
             << (expected ? " but is an expected output" : " but is loaded before the run"));
    if (r.role == RegionRole::kInstructions) {
      ++n_insn;
      TANDEM_CHECK(r.addr == b.insn_addr && r.data.size() == b.insn_count * isa::kInsnBytes,
                   what << ": instruction region at " << r.addr << " of " << r.data.size()
                        << " bytes, expected " << b.insn_count << " instructions at "
                        << b.insn_addr);
    }
    if (r.role == RegionRole::kUops) {
      ++n_uop;
      TANDEM_CHECK(r.addr == b.uop_addr && r.data.size() == b.uop_count * cfg.uop_elem_bytes,
                   what << ": micro-op region at " << r.addr << " of " << r.data.size()
                        << " bytes, expected " << b.uop_count << " micro-ops at " << b.uop_addr);
    }
    spans.push_back({r.addr, r.addr + r.data.size(), r.name});
  };
  for (const auto& r : b.loads) check(r, false);
  for (const auto& r : b.expected) check(r, true);
  TANDEM_CHECK(n_insn == 1, what << ": " << n_insn << " instruction regions, expected exactly 1");
  TANDEM_CHECK(n_uop == (b.uop_count > 0 ? 1 : 0),
               what << ": " << n_uop << " micro-op regions for " << b.uop_count << " micro-ops");
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.lo < y.lo; });
  for (std::size_t i = 1; i < spans.size(); ++i)
    TANDEM_CHECK(spans[i].lo >= spans[i - 1].hi,
                 what << ": regions '" << spans[i - 1].name << "' [" << spans[i - 1].lo << ", "
                      << spans[i - 1].hi << ") and '" << spans[i].name << "' [" << spans[i].lo
                      << ", " << spans[i].hi << ") overlap");
}

std::string manifest_text(const Bundle& b, const std::vector<FileEntry>& hex,
                          const FileEntry& region_list) {
  TANDEM_ASSERT(hex.size() == b.loads.size() + b.expected.size(), "hex entries mismatch");
  ojson j;
  j["format"] = kBundleFormatName;
  j["format_version"] = kBundleFormatVersion;
  j["command_line"] = b.command_line;
  j["workload"] = {
      {"kind", b.workload}, {"params", ojson::parse(b.workload_params_json)}, {"seed", b.seed}};
  j["config"] = ojson::parse(b.cfg.to_json_text());
  j["hex_format"] = {
      {"beat_bytes", b.cfg.mem_bytes_per_cycle},
      {"layout",
       "one line per beat of beat_bytes bytes, most significant byte first (the byte at the "
       "lowest address is the last two digits); line i is the beat at byte address "
       "floor(addr/beat_bytes)*beat_bytes + i*beat_bytes; bytes outside the region are 00"}};
  j["program"] = {{"insn_addr", b.insn_addr},   {"insn_addr_hex", hex_addr(b.insn_addr)},
                  {"insn_count", b.insn_count}, {"insn_bytes", isa::kInsnBytes},
                  {"uop_addr", b.uop_addr},     {"uop_addr_hex", hex_addr(b.uop_addr)},
                  {"uop_count", b.uop_count},   {"uop_bytes", b.cfg.uop_elem_bytes}};
  ojson regions = ojson::array(), expected = ojson::array();
  std::size_t k = 0;
  for (const auto& r : b.loads) regions.push_back(region_json(r, hex[k++]));
  for (const auto& r : b.expected) expected.push_back(region_json(r, hex[k++]));
  j["regions"] = regions;
  j["expected_output"] = expected;
  if (b.expected_cycles)
    j["expected_cycles"] = {{"value", *b.expected_cycles}, {"source", b.cycles_note}};
  else
    j["expected_cycles"] = {{"value", nullptr}, {"reason", b.cycles_note}};
  j["region_list"] = {
      {"file", region_list.file}, {"size", region_list.bytes}, {"sha256", region_list.sha256}};
  return j.dump(2) + "\n";
}

ParsedManifest parse_manifest(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(Msg() << "manifest.json: invalid JSON: " << e.what());
  }
  const Fields f(j);
  ParsedManifest pm;
  Bundle& b = pm.bundle;
  const std::string format = f.str(j, "", "format");
  TANDEM_CHECK(format == kBundleFormatName,
               "manifest.json: format '" << format << "' is not '" << kBundleFormatName << "'");
  const std::uint64_t version = f.u64(j, "", "format_version");
  TANDEM_CHECK(version == kBundleFormatVersion,
               "manifest.json: format_version " << version << " is not supported (this reader "
                                                << "reads version " << kBundleFormatVersion << ")");
  b.command_line = f.str(j, "", "command_line");
  const json& w = f.at(j, "", "workload");
  b.workload = f.str(w, "workload", "kind");
  const json& params = f.at(w, "workload", "params");
  TANDEM_CHECK(params.is_object(), "manifest.json: field workload.params must be a JSON object");
  b.workload_params_json = params.dump();
  b.seed = f.u64(w, "workload", "seed");
  const json& cfg = f.at(j, "", "config");
  TANDEM_CHECK(cfg.is_object(), "manifest.json: field config must be a JSON object");
  try {
    b.cfg = HwConfig::from_json_text(cfg.dump(), "manifest.json config");
  } catch (const Error& e) {
    throw Error(Msg() << "manifest.json: field config: " << e.what());
  }
  const json& hf = f.at(j, "", "hex_format");
  const std::uint32_t beat = f.u32(hf, "hex_format", "beat_bytes");
  TANDEM_CHECK(beat == b.cfg.mem_bytes_per_cycle, "manifest.json: hex_format.beat_bytes "
                                                      << beat << " differs from the config's "
                                                      << "mem_bytes_per_cycle "
                                                      << b.cfg.mem_bytes_per_cycle);
  const json& p = f.at(j, "", "program");
  b.insn_addr = f.u64(p, "program", "insn_addr");
  b.insn_count = f.u32(p, "program", "insn_count");
  b.uop_addr = f.u64(p, "program", "uop_addr");
  b.uop_count = f.u32(p, "program", "uop_count");
  auto regions = [&](const char* key, std::vector<BundleRegion>& out) {
    const json& arr = f.at(j, "", key);
    TANDEM_CHECK(arr.is_array(), "manifest.json: field " << key << " must be an array");
    for (std::size_t i = 0; i < arr.size(); ++i) {
      BundleRegion r;
      FileEntry bin, hex;
      parse_region(f, arr[i], std::string(key) + "[" + std::to_string(i) + "]", r, bin, hex);
      out.push_back(std::move(r));
      pm.bin.push_back(bin);
      pm.hex.push_back(hex);
    }
  };
  regions("regions", b.loads);
  regions("expected_output", b.expected);
  const json& ec = f.at(j, "", "expected_cycles");
  const json& v = f.at(ec, "expected_cycles", "value");
  if (v.is_null()) {
    b.cycles_note = f.str(ec, "expected_cycles", "reason");
  } else {
    b.expected_cycles = f.u64(ec, "expected_cycles", "value");
    b.cycles_note = f.str(ec, "expected_cycles", "source");
  }
  const json& rl = f.at(j, "", "region_list");
  pm.region_list = {f.file(rl, "region_list", "file"), f.u64(rl, "region_list", "size"),
                    f.sha(rl, "region_list", "sha256")};
  return pm;
}

}  // namespace tandem::driver
