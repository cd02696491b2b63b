// Engine: elaboration once per process, then reset / run / clean up per
// program (see engine.h).
#include "sim/csim/engine.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>

#include "sim/csim/modules.h"

// libsystemc.so refers to sc_main; Tandem programs have their own main().
extern "C" __attribute__((weak)) int sc_main(int, char**) {
  return 1;
}

namespace tandem::sim::csim {
namespace {

class Model {
 public:
  Model() {
    sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
    fetch_ = new FetchUnit("csim_fetch", m_);
    units_[0] = new ExecUnit("csim_load", m_, isa::Module::kLoad);
    units_[1] = new ExecUnit("csim_compute", m_, isa::Module::kCompute);
    units_[2] = new ExecUnit("csim_store", m_, isa::Module::kStore);
    port_ = new MemPort("csim_mem_port", m_);
    probe_ = new Probe("csim_probe", m_);
    m_.fetch = fetch_;
    for (int u = 0; u < kUnits; ++u) m_.units[u] = units_[u];
    m_.port = port_;
    m_.probe = probe_;
    port_->set_client(kReqFetch, fetch_);
    port_->set_client(kReqLoad, units_[0]);
    port_->set_client(kReqCompute, units_[1]);
    port_->set_client(kReqStore, units_[2]);
    period_ = sc_core::sc_time(1, sc_core::SC_NS).value();
  }

  isa::Stats run(const RunInputs& in);

 private:
  void reset(const RunInputs& in, TraceRecorder* trace);
  void cancel_all();
  std::string deadlock_message(Cycle now) const;
  isa::Stats collect(double wall_seconds) const;

  Machine m_;
  FetchUnit* fetch_;
  std::array<ExecUnit*, kUnits> units_;
  MemPort* port_;
  Probe* probe_;
  std::uint64_t period_ = 1;
};

void Model::reset(const RunInputs& in, TraceRecorder* trace) {
  m_.cfg = in.cfg;
  m_.core = in.core;
  m_.decode = in.decode;
  m_.insn_addr = in.insn_addr;
  m_.insn_count = in.insn_count;
  m_.module_total = in.module_total;
  m_.trace = trace;
  m_.vcd = !in.vcd_path.empty();
  for (auto& q : m_.cmdq) q.reset();
  for (auto& t : m_.tokens) t.reset();
  m_.error = nullptr;
  m_.finish_cycle = kNever;
  m_.drained = {};
  m_.drained_known = {};
  m_.complete = false;
  m_.done_cycle = 0;
  m_.issued = 0;
  fetch_->reset();
  for (ExecUnit* u : units_) u->reset();
  port_->reset();
  // Cycle 0 starts one cycle after the current time, so that nothing left
  // runnable at the current time by the previous run can act in this one.
  m_.clock.start_at(sc_core::sc_time_stamp().value() + period_, period_);
}

void Model::cancel_all() {
  fetch_->cancel();
  for (ExecUnit* u : units_) u->cancel();
  port_->cancel();
  probe_->cancel();
}

std::string Model::deadlock_message(Cycle now) const {
  Msg msg;
  msg << "csim: deadlock at cycle " << now << " after " << m_.issued << " of " << m_.insn_count
      << " instructions issued:";
  bool any = false;
  for (const ExecUnit* u : units_) {
    const std::string r = u->blocked_reason(now);
    if (!r.empty()) {
      msg << " " << r << ";";
      any = true;
    }
  }
  const std::string f = fetch_->blocked_reason(now);
  if (!f.empty()) {
    msg << " " << f << ";";
    any = true;
  }
  TANDEM_ASSERT(any, "csim stopped at cycle " << now << " with no blocked module");
  msg << " tokens: ";
  for (int q = 0; q < kQueues; ++q)
    msg << (q ? ", " : "") << queue_name(q) << "=" << m_.tokens[q].count_at(now);
  return msg.str();
}

isa::Stats Model::collect(double wall_seconds) const {
  isa::Stats s;
  const Cycle total = m_.done_cycle + 1;
  s.counters["cycles.total"] = total;
  static const char* const kNames[4] = {"fetch", "load", "compute", "store"};
  for (int i = 0; i < 4; ++i) {
    Activity a = i == 0 ? fetch_->activity() : units_[i - 1]->activity();
    a.close(total);
    const std::string n = kNames[i];
    s.counters[n + ".busy"] = a.total(Act::kBusy);
    s.counters[n + ".idle"] = a.total(Act::kIdle);
    s.counters[n + ".stall.token"] = a.total(Act::kStallToken);
    s.counters[n + ".stall.token_full"] = a.total(Act::kStallTokenFull);
    s.counters[n + ".stall.mem"] = a.mem_stall();
    if (i == 0) s.counters[n + ".stall.queue_full"] = a.total(Act::kStallQueueFull);
  }
  s.counters["mem.bytes.read"] = port_->bytes_read;
  s.counters["mem.bytes.write"] = port_->bytes_written;
  s.counters["mem.bursts"] = port_->bursts;
  s.counters["mem.bus_cycles"] = port_->bus_cycles;
  s.counters["insn.total"] = m_.issued;
  const HwConfig& cfg = *m_.cfg;
  const double cycles = static_cast<double>(total);
  const double seconds = cycles / (cfg.clock_mhz * 1e6);
  s.values["gemm.utilization"] =
      static_cast<double>(m_.core->counters().macs) / (cycles * cfg.macs_per_gemm_uop());
  s.values["mem.bandwidth_gbps"] =
      static_cast<double>(port_->bytes_read + port_->bytes_written) / seconds / 1e9;
  s.values["mem.bus_utilization"] = static_cast<double>(port_->bus_cycles) / cycles;
  s.values["sim.wall_seconds"] = wall_seconds;
  s.values["sim.cycles_per_second"] = wall_seconds > 0 ? cycles / wall_seconds : 0.0;
  return s;
}

// Writes the trace of a successful run.
void write_trace(const std::unique_ptr<TraceRecorder>& trace, const RunInputs& in) {
  if (trace) trace->write(in.trace_path, in.cfg->name);
}

// Writes the trace of a failed run (it shows how far the run got); a trace
// file error must not hide the run's own error.
void write_trace_on_failure(const std::unique_ptr<TraceRecorder>& trace, const RunInputs& in) {
  try {
    write_trace(trace, in);
  } catch (const Error&) {
  }
}

// Output files are checked before the run: SystemC aborts the process when
// it cannot open a VCD file, and a long run should not end in a path error.
void check_writable(const std::string& path, const char* what) {
  std::ofstream f(path, std::ios::binary | std::ios::app);
  TANDEM_CHECK(f.good(), "csim: " << what << " file '" << path << "' cannot be opened for writing");
}

isa::Stats Model::run(const RunInputs& in) {
  if (!in.trace_path.empty()) check_writable(in.trace_path, "trace");
  std::string vcd_stem = in.vcd_path;
  const bool has_suffix =
      vcd_stem.size() > 4 && vcd_stem.compare(vcd_stem.size() - 4, 4, ".vcd") == 0;
  if (has_suffix) vcd_stem.resize(vcd_stem.size() - 4);
  if (!in.vcd_path.empty()) {
    check_writable(in.vcd_path, "VCD");
    check_writable(vcd_stem + ".vcd", "VCD");
  }
  std::unique_ptr<TraceRecorder> trace;
  if (!in.trace_path.empty()) trace = std::make_unique<TraceRecorder>(in.cfg->clock_mhz);
  cancel_all();
  reset(in, trace.get());

  sc_core::sc_trace_file* vcd = nullptr;
  if (m_.vcd) {
    vcd = sc_core::sc_create_vcd_trace_file(vcd_stem.c_str());
    vcd->set_time_unit(1, sc_core::SC_NS);
    probe_->trace_to(vcd);
  }

  m_.active = true;
  fetch_->start();
  for (ExecUnit* u : units_) u->start();
  m_.changed();
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<std::string> kernel_error;
  try {
    sc_core::sc_start();
  } catch (const std::exception& e) {
    kernel_error = e.what();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool deadlocked = m_.active && !m_.error && !kernel_error;
  const Cycle stop = m_.clock.before_start() ? 0 : m_.clock.now();
  m_.active = false;
  cancel_all();
  if (vcd) {
    sc_core::sc_close_vcd_trace_file(vcd);
    if (!has_suffix) std::rename((vcd_stem + ".vcd").c_str(), in.vcd_path.c_str());
  }

  TANDEM_CHECK(!kernel_error, "csim: SystemC kernel error: " << *kernel_error);
  if (m_.error) {
    write_trace_on_failure(trace, in);
    std::rethrow_exception(m_.error);
  }
  if (deadlocked) {
    write_trace_on_failure(trace, in);
    throw Error(deadlock_message(stop));
  }
  TANDEM_ASSERT(m_.complete, "csim run ended without completing");
  std::string left;
  for (int q = 0; q < kQueues; ++q)
    if (m_.tokens[q].count() != 0)
      left += (Msg() << (left.empty() ? "" : ", ") << queue_name(q) << " holds "
                     << m_.tokens[q].count())
                  .str();
  write_trace(trace, in);
  TANDEM_CHECK(left.empty(), "csim: the program finished with tokens left in a token queue ("
                                 << left << "); every pushed token must be popped");
  return collect(wall);
}

std::mutex& model_mutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace

isa::Stats run(const RunInputs& in) {
  std::lock_guard<std::mutex> lock(model_mutex());
  static Model* model = [] {
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    TANDEM_CHECK(sc_core::sc_get_status() == sc_core::SC_ELABORATION,
                 "csim: the SystemC simulation of this process was started by someone else; "
                 "csim must create its modules first");
    return new Model();  // lives for the whole process (SystemC cannot delete modules)
  }();
  return model->run(in);
}

}  // namespace tandem::sim::csim
