// SystemVerilog package generator: prints `tandem_pkg` for a HwConfig.
//
// The package holds every parameter the RTL (hw/rtl/*.sv) is built from:
// data widths, GEMM block shape, SRAM depths/index widths/element sizes,
// queue depths, the memory port width and burst size, the opcode, memory-type
// and ALU-op codes, and the LSB/width of every instruction field per opcode
// and of every micro-op field. Field positions come from isa::insn_layout()
// and isa::uop_layout(), the same functions the C++ codec uses, so no field
// offset is ever written by hand in the RTL. Memory latency, DRAM size and
// clock are properties of the memory/board, not of the RTL, and are printed
// only as comments.
//
// Assumes `cfg` is finalized (HwConfig::finalize() or a loader).
#pragma once

#include <string>

#include "isa/hw_config.h"

namespace tandem::isa {

// The full text of tandem_pkg.sv for `cfg`.
std::string sv_package(const HwConfig& cfg);

}  // namespace tandem::isa
