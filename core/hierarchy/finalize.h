#pragma once
#include "model/trace.h"

namespace opscope {

// The hierarchy pass over a built trace: nesting / lanes per track, launch links,
// flow binding, ProfilerStep iterations. Importers call it once after finish().
void buildHierarchy(Trace& trace);

}  // namespace opscope
