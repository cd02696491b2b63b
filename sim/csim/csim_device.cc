// csim device: DRAM + FunctionalCore + the SystemC timing model (engine.h).
//
// launch() reads every instruction word from DRAM, decodes it with
// isa::Codec, validates it and checks the FINISH rule; an error found there
// is raised by wait(), as the Device interface promises, and nothing runs.
// Decoded instructions are not kept: fetch decodes each again when its burst
// arrives, so memory stays bounded by the queues. SRAM contents persist
// across launches (as on hardware); statistics restart at each launch.
#include <cstring>
#include <exception>

#include "isa/codec.h"
#include "isa/error.h"
#include "sim/core.h"
#include "sim/csim/csim.h"
#include "sim/csim/engine.h"
#include "sim/dram.h"

namespace tandem::sim {
namespace {

class CsimDevice final : public isa::Device {
 public:
  CsimDevice(const HwConfig& cfg, const isa::DeviceOptions& opts)
      : cfg_(cfg), opts_(opts), dram_(cfg.dram_bytes), core_(cfg_, dram_), codec_(cfg_) {}

  const HwConfig& config() const override { return cfg_; }
  std::string target() const override { return "csim"; }
  std::uint64_t dram_size() const override { return dram_.size(); }
  void write_dram(std::uint64_t addr, const void* src, std::size_t bytes) override {
    dram_.write(addr, src, bytes);
  }
  void read_dram(std::uint64_t addr, void* dst, std::size_t bytes) const override {
    dram_.read(addr, dst, bytes);
  }

  void launch(std::uint64_t insn_addr, std::uint32_t insn_count) override {
    TANDEM_CHECK(!pending_, "csim: launch() called while the previous launch (at 0x"
                                << std::hex << insn_addr_ << std::dec
                                << ") has not been waited for; call wait() first");
    pending_ = true;
    insn_addr_ = insn_addr;
    insn_count_ = insn_count;
    launch_error_ = nullptr;
    try {
      check_program();
    } catch (const Error&) {
      launch_error_ = std::current_exception();
    }
  }

  void wait() override {
    if (!pending_) return;  // nothing launched: the device is idle
    pending_ = false;
    stats_ = isa::Stats();
    core_.reset_counters();
    if (launch_error_) std::rethrow_exception(launch_error_);
    csim::RunInputs in;
    in.cfg = &cfg_;
    in.core = &core_;
    in.decode = [this](std::uint32_t i) { return decode(i); };
    in.insn_addr = insn_addr_;
    in.insn_count = insn_count_;
    in.module_total = module_total_;
    in.trace_path = opts_.trace_path;
    in.vcd_path = opts_.vcd_path;
    isa::Stats s = csim::run(in);
    core_.add_to(s.counters);
    stats_ = std::move(s);
  }

  isa::Stats stats() const override { return stats_; }

 private:
  isa::Instruction decode(std::uint32_t i) const {
    isa::Word128 w;
    const std::uint8_t* p = dram_.data() + insn_addr_ + std::uint64_t{i} * isa::kInsnBytes;
    std::memcpy(&w.lo, p, 8);
    std::memcpy(&w.hi, p + 8, 8);
    isa::Instruction insn;
    try {
      insn = codec_.decode(w);
    } catch (const Error& e) {
      throw Error(Msg() << "csim: instruction " << i << " (at DRAM address 0x" << std::hex
                        << insn_addr_ + std::uint64_t{i} * isa::kInsnBytes << std::dec
                        << "): " << e.what());
    }
    isa::validate(cfg_, insn, i);
    return insn;
  }

  void check_program() {
    TANDEM_CHECK(insn_count_ > 0, "csim: launch of 0 instructions; a program must end with FINISH");
    TANDEM_CHECK(insn_addr_ % isa::kInsnBytes == 0,
                 "csim: instruction address 0x" << std::hex << insn_addr_ << std::dec
                                                << " is not a multiple of " << isa::kInsnBytes
                                                << " bytes (fetch reads whole instructions)");
    const std::string what =
        (Msg() << "csim: instruction fetch of " << insn_count_ << " instructions").str();
    dram_.check_range(insn_addr_, std::uint64_t{insn_count_} * isa::kInsnBytes, what.c_str());
    module_total_ = {};
    for (std::uint32_t i = 0; i < insn_count_; ++i) {
      const isa::Instruction insn = decode(i);
      const bool last = i + 1 == insn_count_;
      TANDEM_CHECK(last || insn.opcode != isa::Opcode::kFinish,
                   "csim: instruction " << i << " is a FINISH but only the last instruction ("
                                        << insn_count_ - 1 << ") may be");
      TANDEM_CHECK(!last || insn.opcode == isa::Opcode::kFinish,
                   "csim: the last instruction (" << i << ", " << isa::opcode_name(insn.opcode)
                                                  << ") must be FINISH");
      ++module_total_[static_cast<int>(isa::module_of(insn))];
    }
  }

  HwConfig cfg_;
  isa::DeviceOptions opts_;
  Dram dram_;
  FunctionalCore core_;
  isa::Codec codec_;
  bool pending_ = false;
  std::uint64_t insn_addr_ = 0;
  std::uint32_t insn_count_ = 0;
  std::array<std::uint32_t, 3> module_total_{};
  std::exception_ptr launch_error_;
  isa::Stats stats_;
};

}  // namespace

std::unique_ptr<isa::Device> make_csim(const HwConfig& cfg, const isa::DeviceOptions& opts) {
  HwConfig c = cfg;
  if (c.inp_depth == 0) c.finalize();  // accept a config that was not finalized yet
  return std::make_unique<CsimDevice>(c, opts);
}

}  // namespace tandem::sim
