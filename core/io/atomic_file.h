#pragma once
// Writes a whole file so that readers see the old file or the new one, never a part:
// the bytes go to a temporary file beside it, which is flushed and renamed over it.
#include <string>
#include <string_view>

namespace opscope {

// False on failure, with error set to one line; the temporary file is removed.
bool writeFileAtomically(const std::string& path, std::string_view bytes, std::string& error);

}  // namespace opscope
