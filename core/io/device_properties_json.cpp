#include "io/device_properties_json.h"

#include <nlohmann/json.hpp>

namespace opscope {

std::vector<DeviceProperties> parseDeviceProperties(std::string_view json) {
  std::vector<DeviceProperties> out;
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_array()) return out;
  auto integer = [](const nlohmann::json& d, const char* key, std::optional<int64_t>& field) {
    const auto it = d.find(key);
    if (it != d.end() && it->is_number_integer()) field = it->get<int64_t>();
  };
  int64_t position = 0;
  for (const auto& d : j) {
    if (!d.is_object()) continue;
    DeviceProperties p;
    std::optional<int64_t> id;
    integer(d, "id", id);
    p.id = id ? *id : position;
    ++position;
    if (const auto n = d.find("name"); n != d.end() && n->is_string()) p.name = n->get<std::string>();
    if (const auto m = d.find("totalGlobalMem"); m != d.end() && m->is_number()) p.totalGlobalMem = m->get<double>();
    integer(d, "numSms", p.numSms);
    integer(d, "warpSize", p.warpSize);
    integer(d, "computeMajor", p.computeMajor);
    integer(d, "computeMinor", p.computeMinor);
    integer(d, "maxThreadsPerBlock", p.maxThreadsPerBlock);
    integer(d, "maxThreadsPerMultiprocessor", p.maxThreadsPerMultiprocessor);
    integer(d, "regsPerBlock", p.regsPerBlock);
    integer(d, "regsPerMultiprocessor", p.regsPerMultiprocessor);
    integer(d, "sharedMemPerBlock", p.sharedMemPerBlock);
    integer(d, "sharedMemPerMultiprocessor", p.sharedMemPerMultiprocessor);
    integer(d, "sharedMemPerBlockOptin", p.sharedMemPerBlockOptin);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace opscope
