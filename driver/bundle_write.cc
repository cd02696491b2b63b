// Test-vector bundle writer: checks the regions, then writes the .bin/.hex
// files, regions.txt and manifest.json (last) into a directory. See
// driver/bundle.h and docs/test-vectors.md.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "driver/bundle.h"
#include "driver/bundle_manifest.h"
#include "driver/sha256.h"
#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const void* data, std::size_t bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  TANDEM_CHECK(out.good(), "cannot create bundle file '" << path.string() << "'");
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  out.close();
  TANDEM_CHECK(!out.fail(), "cannot write bundle file '" << path.string() << "'");
}

std::string sanitize(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  while (!s.empty() && s.front() == '_') s.erase(s.begin());
  return s.empty() ? "region" : s;
}

// File stem for a region, unique within the bundle.
std::string stem_for(const BundleRegion& r, bool expected, std::set<std::string>& used) {
  std::string base;
  if (r.role == RegionRole::kInstructions)
    base = "insns";
  else if (r.role == RegionRole::kUops)
    base = "uops";
  else
    base = (expected ? "expected_" : "in_") + sanitize(r.name);
  std::string s = base;
  for (int i = 2; used.count(s); ++i) s = base + "_" + std::to_string(i);
  used.insert(s);
  return s;
}

}  // namespace

void write_bundle(const Bundle& in, const std::string& dir) {
  check_bundle_regions(in, "bundle");
  Bundle b = in;
  const fs::path root(dir);
  std::error_code ec;
  fs::create_directories(root, ec);
  TANDEM_CHECK(!ec && fs::is_directory(root),
               "cannot create bundle directory '" << dir << "': " << ec.message());
  std::set<std::string> used;
  std::vector<FileEntry> hex_entries;
  auto emit = [&](BundleRegion& r, bool expected) {
    const std::string stem = stem_for(r, expected, used);
    r.bin_file = stem + ".bin";
    r.hex_file = stem + ".hex";
    r.sha256 = sha256_hex(r.data);
    write_file(root / r.bin_file, r.data.data(), r.data.size());
    const std::string hex = encode_hex(r.data, r.addr, b.cfg.mem_bytes_per_cycle);
    write_file(root / r.hex_file, hex.data(), hex.size());
    hex_entries.push_back({r.hex_file, hex.size(), sha256_hex(hex.data(), hex.size())});
  };
  for (auto& r : b.loads) emit(r, false);
  for (auto& r : b.expected) emit(r, true);
  const std::string list = region_list_text(b);
  write_file(root / kBundleRegionList, list.data(), list.size());
  const FileEntry list_entry{kBundleRegionList, list.size(), sha256_hex(list.data(), list.size())};
  const std::string manifest = manifest_text(b, hex_entries, list_entry);
  write_file(root / kBundleManifest, manifest.data(), manifest.size());
}

}  // namespace tandem::driver
