// Errors and statistics of RTL runs (see hw/rtl_report.h).
#include "hw/rtl_report.h"

#include "isa/error.h"

namespace tandem::hw {
namespace {

const char* const kUnit[4] = {"fetch", "load", "compute", "store"};
const char* const kQueue[4] = {"load->compute", "compute->load", "compute->store",
                               "store->compute"};

std::string insn_at(const ProgramInfo& prog, std::uint32_t idx) {
  if (idx >= prog.insns.size()) return (Msg() << "instruction " << idx).str();
  return (Msg() << "instruction " << idx << " (" << insn_label(prog.insns[idx]) << ")").str();
}

// Token queues (bit mask over kQueue) the instruction pops / pushes on `unit`.
unsigned pops(const isa::Instruction& i, int unit) {
  if (unit == 1) return i.dep.pop_next ? 2u : 0u;
  if (unit == 2) return (i.dep.pop_prev ? 1u : 0u) | (i.dep.pop_next ? 8u : 0u);
  return i.dep.pop_prev ? 4u : 0u;
}
unsigned pushes(const isa::Instruction& i, int unit) {
  if (unit == 1) return i.dep.push_next ? 1u : 0u;
  if (unit == 2) return (i.dep.push_prev ? 2u : 0u) | (i.dep.push_next ? 4u : 0u);
  return i.dep.push_prev ? 8u : 0u;
}

std::string queue_list(unsigned mask) {
  std::string s;
  for (int q = 0; q < 4; ++q)
    if (mask & (1u << q)) s += (s.empty() ? "" : " and ") + std::string(kQueue[q]);
  return s;
}

const char* buffer_name(std::uint32_t mem_type) {
  static const char* const n[5] = {"uop", "wgt", "inp", "acc", "out"};
  return mem_type < 5 ? n[mem_type] : "?";
}

}  // namespace

std::string describe_blocked(const HwConfig& cfg, const ProgramInfo& prog, const RtlStatus& s) {
  Msg m;
  for (int u = 1; u < 4; ++u) {
    const std::uint32_t idx = s.idx[u];
    const bool known = idx < prog.insns.size();
    switch (s.state[u]) {
      case kStallToken: {
        unsigned missing = 0;
        if (known)
          for (int q = 0; q < 4; ++q)
            if ((pops(prog.insns[idx], u) & (1u << q)) && s.tokens[q] == 0) missing |= 1u << q;
        m << " " << kUnit[u] << " blocked at " << insn_at(prog, idx) << " waiting for a token in "
          << queue_list(missing) << ";";
        break;
      }
      case kPushWait: {
        unsigned full = 0;
        if (known)
          for (int q = 0; q < 4; ++q)
            if ((pushes(prog.insns[idx], u) & (1u << q)) && s.tokens[q] >= cfg.token_queue_depth)
              full |= 1u << q;
        m << " " << kUnit[u] << " blocked after " << insn_at(prog, idx) << " waiting for room in "
          << queue_list(full) << " (" << cfg.token_queue_depth << " tokens);";
        break;
      }
      case kBusy:
        m << " " << kUnit[u] << " executing " << insn_at(prog, idx) << ";";
        break;
      default:
        if (s.qcount[u - 1] == 0) m << " " << kUnit[u] << " idle (queue empty);";
        break;
    }
  }
  if (s.state[0] == 4)
    m << " fetch blocked at " << insn_at(prog, s.idx[0]) << ": its command queue is full ("
      << cfg.cmd_queue_depth << " entries);";
  m << " tokens:";
  for (int q = 0; q < 4; ++q) m << (q ? ", " : " ") << kQueue[q] << "=" << s.tokens[q];
  return m.str();
}

void check_outcome(const HwConfig& cfg, const ProgramInfo& prog, const RunOutcome& out) {
  const RtlStatus& s = out.status;
  if (!out.mem_error.empty() && !(s.error && s.err_code != kErrAxi)) {
    const unsigned id = out.mem_error_id;
    const std::string who =
        id == 0
            ? std::string("instruction fetch")
            : (Msg() << kUnit[id] << " module at " << insn_at(prog, s.idx[id < 4 ? id : 0])).str();
    throw Error(Msg() << "rtl: DRAM access by the " << who << ": " << out.mem_error);
  }
  if (out.budget_exceeded)
    throw Error(Msg() << "rtl: the run did not finish within its cycle budget of " << out.cycles_run
                      << " cycles (derived from the program);" << describe_blocked(cfg, prog, s));
  if (!s.error) {
    TANDEM_ASSERT(s.done, "RTL run stopped without done or error");
    return;
  }
  const std::string at = insn_at(prog, s.err_insn);
  switch (s.err_code) {
    case kErrLeftover: {
      Msg m;
      m << "rtl: tokens left in queues when the program finished (cycle " << s.cycles << "):";
      for (int q = 0; q < 4; ++q) m << (q ? ", " : " ") << kQueue[q] << "=" << s.tokens[q];
      throw Error(m.str());
    }
    case kErrDeadlock:
      throw Error(Msg() << "rtl: token deadlock at cycle " << s.cycles - 1
                        << ": no module can issue, execute or push and no memory transfer is "
                           "in flight;"
                        << describe_blocked(cfg, prog, s));
    case kErrSram: {
      const char* buf = buffer_name(s.err_aux);
      throw Error(Msg() << "rtl: " << at << ": " << buf << " index " << s.err_value
                        << " is out of range (" << buf << " depth "
                        << cfg.depth(static_cast<int>(s.err_aux < 5 ? s.err_aux : 0)) << ")");
    }
    case kErrDram:
      throw Error(Msg() << "rtl: " << at << ": DRAM byte address of the transfer exceeds the "
                        << "32-bit address space of the memory port");
    case kErrIllegal:
      throw Error(Msg() << "rtl: " << at << " is malformed (RTL check " << s.err_aux << ")");
    default:
      throw Error(Msg() << "rtl: the memory broke the port's timing contract at cycle "
                        << s.cycles - 1 << " (code " << s.err_code << ", detail " << s.err_aux
                        << ")");
  }
}

isa::Stats make_stats(const HwConfig& cfg, const ProgramInfo& prog, const RunOutcome& out) {
  isa::Stats st;
  st.counters = prog.counters;
  const std::uint64_t total = out.status.cycles;
  st.counters["cycles.total"] = total;
  // fetch: 0 nothing left, 1..3 working, 4 waiting on a full command queue
  const auto& f = out.state_cycles[0];
  st.counters["fetch.idle"] = f[0];
  st.counters["fetch.busy"] = f[1] + f[2] + f[3];
  st.counters["fetch.stall.queue_full"] = f[4];
  for (int u = 1; u < 4; ++u) {
    const auto& a = out.state_cycles[u];
    const std::string n = kUnit[u];
    st.counters[n + ".idle"] = a[kIdle];
    st.counters[n + ".stall.token"] = a[kStallToken];
    st.counters[n + ".busy"] = a[kIssue] + a[kBusy];  // the issue cycle counts as busy
    st.counters[n + ".stall.token_full"] = a[kPushWait];
  }
  st.counters["mem.bus_cycles"] = out.bus_busy;
  const double cycles = static_cast<double>(total);
  st.values["gemm.utilization"] = cycles > 0
                                      ? static_cast<double>(prog.counters.at("macs")) /
                                            (cycles * static_cast<double>(cfg.macs_per_gemm_uop()))
                                      : 0.0;
  st.values["mem.bus_utilization"] = cycles > 0 ? static_cast<double>(out.bus_busy) / cycles : 0;
  st.values["sim.wall_seconds"] = out.seconds;
  st.values["sim.cycles_per_second"] =
      out.seconds > 0 ? static_cast<double>(out.cycles_run) / out.seconds : 0.0;
  return st;
}

}  // namespace tandem::hw
