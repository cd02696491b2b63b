// The "rtl" device: model selection, launch/wait, errors and statistics
// (see hw/rtl_device.h).
#include "hw/rtl_device.h"

#include <algorithm>
#include <functional>

#include "hw/rtl_engine.h"
#include "hw/rtl_program.h"
#include "hw/rtl_report.h"
#include "isa/error.h"
#include "sim/dram.h"

namespace tandem::hw {
namespace {

// The config fields the RTL is built from (everything in tandem_pkg).
struct RtlField {
  const char* name;
  std::function<std::uint64_t(const HwConfig&)> get;
};
const std::vector<RtlField>& rtl_fields() {
  static const std::vector<RtlField> f = {
      {"log_inp_width", [](const HwConfig& c) { return c.log_inp_width; }},
      {"log_wgt_width", [](const HwConfig& c) { return c.log_wgt_width; }},
      {"log_acc_width", [](const HwConfig& c) { return c.log_acc_width; }},
      {"log_out_width", [](const HwConfig& c) { return c.log_out_width; }},
      {"batch", [](const HwConfig& c) { return c.batch; }},
      {"block_in", [](const HwConfig& c) { return c.block_in; }},
      {"block_out", [](const HwConfig& c) { return c.block_out; }},
      {"uop_buff_bytes", [](const HwConfig& c) { return c.uop_buff_bytes; }},
      {"inp_buff_bytes", [](const HwConfig& c) { return c.inp_buff_bytes; }},
      {"wgt_buff_bytes", [](const HwConfig& c) { return c.wgt_buff_bytes; }},
      {"acc_buff_bytes", [](const HwConfig& c) { return c.acc_buff_bytes; }},
      {"out_buff_bytes", [](const HwConfig& c) { return c.out_buff_bytes; }},
      {"cmd_queue_depth", [](const HwConfig& c) { return c.cmd_queue_depth; }},
      {"token_queue_depth", [](const HwConfig& c) { return c.token_queue_depth; }},
      {"mem_bytes_per_cycle", [](const HwConfig& c) { return c.mem_bytes_per_cycle; }},
      {"mem_burst_bytes", [](const HwConfig& c) { return c.mem_burst_bytes; }},
  };
  return f;
}

const RtlModelEntry& select_model(const HwConfig& cfg) {
  std::string avail, closest_diff, closest;
  std::size_t best = ~std::size_t{0};
  for (const RtlModelEntry& m : rtl_models()) {
    const HwConfig built = HwConfig::from_json_text(m.config_json, m.preset);
    std::string diff;
    std::size_t n = 0;
    for (const RtlField& f : rtl_fields()) {
      if (f.get(cfg) == f.get(built)) continue;
      diff += (Msg() << (n ? ", " : "") << f.name << " = " << f.get(cfg) << " (the model has "
                     << f.get(built) << ")")
                  .str();
      ++n;
    }
    if (n == 0) return m;
    avail += (avail.empty() ? "" : ", ") + std::string(m.preset);
    if (n < best) {
      best = n;
      closest = m.preset;
      closest_diff = diff;
    }
  }
  throw Error(Msg() << "rtl: no verilated model matches config '" << cfg.name
                    << "': the closest, preset '" << closest << "', differs in " << closest_diff
                    << "; models in this build: " << avail
                    << " (mem_latency_cycles, dram_bytes and clock_mhz may differ freely)");
}

class RtlDevice final : public isa::Device {
 public:
  RtlDevice(const HwConfig& cfg, const isa::DeviceOptions& opts, const RtlModelEntry& model)
      : cfg_(cfg), opts_(opts), dram_(cfg.dram_bytes), engine_(model.make(cfg_, dram_)) {
    if (!opts_.vcd_path.empty()) engine_->set_trace(opts_.vcd_path);
  }

  const HwConfig& config() const override { return cfg_; }
  std::string target() const override { return "rtl"; }
  std::uint64_t dram_size() const override { return dram_.size(); }
  void write_dram(std::uint64_t addr, const void* src, std::size_t bytes) override {
    dram_.write(addr, src, bytes);
  }
  void read_dram(std::uint64_t addr, void* dst, std::size_t bytes) const override {
    dram_.read(addr, dst, bytes);
  }

  void launch(std::uint64_t insn_addr, std::uint32_t insn_count) override {
    TANDEM_CHECK(!pending_, "rtl: launch() called while the previous launch (at 0x"
                                << std::hex << insn_addr_ << std::dec
                                << ") has not been waited for; call wait() first");
    pending_ = true;
    insn_addr_ = insn_addr;
    insn_count_ = insn_count;
    stats_ = {};
  }

  void wait() override {
    if (!pending_) return;
    pending_ = false;
    const ProgramInfo prog = inspect_program(cfg_, dram_, insn_addr_, insn_count_);
    const RunOutcome out =
        engine_->run(static_cast<std::uint32_t>(insn_addr_), insn_count_, prog.budget);
    check_outcome(cfg_, prog, out);  // throws on any error
    stats_ = make_stats(cfg_, prog, out);
  }

  isa::Stats stats() const override { return stats_; }

 private:
  HwConfig cfg_;
  isa::DeviceOptions opts_;
  sim::Dram dram_;
  std::unique_ptr<RtlEngine> engine_;
  bool pending_ = false;
  std::uint64_t insn_addr_ = 0;
  std::uint32_t insn_count_ = 0;
  isa::Stats stats_;
};

}  // namespace

std::vector<std::string> rtl_presets() {
  std::vector<std::string> p;
  for (const RtlModelEntry& m : rtl_models()) p.push_back(m.preset);
  return p;
}

std::unique_ptr<isa::Device> make_rtl(const HwConfig& cfg, const isa::DeviceOptions& opts) {
  HwConfig c = cfg;
  if (c.inp_depth == 0) c.finalize();
  const RtlModelEntry& model = select_model(c);
  TANDEM_CHECK(c.mem_latency_cycles >= 1 && c.mem_latency_cycles <= kRtlMaxLatency,
               "rtl: config '" << c.name << "': mem_latency_cycles = " << c.mem_latency_cycles
                               << " is outside the RTL memory model's range 1.." << kRtlMaxLatency);
  return std::make_unique<RtlDevice>(c, opts, model);
}

}  // namespace tandem::hw
