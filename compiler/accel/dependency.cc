// Dependency token planning (see dependency.h).
#include "compiler/accel/dependency.h"

#include <algorithm>

#include "isa/error.h"

namespace tandem::accel {

int DependencyTracker::slot(isa::MemType m) {
  switch (m) {
    case isa::MemType::kInp:
      return 0;
    case isa::MemType::kWgt:
      return 1;
    case isa::MemType::kOut:
      return 2;
    default:
      break;
  }
  TANDEM_ASSERT(false, "dependency tracking of memory " << isa::mem_type_name(m));
  return 0;
}

isa::Module DependencyTracker::partner(int mem_slot, isa::Module m) {
  if (mem_slot < 2) return m == isa::Module::kLoad ? isa::Module::kCompute : isa::Module::kLoad;
  return m == isa::Module::kStore ? isa::Module::kCompute : isa::Module::kStore;
}

void DependencyTracker::add(std::size_t index, isa::Module m,
                            const std::vector<SramRange>& accesses, std::vector<TokenPlan>* plans) {
  TANDEM_ASSERT(plans->size() == index,
                "dependency tracker: instruction " << index << " out of order");
  plans->emplace_back();
  const int mi = static_cast<int>(m);
  std::int64_t need[3] = {-1, -1, -1};
  for (const SramRange& a : accesses) {
    if (a.hi <= a.lo) continue;
    const int s = slot(a.mem);
    const isa::Module other = partner(s, m);
    const int oi = static_cast<int>(other);
    const std::deque<Rec>& q = recs_[s][oi];
    for (auto it = q.rbegin(); it != q.rend(); ++it) {
      if (it->index <= synced_[oi][mi] || it->index <= need[oi]) break;
      if ((it->write || a.write) && it->lo < a.hi && a.lo < it->hi) {
        need[oi] = it->index;
        break;
      }
    }
  }
  for (int o = 0; o < 3; ++o) {
    if (need[o] < 0 || need[o] <= synced_[o][mi]) continue;
    (*plans)[static_cast<std::size_t>(need[o])].push_to |= module_bit(m);
    (*plans)[index].pop_from |= module_bit(static_cast<isa::Module>(o));
    synced_[o][mi] = need[o];
    ++tokens_;
  }
  for (const SramRange& a : accesses) {
    if (a.hi <= a.lo) continue;
    recs_[slot(a.mem)][mi].push_back(Rec{a.lo, a.hi, a.write, static_cast<std::int64_t>(index)});
  }
  // Forget records every consumer has synchronized past.
  for (int s = 0; s < 3; ++s) {
    for (int k = 0; k < 3; ++k) {
      std::deque<Rec>& q = recs_[s][k];
      const int p = static_cast<int>(partner(s, static_cast<isa::Module>(k)));
      while (!q.empty() && q.front().index <= synced_[k][p]) q.pop_front();
    }
  }
}

}  // namespace tandem::accel
