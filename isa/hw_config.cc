// HwConfig: JSON loading, validation and derived quantities.
#include "isa/hw_config.h"

#include <bit>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "isa/error.h"
#include "isa/layout.h"

namespace tandem {
namespace {

using nlohmann::json;

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
int log2_exact(std::uint64_t v) { return std::countr_zero(v); }

void require(bool ok, const std::string& cfg, const char* field, const std::string& value,
             const char* rule) {
  TANDEM_CHECK(ok, "config '" << cfg << "': field " << field << " = " << value << " " << rule);
}

}  // namespace

std::string config_dir() {
  if (const char* env = std::getenv("TANDEM_CONFIG_DIR")) return env;
#ifdef TANDEM_CONFIG_DIR
  return TANDEM_CONFIG_DIR;
#else
  return "configs";
#endif
}

std::uint32_t HwConfig::elem_bytes(int mem_type) const {
  switch (mem_type) {
    case 0: return uop_elem_bytes;
    case 1: return wgt_elem_bytes;
    case 2: return inp_elem_bytes;
    case 3: return acc_elem_bytes;
    case 4: return out_elem_bytes;
  }
  throw Error(Msg() << "memory type " << mem_type << " is not one of 0..4");
}

std::uint32_t HwConfig::depth(int mem_type) const {
  switch (mem_type) {
    case 0: return uop_depth;
    case 1: return wgt_depth;
    case 2: return inp_depth;
    case 3: return acc_depth;
    case 4: return out_depth;
  }
  throw Error(Msg() << "memory type " << mem_type << " is not one of 0..4");
}

void HwConfig::finalize() {
  const std::string& n = name;
  TANDEM_CHECK(!name.empty(), "config: field name must be a non-empty string");
  auto width_rule = [&](const char* f, int v, int want, const char* what) {
    require(v == want, n, f, std::to_string(v),
            (std::string("must be ") + std::to_string(want) + " (" + what +
             "; other widths are not supported)")
                .c_str());
  };
  width_rule("log_inp_width", log_inp_width, 3, "int8 inputs");
  width_rule("log_wgt_width", log_wgt_width, 3, "int8 weights");
  width_rule("log_acc_width", log_acc_width, 5, "int32 accumulators");
  width_rule("log_out_width", log_out_width, 3, "int8 outputs");
  auto block_rule = [&](const char* f, int v, int max) {
    require(v >= 1 && v <= max && is_pow2(static_cast<std::uint64_t>(v)), n, f, std::to_string(v),
            (std::string("must be a power of two in 1..") + std::to_string(max)).c_str());
  };
  block_rule("batch", batch, 16);
  block_rule("block_in", block_in, 64);
  block_rule("block_out", block_out, 64);

  inp_elem_bytes = static_cast<std::uint32_t>(batch * block_in * (1 << log_inp_width) / 8);
  wgt_elem_bytes = static_cast<std::uint32_t>(block_out * block_in * (1 << log_wgt_width) / 8);
  acc_elem_bytes = static_cast<std::uint32_t>(batch * block_out * (1 << log_acc_width) / 8);
  out_elem_bytes = static_cast<std::uint32_t>(batch * block_out * (1 << log_out_width) / 8);
  uop_elem_bytes = 4;

  auto buf_rule = [&](const char* f, std::uint32_t bytes, std::uint32_t elem, std::uint32_t& depth_out,
                      int& log_out) {
    require(is_pow2(bytes), n, f, std::to_string(bytes), "must be a power of two");
    require(bytes >= 2 * elem, n, f, std::to_string(bytes),
            (std::string("must hold at least two elements of ") + std::to_string(elem) + " bytes")
                .c_str());
    require(bytes <= (64u << 20), n, f, std::to_string(bytes), "must be at most 64 MiB");
    depth_out = bytes / elem;
    log_out = log2_exact(depth_out);
  };
  buf_rule("uop_buff_bytes", uop_buff_bytes, uop_elem_bytes, uop_depth, log_uop_depth);
  buf_rule("inp_buff_bytes", inp_buff_bytes, inp_elem_bytes, inp_depth, log_inp_depth);
  buf_rule("wgt_buff_bytes", wgt_buff_bytes, wgt_elem_bytes, wgt_depth, log_wgt_depth);
  buf_rule("acc_buff_bytes", acc_buff_bytes, acc_elem_bytes, acc_depth, log_acc_depth);
  buf_rule("out_buff_bytes", out_buff_bytes, out_elem_bytes, out_depth, log_out_depth);
  require(out_depth == acc_depth, n, "out_buff_bytes", std::to_string(out_buff_bytes),
          (std::string("must give as many output rows as accumulator rows (") +
           std::to_string(acc_depth) + "): GEMM/ALU write out[a] for every acc[a]")
              .c_str());

  require(cmd_queue_depth >= 1 && cmd_queue_depth <= 4096, n, "cmd_queue_depth",
          std::to_string(cmd_queue_depth), "must be in 1..4096");
  require(token_queue_depth >= 1 && token_queue_depth <= 4096, n, "token_queue_depth",
          std::to_string(token_queue_depth), "must be in 1..4096");
  require(clock_mhz > 0 && clock_mhz <= 10000, n, "clock_mhz", std::to_string(clock_mhz),
          "must be in (0, 10000]");
  require(is_pow2(mem_bytes_per_cycle) && mem_bytes_per_cycle <= 128, n, "mem_bytes_per_cycle",
          std::to_string(mem_bytes_per_cycle), "must be a power of two in 1..128");
  require(mem_latency_cycles >= 1 && mem_latency_cycles <= 1000, n, "mem_latency_cycles",
          std::to_string(mem_latency_cycles),
          "must be in 1..1000 (docs/microarch.md clarification 4: a read never returns in its "
          "grant cycle)");
  require(is_pow2(mem_burst_bytes) && mem_burst_bytes >= mem_bytes_per_cycle &&
              mem_burst_bytes >= 16 && mem_burst_bytes <= 4096,
          n, "mem_burst_bytes", std::to_string(mem_burst_bytes),
          "must be a power of two in 16..4096 and at least mem_bytes_per_cycle");
  require(dram_bytes >= (1u << 20) && dram_bytes <= (1ull << 34) && dram_bytes % 4096 == 0, n,
          "dram_bytes", std::to_string(dram_bytes),
          "must be a multiple of 4096 in 1 MiB..16 GiB");

  // The derived ISA must fit its words.
  for (int op = 0; op < 5; ++op) {
    const auto fields = isa::insn_layout(*this, static_cast<isa::Opcode>(op));
    const unsigned bits = isa::layout_bits(fields);
    TANDEM_CHECK(bits <= isa::kInsnBits,
                 "config '" << n << "': " << isa::opcode_name(static_cast<isa::Opcode>(op))
                            << " instruction needs " << bits
                            << " bits with these buffer depths, over the 128-bit limit; "
                               "shrink the buffers");
  }
  const unsigned ubits = isa::layout_bits(isa::uop_layout(*this));
  TANDEM_CHECK(ubits <= isa::kUopBits, "config '" << n << "': micro-op needs " << ubits
                                                  << " bits (acc, inp and wgt index widths), over "
                                                     "the 32-bit limit; shrink the buffers");
}

HwConfig HwConfig::from_json_text(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(Msg() << "config " << origin << ": invalid JSON: " << e.what());
  }
  TANDEM_CHECK(j.is_object(), "config " << origin << ": top level must be a JSON object");
  HwConfig c;
  std::set<std::string> seen;
  auto get_int = [&](const char* key, auto& out) {
    seen.insert(key);
    TANDEM_CHECK(j.contains(key), "config " << origin << ": missing field " << key);
    const json& v = j.at(key);
    TANDEM_CHECK(v.is_number_integer(), "config " << origin << ": field " << key << " = " << v.dump()
                                                  << " must be an integer");
    using T = std::remove_reference_t<decltype(out)>;
    // Unsigned JSON integers above INT64_MAX must not wrap to negative values.
    const bool neg = !v.is_number_unsigned() && v.get<std::int64_t>() < 0;
    const std::uint64_t x = neg ? 0 : v.get<std::uint64_t>();
    TANDEM_CHECK(!neg && x <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()),
                 "config " << origin << ": field " << key << " = " << v.dump()
                           << " is out of range 0.." << std::numeric_limits<T>::max());
    out = static_cast<T>(x);
  };
  seen.insert("name");
  TANDEM_CHECK(j.contains("name") && j["name"].is_string(),
               "config " << origin << ": field name must be a string");
  c.name = j["name"].get<std::string>();
  seen.insert("description");
  get_int("log_inp_width", c.log_inp_width);
  get_int("log_wgt_width", c.log_wgt_width);
  get_int("log_acc_width", c.log_acc_width);
  get_int("log_out_width", c.log_out_width);
  get_int("batch", c.batch);
  get_int("block_in", c.block_in);
  get_int("block_out", c.block_out);
  get_int("uop_buff_bytes", c.uop_buff_bytes);
  get_int("inp_buff_bytes", c.inp_buff_bytes);
  get_int("wgt_buff_bytes", c.wgt_buff_bytes);
  get_int("acc_buff_bytes", c.acc_buff_bytes);
  get_int("out_buff_bytes", c.out_buff_bytes);
  get_int("cmd_queue_depth", c.cmd_queue_depth);
  get_int("token_queue_depth", c.token_queue_depth);
  get_int("mem_bytes_per_cycle", c.mem_bytes_per_cycle);
  get_int("mem_latency_cycles", c.mem_latency_cycles);
  get_int("mem_burst_bytes", c.mem_burst_bytes);
  get_int("dram_bytes", c.dram_bytes);
  seen.insert("clock_mhz");
  TANDEM_CHECK(j.contains("clock_mhz") && j["clock_mhz"].is_number(),
               "config " << origin << ": field clock_mhz must be a number");
  c.clock_mhz = j["clock_mhz"].get<double>();
  for (const auto& [key, v] : j.items())
    TANDEM_CHECK(seen.count(key), "config " << origin << ": unknown field '" << key << "'");
  c.finalize();
  return c;
}

HwConfig HwConfig::from_file(const std::string& path) {
  std::ifstream in(path);
  TANDEM_CHECK(in.good(), "config file '" << path << "' cannot be opened");
  std::stringstream ss;
  ss << in.rdbuf();
  return from_json_text(ss.str(), path);
}

HwConfig HwConfig::load_preset(const std::string& name_or_path) {
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json"))
    return from_file(name_or_path);
  const std::string path = config_dir() + "/" + name_or_path + ".json";
  std::ifstream probe(path);
  TANDEM_CHECK(probe.good(), "unknown config preset '" << name_or_path << "' (no file " << path
                                                       << "); presets: tandem-8x8, vta-16x16");
  return from_file(path);
}

std::string HwConfig::to_json_text() const {
  json j;
  j["name"] = name;
  j["log_inp_width"] = log_inp_width;
  j["log_wgt_width"] = log_wgt_width;
  j["log_acc_width"] = log_acc_width;
  j["log_out_width"] = log_out_width;
  j["batch"] = batch;
  j["block_in"] = block_in;
  j["block_out"] = block_out;
  j["uop_buff_bytes"] = uop_buff_bytes;
  j["inp_buff_bytes"] = inp_buff_bytes;
  j["wgt_buff_bytes"] = wgt_buff_bytes;
  j["acc_buff_bytes"] = acc_buff_bytes;
  j["out_buff_bytes"] = out_buff_bytes;
  j["cmd_queue_depth"] = cmd_queue_depth;
  j["token_queue_depth"] = token_queue_depth;
  j["clock_mhz"] = clock_mhz;
  j["mem_bytes_per_cycle"] = mem_bytes_per_cycle;
  j["mem_latency_cycles"] = mem_latency_cycles;
  j["mem_burst_bytes"] = mem_burst_bytes;
  j["dram_bytes"] = dram_bytes;
  return j.dump(2);
}

}  // namespace tandem
