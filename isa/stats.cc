// JSON form of run statistics.
#include <nlohmann/json.hpp>

#include "isa/device.h"

namespace tandem::isa {

std::string Stats::to_json(int indent) const {
  nlohmann::json j;
  j["counters"] = nlohmann::json::object();
  for (const auto& [k, v] : counters) j["counters"][k] = v;
  j["values"] = nlohmann::json::object();
  for (const auto& [k, v] : values) j["values"][k] = v;
  return j.dump(indent);
}

}  // namespace tandem::isa
