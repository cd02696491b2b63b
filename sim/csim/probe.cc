// Probe: samples queue occupancies, token counts and module activities into
// sc_signals for the VCD waveform (see modules.h).
#include <string>

#include "sim/csim/modules.h"

namespace tandem::sim::csim {

Probe::Probe(const sc_core::sc_module_name& name, Machine& m) : sc_module(name), m_(m) {
  SC_METHOD(sample);
  sensitive << now_ << next_;
  dont_initialize();
}

void Probe::cancel() {
  now_.cancel();
  next_.cancel();
}

void Probe::touch() {
  now_.notify(sc_core::SC_ZERO_TIME);
  next_.notify(sc_core::sc_time::from_value(m_.clock.period()));
}

void Probe::trace_to(sc_core::sc_trace_file* tf) {
  static const char* const kUnit[kUnits] = {"load", "compute", "store"};
  static const char* const kTok[kQueues] = {"tokens_load_to_compute", "tokens_compute_to_load",
                                            "tokens_compute_to_store", "tokens_store_to_compute"};
  static const char* const kMod[4] = {"fetch", "load", "compute", "store"};
  for (int u = 0; u < kUnits; ++u) sc_core::sc_trace(tf, cmdq_[u], std::string("cmdq_") + kUnit[u]);
  for (int q = 0; q < kQueues; ++q) sc_core::sc_trace(tf, tokens_[q], kTok[q]);
  for (int i = 0; i < 4; ++i) {
    sc_core::sc_trace(tf, state_[i], std::string("state_") + kMod[i]);
    sc_core::sc_trace(tf, mem_[i], std::string("mem_wait_") + kMod[i]);
  }
}

void Probe::sample() {
  if (!m_.active || m_.clock.before_start()) return;
  const Cycle now = m_.clock.now();
  for (int u = 0; u < kUnits; ++u) cmdq_[u].write(static_cast<int>(m_.cmdq[u].count_at(now)));
  for (int q = 0; q < kQueues; ++q) tokens_[q].write(static_cast<int>(m_.tokens[q].count_at(now)));
  state_[0].write(static_cast<int>(m_.fetch->activity().at(now)));
  mem_[0].write(m_.fetch->waiting_for_memory());
  for (int u = 0; u < kUnits; ++u) {
    state_[u + 1].write(static_cast<int>(m_.units[u]->activity().at(now)));
    mem_[u + 1].write(m_.units[u]->waiting_for_memory());
  }
}

}  // namespace tandem::sim::csim
