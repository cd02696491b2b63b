// Machine: token routing of the ISA and run-completion bookkeeping.
#include "sim/csim/machine.h"

#include "sim/csim/modules.h"

namespace tandem::sim::csim {
namespace {

unsigned bit(isa::TokenQueue q) {
  return 1u << static_cast<unsigned>(q);
}

}  // namespace

unsigned pop_mask(const isa::Instruction& i, isa::Module m) {
  using isa::TokenQueue;
  switch (m) {
    case isa::Module::kLoad:
      return i.dep.pop_next ? bit(TokenQueue::kComputeToLoad) : 0;
    case isa::Module::kCompute:
      return (i.dep.pop_prev ? bit(TokenQueue::kLoadToCompute) : 0) |
             (i.dep.pop_next ? bit(TokenQueue::kStoreToCompute) : 0);
    case isa::Module::kStore:
      return i.dep.pop_prev ? bit(TokenQueue::kComputeToStore) : 0;
  }
  return 0;
}

unsigned push_mask(const isa::Instruction& i, isa::Module m) {
  using isa::TokenQueue;
  switch (m) {
    case isa::Module::kLoad:
      return i.dep.push_next ? bit(TokenQueue::kLoadToCompute) : 0;
    case isa::Module::kCompute:
      return (i.dep.push_prev ? bit(TokenQueue::kComputeToLoad) : 0) |
             (i.dep.push_next ? bit(TokenQueue::kComputeToStore) : 0);
    case isa::Module::kStore:
      return i.dep.push_prev ? bit(TokenQueue::kStoreToCompute) : 0;
  }
  return 0;
}

isa::Module producer_of(int q) {
  switch (static_cast<isa::TokenQueue>(q)) {
    case isa::TokenQueue::kLoadToCompute:
      return isa::Module::kLoad;
    case isa::TokenQueue::kComputeToLoad:
      return isa::Module::kCompute;
    case isa::TokenQueue::kComputeToStore:
      return isa::Module::kCompute;
    case isa::TokenQueue::kStoreToCompute:
      return isa::Module::kStore;
  }
  TANDEM_ASSERT(false, "token queue " << q);
}

isa::Module consumer_of(int q) {
  switch (static_cast<isa::TokenQueue>(q)) {
    case isa::TokenQueue::kLoadToCompute:
      return isa::Module::kCompute;
    case isa::TokenQueue::kComputeToLoad:
      return isa::Module::kLoad;
    case isa::TokenQueue::kComputeToStore:
      return isa::Module::kStore;
    case isa::TokenQueue::kStoreToCompute:
      return isa::Module::kCompute;
  }
  TANDEM_ASSERT(false, "token queue " << q);
}

const char* queue_name(int q) {
  return isa::token_queue_name(static_cast<isa::TokenQueue>(q)).data();
}

Track track_of(isa::Module m) {
  switch (m) {
    case isa::Module::kLoad:
      return kTrackLoad;
    case isa::Module::kCompute:
      return kTrackCompute;
    case isa::Module::kStore:
      return kTrackStore;
  }
  return kTrackCompute;
}

void Machine::report_finish(Cycle f) {
  finish_cycle = f;
  check_done();
}

void Machine::report_drained(isa::Module m, Cycle c) {
  drained[static_cast<int>(m)] = c;
  drained_known[static_cast<int>(m)] = true;
  check_done();
}

// docs/microarch.md section 6: done in the first cycle t >= FINISH's
// completion in which load and store are idle with empty command queues.
void Machine::check_done() {
  const int ld = static_cast<int>(isa::Module::kLoad), st = static_cast<int>(isa::Module::kStore);
  if (finish_cycle == kNever || !drained_known[ld] || !drained_known[st]) return;
  done_cycle = std::max({finish_cycle, drained[ld], drained[st]});
  complete = true;
  active = false;
  sc_core::sc_pause();
}

void Machine::fail(std::exception_ptr e) {
  if (!error) error = e;
  active = false;
  sc_core::sc_pause();
}

void Machine::changed() {
  if (vcd && probe) probe->touch();
}

}  // namespace tandem::sim::csim
