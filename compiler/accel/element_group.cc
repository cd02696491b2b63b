// Scalar -> SRAM element grouping (see element_group.h).
#include "compiler/accel/element_group.h"

#include <algorithm>

#include "compiler/ir/printer.h"
#include "isa/error.h"

namespace tandem::accel {

std::int64_t scalars_per_element(const HwConfig& cfg, const std::string& scope) {
  if (scope == "inp") return static_cast<std::int64_t>(cfg.batch) * cfg.block_in;
  if (scope == "wgt") return static_cast<std::int64_t>(cfg.block_out) * cfg.block_in;
  if (scope == "acc" || scope == "out") return static_cast<std::int64_t>(cfg.batch) * cfg.block_out;
  throw Error(Msg() << "accelerator: scope '" << scope << "' is not an accelerator SRAM");
}

isa::MemType mem_type_of_scope(const std::string& scope) {
  if (scope == "inp") return isa::MemType::kInp;
  if (scope == "wgt") return isa::MemType::kWgt;
  if (scope == "acc") return isa::MemType::kAcc;
  if (scope == "out") return isa::MemType::kOut;
  throw Error(Msg() << "accelerator: scope '" << scope << "' is not an accelerator SRAM");
}

int scalar_bits_of_scope(const HwConfig& cfg, const std::string& scope) {
  if (scope == "inp") return 1 << cfg.log_inp_width;
  if (scope == "wgt") return 1 << cfg.log_wgt_width;
  if (scope == "acc") return 1 << cfg.log_acc_width;
  if (scope == "out") return 1 << cfg.log_out_width;
  throw Error(Msg() << "accelerator: scope '" << scope << "' is not an accelerator SRAM");
}

bool is_sram_scope(const std::string& scope) {
  return scope == "inp" || scope == "wgt" || scope == "acc" || scope == "out";
}

GroupedNest group_elements(const std::vector<LoopInfo>& loops, const std::vector<Affine>& access,
                           std::int64_t elem, const std::string& what) {
  TANDEM_ASSERT(!access.empty(), "group_elements without accesses");
  GroupedNest out;
  std::vector<const LoopInfo*> intra;
  for (const LoopInfo& l : loops) {
    const std::int64_t c = access[0].coeff(l.var.get());
    if (c != 0 && c > -elem && c < elem && l.extent > 1) intra.push_back(&l);
  }
  std::sort(intra.begin(), intra.end(), [&](const LoopInfo* a, const LoopInfo* b) {
    return access[0].coeff(a->var.get()) < access[0].coeff(b->var.get());
  });
  std::int64_t radix = 1;
  for (const LoopInfo* l : intra) {
    const std::int64_t c = access[0].coeff(l->var.get());
    TANDEM_CHECK(c == radix,
                 what << ": loop '" << l->var.name() << "' steps " << c
                      << " scalars, but the loops inside one SRAM element of " << elem
                      << " scalars must step 1, then the product of the inner extents (expected "
                      << radix << "); the innermost loops must cover whole elements");
    radix *= l->extent;
  }
  TANDEM_CHECK(radix == elem, what << ": the innermost loops cover " << radix
                                   << " scalars, but one SRAM element holds " << elem
                                   << " (BATCH x BLOCK); tensorize/copy whole blocks");
  for (const Affine& a : access) {
    Affine r = a;
    for (const LoopInfo* l : intra) {
      TANDEM_CHECK(a.coeff(l->var.get()) == access[0].coeff(l->var.get()),
                   what << ": loop '" << l->var.name() << "' steps " << a.coeff(l->var.get())
                        << " scalars in one operand but " << access[0].coeff(l->var.get())
                        << " in the other; both sides must use the same block layout");
      r = r.without(l->var.get());
    }
    TANDEM_CHECK(r.divisible_by(elem), what << ": index '" << ir::to_string(a.to_expr())
                                            << "' is not aligned to SRAM elements of " << elem
                                            << " scalars");
    out.index.push_back(r.divided_by(elem));
  }
  for (const LoopInfo& l : loops)
    if (std::find(intra.begin(), intra.end(), &l) == intra.end()) out.loops.push_back(l);
  return out;
}

}  // namespace tandem::accel
