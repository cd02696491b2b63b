// C++ main of the verilated SystemVerilog testbench hw/tb/tb_top.sv.
//
// Runs the timed simulation (Verilator --timing) until $finish and returns
// the result the testbench reported through the DPI function tb_set_result:
// 0 = PASS, 1 = FAIL; 3 if the simulation stopped without a result (for
// example when no events remain). Plusargs (+bundle=DIR, +timeout=N,
// +check_cycles, +vcd=FILE) are passed through to the testbench.
#include <cstdio>
#include <memory>

#include "Vtb_top.h"
#include "Vtb_top__Dpi.h"
#include "verilated.h"

namespace {
int g_result = -1;
}

void tb_set_result(int code) {
  if (g_result < 0) g_result = code;
}

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->traceEverOn(true);
  auto top = std::make_unique<Vtb_top>(ctx.get(), "tb_top");
  while (!ctx->gotFinish()) {
    top->eval();
    if (!top->eventsPending()) break;
    ctx->time(top->nextTimeSlot());
  }
  top->final();
  if (g_result < 0) {
    std::fprintf(stderr, "tb: simulation ended without a result\n");
    return 3;
  }
  return g_result;
}
