// VerilatedEngine<V>: RtlEngine over the verilated model class V (one per
// preset; instantiated only in the generated rtl_models.cc).
//
// Per cycle t: drive the memory model's R/B outputs for t, evaluate with
// clk low (combinational outputs of cycle t settle), hand AR/AW/W of cycle t
// to the memory model, count the debug states, then raise clk (the edge that
// ends cycle t). Cycle 0 is the first cycle after the ctrl_start edge, as in
// docs/microarch.md. Assumes V has the tandem_top ports of hw/README.md.
#pragma once

#include <verilated.h>
#include <verilated_vcd_c.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <type_traits>

#include "hw/axi_memory.h"
#include "hw/rtl_engine.h"
#include "isa/error.h"

namespace tandem::hw {

// Copies bytes into / out of a verilated port of any width (little-endian).
template <class T>
void port_set(T& port, const std::uint8_t* src, std::size_t bytes) {
  if constexpr (std::is_integral_v<T>) {
    T v = 0;
    std::memcpy(&v, src, std::min(bytes, sizeof(T)));
    port = v;
  } else {
    std::memset(port.data(), 0, sizeof(port.m_storage));
    std::memcpy(port.data(), src, std::min(bytes, sizeof(port.m_storage)));
  }
}
template <class T>
void port_get(const T& port, std::uint8_t* dst, std::size_t bytes) {
  if constexpr (std::is_integral_v<T>) {
    const T v = port;
    std::memset(dst, 0, bytes);
    std::memcpy(dst, &v, std::min(bytes, sizeof(T)));
  } else {
    std::memset(dst, 0, bytes);
    std::memcpy(dst, port.data(), std::min(bytes, sizeof(port.m_storage)));
  }
}

template <class V>
class VerilatedEngine final : public RtlEngine {
 public:
  VerilatedEngine(const HwConfig& cfg, sim::Dram& dram)
      : cfg_(cfg),
        ctx_(std::make_unique<VerilatedContext>()),
        mem_(dram, cfg.mem_bytes_per_cycle, cfg.mem_latency_cycles),
        beat_(cfg.mem_bytes_per_cycle) {
    ctx_->traceEverOn(true);
    m_ = std::make_unique<V>(ctx_.get(), "tandem");
    m_->clk = 0;
    m_->rst_n = 0;
    m_->ctrl_start = 0;
    idle_inputs();
    m_->eval();
  }

  ~VerilatedEngine() override {
    set_trace("");
    m_->final();
  }

  void set_trace(const std::string& vcd_path) override {
    if (vcd_) {
      vcd_->close();
      vcd_.reset();
    }
    if (vcd_path.empty()) return;
    vcd_ = std::make_unique<VerilatedVcdC>();
    m_->trace(vcd_.get(), 99);
    vcd_->open(vcd_path.c_str());
    TANDEM_CHECK(vcd_->isOpen(), "rtl: cannot open waveform file '" << vcd_path << "'");
  }

  RunOutcome run(std::uint32_t insn_addr, std::uint32_t insn_count, std::uint64_t budget) override {
    const auto t0 = std::chrono::steady_clock::now();
    RunOutcome out;
    mem_.reset();
    // reset, then the start pulse; the cycle after the start edge is cycle 0
    idle_inputs();
    m_->rst_n = 0;
    edge();
    m_->rst_n = 1;
    m_->ctrl_insn_addr = insn_addr;
    m_->ctrl_insn_count = insn_count;
    m_->ctrl_start = 1;
    edge();
    m_->ctrl_start = 0;

    const std::size_t P = cfg_.mem_bytes_per_cycle;
    std::uint64_t t = 0;
    for (;; ++t) {
      const AxiMemory::RBeat r = mem_.r_beat(t);
      m_->m_axi_rvalid = r.valid;
      m_->m_axi_rlast = r.last;
      if (r.valid) port_set(m_->m_axi_rdata, r.data, P);
      m_->m_axi_bvalid = mem_.b_valid(t);
      m_->clk = 0;
      m_->eval();
      dump();
      if (m_->m_axi_arvalid)
        mem_.on_ar(t, m_->m_axi_araddr, m_->m_axi_arlen, m_->m_axi_arbytes, m_->m_axi_arid);
      if (m_->m_axi_awvalid)
        mem_.on_aw(t, m_->m_axi_awaddr, m_->m_axi_awlen, m_->m_axi_awbytes, m_->m_axi_awid);
      if (m_->m_axi_wvalid) {
        port_get(m_->m_axi_wdata, beat_.data(), P);
        mem_.on_w(t, beat_.data(), static_cast<std::uint64_t>(m_->m_axi_wstrb), m_->m_axi_wlast);
      }
      if (m_->dbg_running) {
        const unsigned st = m_->dbg_state;
        for (int u = 0; u < 4; ++u) ++out.state_cycles[u][(st >> (4 * u)) & 7u];
        out.bus_busy += m_->dbg_bus_busy;
        out.fetch_stall += m_->dbg_fetch_stall;
      }
      m_->clk = 1;
      m_->eval();
      dump();
      if (m_->ctrl_done || mem_.failed() || t >= budget) break;
    }
    out.cycles_run = t + 1;
    out.budget_exceeded = !m_->ctrl_done && !mem_.failed();
    out.mem_error = mem_.error();
    out.mem_error_id = mem_.error_id();
    out.status = status();
    if (vcd_) vcd_->flush();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  }

 private:
  void idle_inputs() {
    m_->m_axi_arready = 1;
    m_->m_axi_awready = 1;
    m_->m_axi_wready = 1;
    m_->m_axi_rvalid = 0;
    m_->m_axi_rlast = 0;
    m_->m_axi_bvalid = 0;
  }
  void edge() {
    m_->clk = 0;
    m_->eval();
    dump();
    m_->clk = 1;
    m_->eval();
    dump();
  }
  void dump() {
    if (vcd_) vcd_->dump(vtime_);
    vtime_ += 5;
  }
  RtlStatus status() const {
    RtlStatus s;
    s.done = m_->ctrl_done;
    s.error = m_->ctrl_error;
    s.cycles = m_->ctrl_cycles;
    s.err_code = m_->ctrl_err_code;
    s.err_aux = m_->ctrl_err_aux;
    s.err_insn = m_->ctrl_err_insn;
    s.err_value = m_->ctrl_err_value;
    const std::uint64_t tok = m_->dbg_tokens;
    for (int i = 0; i < 4; ++i)
      s.tokens[i] = static_cast<std::uint32_t>((tok >> (16 * i)) & 0xffff);
    const unsigned st = m_->dbg_state;
    for (int i = 0; i < 4; ++i) s.state[i] = (st >> (4 * i)) & 15u;
    const std::uint64_t q = m_->dbg_qcounts;
    for (int i = 0; i < 3; ++i) s.qcount[i] = static_cast<std::uint32_t>((q >> (16 * i)) & 0xffff);
    s.idx = {m_->dbg_fetch_idx, m_->dbg_load_idx, m_->dbg_compute_idx, m_->dbg_store_idx};
    return s;
  }

  HwConfig cfg_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> m_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  AxiMemory mem_;
  std::vector<std::uint8_t> beat_;
  std::uint64_t vtime_ = 0;
};

}  // namespace tandem::hw
