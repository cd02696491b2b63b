// make_bundle(): program + host data -> Bundle, via Runtime::prepare on fsim
// and an optional csim replay for the expected cycles (see
// driver/bundle_make.h).
#include "driver/bundle_make.h"

#include "driver/device_registry.h"
#include "driver/runtime.h"
#include "isa/codec.h"
#include "isa/error.h"

namespace tandem::driver {

std::function<void(const std::map<std::string, std::vector<std::uint8_t>>&)> verify_int8_output(
    const HwConfig& cfg, const std::string& workload, const std::string& buffer, const Shape4& out,
    std::vector<std::int8_t> want) {
  return [cfg, workload, buffer, out,
          want = std::move(want)](const std::map<std::string, std::vector<std::uint8_t>>& outs) {
    const auto& r = outs.at(buffer);
    const std::size_t packed = packed_out_size(cfg, out);
    TANDEM_CHECK(r.size() >= packed, "vectors: " << workload << " output buffer '" << buffer
                                                 << "' holds " << r.size()
                                                 << " bytes, the result needs " << packed);
    const auto got = unpack_output(
        cfg, std::span<const std::int8_t>(reinterpret_cast<const std::int8_t*>(r.data()), packed),
        out);
    for (std::size_t i = 0; i < want.size(); ++i)
      TANDEM_CHECK(got[i] == want[i],
                   "vectors: fsim " << workload << " result (NCHW index " << i
                                    << ") = " << int{got[i]} << " differs from the host reference "
                                    << int{want[i]} << "; refusing to write the bundle");
  };
}

Bundle make_bundle(const HwConfig& cfg, const VectorSource& src, const MakeBundleOptions& opts) {
  src.program.check(cfg);
  for (const auto& [name, vb] : src.buffers)
    TANDEM_CHECK(src.program.find_buffer(name) != nullptr,
                 "vectors: buffer '" << name << "' is not declared by the program");
  Runtime rt(cfg, "fsim");
  std::vector<std::string> outputs;
  Bundle b;
  b.cfg = cfg;
  b.workload = src.workload;
  b.workload_params_json = src.params_json;
  b.seed = src.seed;
  b.command_line = src.command_line;
  // Allocate every buffer in declaration order and write the loaded ones.
  std::vector<BundleRegion> inputs;
  for (const auto& buf : src.program.buffers) {
    auto it = src.buffers.find(buf.name);
    TANDEM_CHECK(it != src.buffers.end(),
                 "vectors: program buffer '" << buf.name << "' has no role or data");
    const VectorBuffer& vb = it->second;
    const TensorInfo& t = rt.allocate(buf.name, buf.bytes);
    const bool loaded = vb.role != RegionRole::kOutput;
    TANDEM_CHECK(loaded || vb.data.empty(),
                 "vectors: output buffer '" << buf.name << "' must not carry input data");
    TANDEM_CHECK(
        vb.role != RegionRole::kInstructions && vb.role != RegionRole::kUops,
        "vectors: buffer '" << buf.name << "' cannot have role " << region_role_name(vb.role));
    TANDEM_CHECK(vb.data.size() <= buf.bytes, "vectors: " << vb.data.size() << " bytes of data for "
                                                          << "buffer '" << buf.name << "' of "
                                                          << buf.bytes << " bytes");
    if (!loaded) {
      outputs.push_back(buf.name);
      continue;
    }
    BundleRegion r;
    r.name = buf.name;
    r.role = vb.role;
    r.addr = t.addr;
    r.elem_bytes = vb.elem_bytes;
    r.data = vb.data;
    r.data.resize(buf.bytes, 0);
    if (!r.data.empty()) rt.write(buf.name, r.data.data(), r.data.size());
    inputs.push_back(std::move(r));
  }
  TANDEM_CHECK(!outputs.empty(), "vectors: the program has no output buffer");
  const PreparedLaunch prep = rt.prepare(src.program);
  b.insn_addr = prep.insn_addr;
  b.insn_count = prep.insn_count;
  b.uop_addr = prep.uop_addr;
  b.uop_count = prep.uop_count;
  for (const DramRegion& img : prep.images) {
    BundleRegion r;
    r.name = img.name;
    const bool insns = img.name == "__insns";
    TANDEM_ASSERT(insns || img.name == isa::kUopBufferName, "unknown image " << img.name);
    r.role = insns ? RegionRole::kInstructions : RegionRole::kUops;
    r.elem_bytes = insns ? static_cast<std::uint32_t>(isa::kInsnBytes) : cfg.uop_elem_bytes;
    r.addr = img.addr;
    r.data = img.bytes;
    b.loads.push_back(std::move(r));
  }
  for (auto& r : inputs)
    if (!r.data.empty()) b.loads.push_back(std::move(r));
  rt.launch(prep);
  std::map<std::string, std::vector<std::uint8_t>> got;
  for (const std::string& name : outputs) {
    const TensorInfo& t = rt.tensor(name);
    const std::uint64_t bytes = src.program.find_buffer(name)->bytes;
    std::vector<std::uint8_t> data(bytes);
    rt.read(name, data.data(), data.size());
    BundleRegion r;
    r.name = name;
    r.role = RegionRole::kOutput;
    r.addr = t.addr;
    r.elem_bytes = src.buffers.at(name).elem_bytes;
    r.data = data;
    b.expected.push_back(std::move(r));
    got[name] = std::move(data);
  }
  if (src.verify) src.verify(got);
  if (!opts.csim_cycles) {
    b.cycles_note = "expected cycles not requested";
  } else if (!target_available("csim")) {
    b.cycles_note = "the csim target is not built into this binary";
  } else {
    auto dev = make_device("csim", cfg);
    const ReplayResult r = replay_bundle(b, *dev);
    TANDEM_CHECK(r.pass, "vectors: csim disagrees with fsim on the expected output ("
                             << r.message << "); refusing to write the bundle");
    TANDEM_CHECK(r.cycles.has_value(), "vectors: csim reported no cycles.total counter");
    b.expected_cycles = r.cycles;
    b.cycles_note = "csim";
  }
  return b;
}

}  // namespace tandem::driver
