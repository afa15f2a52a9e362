#pragma once
// Launch <-> GPU event join by correlation id, and flow binding.
#include "model/trace.h"

namespace opscope {

// Fills trace.links. A GPU event links to the launch (cuda_runtime / cuda_driver /
// legacy Runtime) with the same correlation id. When several launches share an id: where
// processes carry ranks (a merged session read back from one file), the earliest launch
// of the GPU event's own rank (or of no rank), never another rank's; otherwise (merged traces of several processes) the
// one on the same device's host process cannot be told apart, so the earliest launch wins.
void buildLaunchLinks(Trace& trace);

// Binds trace.unboundFlows into trace.flows: a point with bindEnclosing binds to the
// deepest slice on its track that contains its ts (ends inclusive); an 'f' without
// bp "e" binds to the first slice starting at or after its ts. Points that match no
// slice, or ends without a start, are counted as dangling flows.
void bindFlows(Trace& trace);

}  // namespace opscope
