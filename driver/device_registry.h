// Device registry: creates an isa::Device backend by target name.
//
// Targets: "fsim" (functional simulator, always built), "csim" (SystemC
// cycle-accurate simulator, when built with TANDEM_HAVE_CSIM) and "rtl"
// (Verilated RTL, when built with TANDEM_HAVE_RTL). An unknown target, or one
// that this build does not include, raises tandem::Error listing the
// available targets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "isa/device.h"
#include "isa/hw_config.h"

namespace tandem::driver {

// Creates a device of `target` for `cfg`.
std::unique_ptr<isa::Device> make_device(const std::string& target, const HwConfig& cfg,
                                         const isa::DeviceOptions& opts = {});

// Targets built into this binary, in order fsim, csim, rtl.
std::vector<std::string> available_targets();

// True if `target` names a backend built into this binary.
bool target_available(const std::string& target);

}  // namespace tandem::driver
