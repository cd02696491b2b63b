// The accelerator pass pipeline (see build_accel.h).
#include "compiler/accel/build_accel.h"

#include <unordered_set>

#include "compiler/accel/fold_uop_kernels.h"
#include "compiler/accel/inject_dma.h"
#include "compiler/accel/inject_vthread.h"
#include "compiler/accel/lower_alu.h"
#include "compiler/accel/sram_alloc.h"
#include "compiler/ir/printer.h"

namespace tandem::accel {

std::vector<std::string> accel_pass_names() {
  return {"lower_alu", "inject_dma", "fold_uop_kernels", "inject_vthread"};
}

AccelProgram build_accel(const compiler::LoweredFunc& f, const HwConfig& cfg,
                         const AccelOptions& options) {
  auto dump = [&](const std::string& pass, const ir::Stmt& s) {
    if (options.dump_ir) options.dump_ir(pass, s);
    if (options.dump_stream) *options.dump_stream << "// ---- " << pass << " ----\n" << s << "\n";
  };
  ir::Stmt s = lower_alu(f.body, cfg);
  dump("lower_alu", s);
  s = inject_dma(s, cfg);
  dump("inject_dma", s);
  s = fold_uop_kernels(s, cfg);
  dump("fold_uop_kernels", s);
  std::unordered_set<const ir::BufferNode*> expanded;
  s = inject_vthread(s, cfg, &expanded);
  dump("inject_vthread", s);
  SramPlan plan = plan_sram(s, cfg, expanded);
  AccelProgram out;
  out.program = codegen(s, f.args, plan, cfg, &out.stats.codegen);
  out.stats.peak_inp = plan.peak_inp;
  out.stats.peak_wgt = plan.peak_wgt;
  out.stats.peak_acc = plan.peak_acc;
  return out;
}

}  // namespace tandem::accel
