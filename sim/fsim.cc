// fsim device: DRAM + FunctionalCore + the token schedule (see sim/fsim.h).
//
// launch() only records the program; wait() checks and runs it. Before
// anything executes, every instruction word is decoded with isa::Codec and
// validated (isa::validate), and the FINISH rule is checked, so a malformed
// program is an Error with no effect on DRAM or SRAM. Decoded instructions
// are kept for dispatch when the program is at most kMaxCachedInsns long;
// longer programs are decoded a second time as fetch reaches each word, so
// memory stays bounded whatever insn_count a caller passes. SRAM contents
// persist across launches (as on hardware); counters restart at each launch.
#include "sim/fsim.h"

#include <cstring>
#include <vector>

#include "isa/codec.h"
#include "isa/error.h"
#include "sim/core.h"
#include "sim/dram.h"
#include "sim/fsim_scheduler.h"

namespace tandem::sim {
namespace {

// Longest program whose decoded form is kept between the check and the run
// (about 100 bytes per instruction).
constexpr std::uint32_t kMaxCachedInsns = 1u << 20;

class FsimDevice final : public isa::Device {
 public:
  FsimDevice(const HwConfig& cfg, const isa::DeviceOptions& opts)
      : cfg_(cfg), opts_(opts), dram_(cfg.dram_bytes), core_(cfg_, dram_), codec_(cfg_) {}

  const HwConfig& config() const override { return cfg_; }
  std::string target() const override { return "fsim"; }
  std::uint64_t dram_size() const override { return dram_.size(); }
  void write_dram(std::uint64_t addr, const void* src, std::size_t bytes) override {
    dram_.write(addr, src, bytes);
  }
  void read_dram(std::uint64_t addr, void* dst, std::size_t bytes) const override {
    dram_.read(addr, dst, bytes);
  }

  void launch(std::uint64_t insn_addr, std::uint32_t insn_count) override {
    TANDEM_CHECK(!pending_, "fsim: launch() called while the previous launch (at 0x"
                                << std::hex << insn_addr_ << std::dec
                                << ") has not been waited for; call wait() first");
    pending_ = true;
    insn_addr_ = insn_addr;
    insn_count_ = insn_count;
    core_.reset_counters();
    insn_total_ = 0;
  }

  void wait() override {
    if (!pending_) return;  // nothing launched: the device is idle
    pending_ = false;
    std::vector<isa::Instruction> cache;
    check_program(cache);
    insn_total_ = run_token_schedule(cfg_, core_, insn_count_, [&](std::uint32_t i) {
      return cache.empty() ? decode(i) : cache[i];
    });
  }

  isa::Stats stats() const override {
    isa::Stats s;
    core_.add_to(s.counters);
    s.counters["insn.total"] = insn_total_;
    return s;
  }

 private:
  isa::Word128 word(std::uint32_t i) const {
    isa::Word128 w;
    const std::uint8_t* p = dram_.data() + insn_addr_ + std::uint64_t{i} * isa::kInsnBytes;
    std::memcpy(&w.lo, p, 8);
    std::memcpy(&w.hi, p + 8, 8);
    return w;
  }

  isa::Instruction decode(std::uint32_t i) const {
    isa::Instruction insn;
    try {
      insn = codec_.decode(word(i));
    } catch (const Error& e) {
      throw Error(Msg() << "fsim: instruction " << i << " (at DRAM address 0x" << std::hex
                        << insn_addr_ + std::uint64_t{i} * isa::kInsnBytes << std::dec
                        << "): " << e.what());
    }
    isa::validate(cfg_, insn, i);
    return insn;
  }

  // Everything that can be said about the program before running it. Fills
  // `cache` with the decoded program unless it is too long to keep.
  void check_program(std::vector<isa::Instruction>& cache) const {
    TANDEM_CHECK(insn_count_ > 0,
                 "fsim: launch of 0 instructions; a program must end with "
                 "FINISH");
    const std::string what =
        (Msg() << "fsim: instruction fetch of " << insn_count_ << " instructions").str();
    dram_.check_range(insn_addr_, std::uint64_t{insn_count_} * isa::kInsnBytes, what.c_str());
    const bool keep = insn_count_ <= kMaxCachedInsns;
    if (keep) cache.reserve(insn_count_);
    for (std::uint32_t i = 0; i < insn_count_; ++i) {
      const isa::Instruction insn = decode(i);
      if (keep) cache.push_back(insn);
      const bool last = i + 1 == insn_count_;
      TANDEM_CHECK(last || insn.opcode != isa::Opcode::kFinish,
                   "fsim: instruction " << i << " is a FINISH but only the last instruction ("
                                        << insn_count_ - 1 << ") may be");
      TANDEM_CHECK(!last || insn.opcode == isa::Opcode::kFinish,
                   "fsim: the last instruction (" << i << ", " << isa::opcode_name(insn.opcode)
                                                  << ") must be FINISH");
    }
  }

  HwConfig cfg_;
  isa::DeviceOptions opts_;  // unused: fsim has no trace or waveform
  Dram dram_;
  FunctionalCore core_;
  isa::Codec codec_;
  bool pending_ = false;
  std::uint64_t insn_addr_ = 0;
  std::uint32_t insn_count_ = 0;
  std::uint64_t insn_total_ = 0;
};

}  // namespace

std::unique_ptr<isa::Device> make_fsim(const HwConfig& cfg, const isa::DeviceOptions& opts) {
  HwConfig c = cfg;
  if (c.inp_depth == 0) c.finalize();  // accept a config that was not finalized yet
  return std::make_unique<FsimDevice>(c, opts);
}

}  // namespace tandem::sim
