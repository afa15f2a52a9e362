#pragma once
// Where a writer hands its output a piece at a time (a report's ranks, an ET+'s nodes):
// a string it appends to, standard output, or an output file (io/output_file.h). A
// piece is valid only during the call.
#include <functional>
#include <string_view>

namespace opscope {

using TextSink = std::function<void(std::string_view)>;

}  // namespace opscope
