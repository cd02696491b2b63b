// SRAM allocation (see sram_alloc.h).
#include "compiler/accel/sram_alloc.h"

#include <sstream>
#include <vector>

#include "compiler/accel/element_group.h"
#include "compiler/ir/visitor.h"
#include "isa/error.h"

namespace tandem::accel {
namespace {

struct Live {
  std::string name;
  std::uint32_t elems;
};

class Planner : public ir::IRVisitor {
 public:
  Planner(const HwConfig& cfg, const std::unordered_set<const ir::BufferNode*>& exp)
      : cfg_(cfg), exp_(exp) {}

  void visit(const ir::AllocateNode* op) override {
    const ir::Buffer& b = op->buffer;
    const std::string& scope = b.scope();
    TANDEM_CHECK(scope != "out", "buffer '" << b.name()
                                            << "' in the out SRAM is not the narrowed copy of "
                                               "an acc buffer; out tiles must be computed as "
                                               "int8(acc) of the same tile");
    TANDEM_CHECK(is_sram_scope(scope),
                 "buffer '" << b.name() << "' (scope '" << scope
                            << "') is host scratch memory; the accelerator program cannot use it");
    const std::int64_t el = scalars_per_element(cfg_, scope);
    const std::int64_t count = b.num_elements();
    TANDEM_CHECK(count % el == 0, "buffer '" << b.name() << "' of " << count
                                             << " scalars is not a whole number of " << scope
                                             << " elements of " << el << " scalars");
    const int k = slot(scope);
    const std::uint32_t elems = static_cast<std::uint32_t>(count / el);
    const std::uint32_t depth = cfg_.depth(static_cast<int>(mem_type_of_scope(scope)));
    const std::uint64_t end = static_cast<std::uint64_t>(cur_[k]) + elems;
    if (end > depth) {
      const std::uint32_t eb = cfg_.elem_bytes(static_cast<int>(mem_type_of_scope(scope)));
      std::ostringstream m;
      m << scope << " SRAM overflow: buffer '" << b.name() << "' needs " << elems << " elements ("
        << static_cast<std::uint64_t>(elems) * eb << " bytes)";
      if (exp_.count(b.get())) m << " for all its virtual threads";
      if (!live_[k].empty()) {
        m << " on top of";
        for (const Live& l : live_[k]) m << " '" << l.name << "' (" << l.elems << ")";
      }
      m << ", " << end << " elements (" << end * eb << " bytes) in all, but the " << scope
        << " buffer of config '" << cfg_.name << "' holds " << depth << " elements ("
        << static_cast<std::uint64_t>(depth) * eb << " bytes); shrink the tile factors that size '"
        << b.name() << "'" << (exp_.count(b.get()) ? " or use fewer virtual threads" : "");
      throw Error(m.str());
    }
    plan.base[b.get()] = cur_[k];
    cur_[k] = static_cast<std::uint32_t>(end);
    std::uint32_t* peak[3] = {&plan.peak_inp, &plan.peak_wgt, &plan.peak_acc};
    if (cur_[k] > *peak[k]) *peak[k] = cur_[k];
    live_[k].push_back(Live{b.name(), elems});
    IRVisitor::visit(op);
    live_[k].pop_back();
    cur_[k] -= elems;
  }

  SramPlan plan;

 private:
  static int slot(const std::string& scope) {
    if (scope == "inp") return 0;
    if (scope == "wgt") return 1;
    return 2;
  }
  const HwConfig& cfg_;
  const std::unordered_set<const ir::BufferNode*>& exp_;
  std::uint32_t cur_[3] = {0, 0, 0};
  std::vector<Live> live_[3];
};

}  // namespace

SramPlan plan_sram(const ir::Stmt& body, const HwConfig& cfg,
                   const std::unordered_set<const ir::BufferNode*>& vthread_expanded) {
  Planner p(cfg, vthread_expanded);
  p.walk(body);
  return p.plan;
}

}  // namespace tandem::accel
