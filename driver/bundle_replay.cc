// Replays a test-vector bundle on a device: load regions, launch, compare the
// expected regions byte for byte (see driver/bundle.h).
#include <algorithm>
#include <cstring>
#include <sstream>

#include "driver/bundle.h"
#include "isa/error.h"

namespace tandem::driver {
namespace {

// Little-endian signed value of `n` bytes at `p`.
std::int64_t signed_value(const std::uint8_t* p, std::uint32_t n) {
  std::uint64_t v = 0;
  const std::uint32_t m = n > 8 ? 8 : n;
  for (std::uint32_t i = 0; i < m; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  if (m < 8 && (v >> (8 * m - 1)) & 1) v |= ~0ull << (8 * m);
  return static_cast<std::int64_t>(v);
}

}  // namespace

ReplayResult replay_bundle(const Bundle& b, isa::Device& dev) {
  TANDEM_CHECK(
      dev.config().name == b.cfg.name && dev.config().to_json_text() == b.cfg.to_json_text(),
      "replay: device config '" << dev.config().name << "' differs from the bundle's '"
                                << b.cfg.name << "'");
  for (const auto& r : b.loads) dev.write_dram(r.addr, r.data.data(), r.data.size());
  dev.launch(b.insn_addr, b.insn_count);
  dev.wait();
  ReplayResult res;
  res.stats = dev.stats();
  if (res.stats.counters.count("cycles.total")) res.cycles = res.stats.get("cycles.total");
  res.pass = true;
  std::vector<std::uint8_t> got;
  for (const auto& r : b.expected) {
    got.assign(r.data.size(), 0);
    dev.read_dram(r.addr, got.data(), got.size());
    std::uint64_t bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i] == r.data[i]) continue;
      if (bad++ == 0 && res.pass) {
        res.pass = false;
        res.region = r.name;
        res.byte_offset = i;
        res.elem_index = i / r.elem_bytes;
        const std::size_t e0 = res.elem_index * r.elem_bytes;
        const std::uint32_t n =
            static_cast<std::uint32_t>(std::min<std::size_t>(r.elem_bytes, got.size() - e0));
        res.got = signed_value(got.data() + e0, n);
        res.want = signed_value(r.data.data() + e0, n);
      }
    }
    res.mismatched_bytes += bad;
  }
  std::ostringstream m;
  if (res.pass) {
    m << "replay: PASS";
  } else {
    const BundleRegion* r = nullptr;
    for (const auto& e : b.expected)
      if (e.name == res.region) r = &e;
    TANDEM_ASSERT(r != nullptr, "mismatch region not found");
    m << "replay: MISMATCH in region '" << res.region << "' at byte offset " << res.byte_offset
      << " (address 0x" << std::hex << r->addr + res.byte_offset << std::dec << "), element "
      << res.elem_index << " (int" << 8 * r->elem_bytes << "): got " << res.got << ", expected "
      << res.want << "; " << res.mismatched_bytes << " bytes differ";
  }
  res.message = m.str();
  return res;
}

}  // namespace tandem::driver
