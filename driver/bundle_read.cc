// Test-vector bundle reader: parses manifest.json, then verifies every file
// (exists, size, SHA-256), that each .hex file encodes its .bin, that
// regions.txt matches the manifest, and the regions' consistency. See
// driver/bundle.h.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "driver/bundle.h"
#include "driver/bundle_manifest.h"
#include "driver/sha256.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

namespace fs = std::filesystem;

// Largest file the reader accepts (a DRAM image cannot exceed 4 GiB of
// address space; its hex form is about 2.1x larger).
constexpr std::uint64_t kMaxFileBytes = 10ull << 30;

std::string read_file(const fs::path& path, const std::string& label) {
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  TANDEM_CHECK(exists && !ec, "bundle file " << label << " is missing (" << path.string() << ")");
  TANDEM_CHECK(fs::is_regular_file(path, ec),
               "bundle file " << label << " is not a regular file (" << path.string() << ")");
  const std::uint64_t size = fs::file_size(path, ec);
  TANDEM_CHECK(!ec && size <= kMaxFileBytes,
               "bundle file " << label << ": size " << size << " exceeds " << kMaxFileBytes);
  std::ifstream in(path, std::ios::binary);
  TANDEM_CHECK(in.good(), "bundle file " << label << " cannot be opened (" << path.string() << ")");
  std::string s(size, '\0');
  in.read(s.data(), static_cast<std::streamsize>(size));
  TANDEM_CHECK(static_cast<std::uint64_t>(in.gcount()) == size,
               "bundle file " << label << ": read " << in.gcount() << " of " << size << " bytes");
  return s;
}

// Reads a file and checks its size and SHA-256 against the manifest.
std::string verified(const fs::path& root, const FileEntry& e) {
  const std::string data = read_file(root / e.file, e.file);
  TANDEM_CHECK(data.size() == e.bytes,
               "bundle file " << e.file << ": size " << data.size() << " bytes, expected "
                              << e.bytes << " bytes (manifest.json)"
                              << (data.size() < e.bytes ? ": truncated" : ""));
  const std::string sha = sha256_hex(data.data(), data.size());
  TANDEM_CHECK(sha == e.sha256, "bundle file " << e.file << ": SHA-256 " << sha << ", expected "
                                               << e.sha256 << " (manifest.json): file corrupted");
  return data;
}

}  // namespace

Bundle read_bundle(const std::string& dir) {
  const fs::path root(dir);
  std::error_code ec;
  TANDEM_CHECK(fs::is_directory(root, ec), "bundle directory '" << dir << "' does not exist");
  ParsedManifest pm = parse_manifest(read_file(root / kBundleManifest, kBundleManifest));
  Bundle& b = pm.bundle;
  std::size_t k = 0;
  auto load = [&](BundleRegion& r) {
    const FileEntry& bin = pm.bin[k];
    const FileEntry& hex = pm.hex[k];
    ++k;
    const std::uint64_t limit = std::min<std::uint64_t>(b.cfg.dram_bytes, 1ull << 32);
    TANDEM_CHECK(r.addr <= limit && bin.bytes <= limit - r.addr,
                 "manifest.json: region '" << r.name << "' of " << bin.bytes << " bytes at address "
                                           << r.addr << " exceeds the addressable DRAM of " << limit
                                           << " bytes");
    const std::string data = verified(root, bin);
    r.data.assign(data.begin(), data.end());
    const std::string text = verified(root, hex);
    const std::vector<std::uint8_t> decoded = decode_hex(
        text, r.addr, r.data.size(), b.cfg.mem_bytes_per_cycle, "bundle file " + hex.file);
    TANDEM_CHECK(decoded == r.data,
                 "bundle file " << hex.file << " does not encode the same bytes as " << bin.file);
  };
  for (auto& r : b.loads) load(r);
  for (auto& r : b.expected) load(r);
  check_bundle_regions(b, "manifest.json");
  const std::string list = verified(root, pm.region_list);
  TANDEM_CHECK(list == region_list_text(b),
               "bundle file " << pm.region_list.file << " does not match manifest.json");
  return b;
}

}  // namespace tandem::driver
