#pragma once
// Nsight Systems reports exported as SQLite (`nsys export --type sqlite`), into the same
// model as Kineto traces:
//   CUPTI_ACTIVITY_KIND_RUNTIME  runtime calls on their host threads (launches),
//   CUPTI_ACTIVITY_KIND_KERNEL / _MEMCPY / _MEMSET  GPU events on (device, stream),
//                                linked to their runtime call by correlationId; with
//                                GPU work from several processes, tracks and
//                                correlation ids are kept apart per process (globalPid)
//                                and a NULL correlationId links to nothing,
//   NVTX_EVENTS                  push/pop and start/end ranges as annotations on their
//                                threads (the op stacks); start/end ranges that end on
//                                another thread as async spans of their process; marks
//                                as instants; other rows (domains, categories) skipped,
//   StringIds                    names (demangledName, nameId, textId),
//   ThreadNames, PROCESSES       thread and process names where present,
//   TARGET_INFO_CUDA_DEVICE / TARGET_INFO_GPU  device names, and deviceProperties in
//                                Kineto's shape (name, totalGlobalMem, numSms, ...),
//   ENUM_CUDA_MEMCPY_OPER        memcpy names ("Memcpy HtoD").
// Columns are read by name, so newer schemas (greenContextId, ENUM_* tables) keep
// working. The database is untrusted: values are capped at kMaxSqliteValueBytes, and a
// generated column, a virtual table or a column of the wrong declared type among those
// read ends the load with a one-line error.
// Times are ns as exported (relative to the session start). globalTid / globalPid are
// Nsight's serialized ids: pid = (id >> 24) & 0xFFFFFF, tid = id & 0xFFFFFF.
// Tables are created lazily by nsys: absent tables are simply empty; a database with
// none of the tables above is an error naming them. Unreadable rows are warnings.
#include <string>

#include "io/load_result.h"

namespace opscope {

// "SQLite format 3\0" at the start of the file.
bool looksLikeSqlite(std::string_view head);
LoadResult loadNsysSqlite(const std::string& path, const LoadOptions& options = {});

}  // namespace opscope
