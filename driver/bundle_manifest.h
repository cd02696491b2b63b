// manifest.json of a test-vector bundle: serialization and strict parsing.
//
// Internal to the bundle writer/reader (driver/bundle_write.cc,
// driver/bundle_read.cc). Parsing checks every field's presence and type and
// names the missing or malformed field by its JSON path, e.g.
// "manifest.json: field regions[2].sha256 is missing".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/bundle.h"

namespace tandem::driver {

// A file of the bundle with its size and SHA-256.
struct FileEntry {
  std::string file;
  std::uint64_t bytes = 0;
  std::string sha256;
};

// `hex` holds the .hex file of each region, loads first then expected, in
// order; `region_list` describes regions.txt.
std::string manifest_text(const Bundle& b, const std::vector<FileEntry>& hex,
                          const FileEntry& region_list);

struct ParsedManifest {
  Bundle bundle;               // regions without data; sha256/bin/hex names set
  std::vector<FileEntry> bin;  // per region (loads then expected)
  std::vector<FileEntry> hex;  // per region (loads then expected)
  FileEntry region_list;
};

ParsedManifest parse_manifest(const std::string& text);

// Consistency of a bundle's regions: exactly one instruction region of
// insn_count instructions at insn_addr, a micro-op region iff uop_count > 0,
// every region non-empty, inside DRAM and the 32-bit address space, no
// overlaps, expected regions (only) with role output. `what` prefixes the
// error message. Throws tandem::Error.
void check_bundle_regions(const Bundle& b, const std::string& what);

}  // namespace tandem::driver
