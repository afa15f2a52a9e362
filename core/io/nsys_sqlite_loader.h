#pragma once
// Nsight Systems reports exported as SQLite (`nsys export --type sqlite`), into the same
// model as Kineto traces:
//   CUPTI_ACTIVITY_KIND_RUNTIME  runtime calls on their host threads (launches),
//   CUPTI_ACTIVITY_KIND_KERNEL / _MEMCPY / _MEMSET  GPU events on (device, stream),
//                                linked to their runtime call by correlationId,
//   NVTX_EVENTS                  push/pop and start/end ranges as annotations on their
//                                threads (the op stacks), marks as instants,
//   StringIds                    names (demangledName, nameId, textId),
//   ThreadNames                  thread names where present.
// Times are ns as exported (relative to the session start). globalTid / globalPid are
// Nsight's serialized ids: pid = (id >> 24) & 0xFFFFFF, tid = id & 0xFFFFFF.
// Tables are created lazily by nsys: absent tables are simply empty; a database with
// none of the tables above is an error naming them. Unreadable rows are warnings.
#include <string>

#include "io/load_result.h"

namespace opscope {

// "SQLite format 3\0" at the start of the file.
bool looksLikeSqlite(std::string_view head);
LoadResult loadNsysSqlite(const std::string& path);

}  // namespace opscope
