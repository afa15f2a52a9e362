#pragma once
// What `opscope --version` and Help ▸ About print: opscope's version and the versions of
// the libraries it runs with (read at run time, not the headers it was built against).
#include <string>

namespace opscope {

const char* opscopeVersion();
// "opscope 0.1.0\nQt 6.4.2, zlib 1.2.13, SQLite 3.40.1, protobuf 3.21.12"; qtVersion is
// the Qt the GUI module runs with, or empty when the module is missing.
std::string versionText(const std::string& qtVersion);

}  // namespace opscope
