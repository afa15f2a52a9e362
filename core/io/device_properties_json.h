#pragma once
// Kineto's "deviceProperties" (a JSON array of objects) into DeviceProperties: entries
// that are not objects are skipped; integer fields must be JSON integers, the memory any
// number, the name a string. Broken JSON gives no device.
#include <string_view>
#include <vector>

#include "model/device_properties.h"

namespace opscope {

std::vector<DeviceProperties> parseDeviceProperties(std::string_view json);

}  // namespace opscope
