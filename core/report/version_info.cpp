#include "report/version_info.h"

#include <google/protobuf/stubs/common.h>
#include <sqlite3.h>
#include <zlib.h>

namespace opscope {

const char* opscopeVersion() { return OPSCOPE_VERSION; }

std::string versionText(const std::string& qtVersion) {
  std::string out = std::string("opscope ") + OPSCOPE_VERSION + "\n";
  out += qtVersion.empty() ? std::string("Qt: the GUI module is missing") : "Qt " + qtVersion;
  out += std::string(", zlib ") + zlibVersion() + ", SQLite " + sqlite3_libversion() + ", protobuf " +
         google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION) + "\n";
  return out;
}

}  // namespace opscope
