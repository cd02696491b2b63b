// Device registry: maps target names to backend factories (see header).
#include "driver/device_registry.h"

#include "isa/error.h"
#include "sim/fsim.h"
#ifdef TANDEM_HAVE_CSIM
#include "sim/csim/csim.h"
#endif
#ifdef TANDEM_HAVE_RTL
#include "hw/rtl_device.h"
#endif

namespace tandem::driver {

std::vector<std::string> available_targets() {
  std::vector<std::string> t = {"fsim"};
#ifdef TANDEM_HAVE_CSIM
  t.push_back("csim");
#endif
#ifdef TANDEM_HAVE_RTL
  t.push_back("rtl");
#endif
  return t;
}

bool target_available(const std::string& target) {
  for (const auto& t : available_targets())
    if (t == target) return true;
  return false;
}

std::unique_ptr<isa::Device> make_device(const std::string& target, const HwConfig& cfg,
                                         const isa::DeviceOptions& opts) {
  if (target == "fsim") return sim::make_fsim(cfg, opts);
#ifdef TANDEM_HAVE_CSIM
  if (target == "csim") return sim::make_csim(cfg, opts);
#endif
#ifdef TANDEM_HAVE_RTL
  if (target == "rtl") return hw::make_rtl(cfg, opts);
#endif
  std::string avail;
  for (const auto& t : available_targets()) avail += (avail.empty() ? "" : ", ") + t;
  const bool known = target == "csim" || target == "rtl";
  throw Error(Msg() << "device target '" << target << "' "
                    << (known ? "is not built into this binary" : "is unknown")
                    << "; available targets: " << avail);
}

}  // namespace tandem::driver
