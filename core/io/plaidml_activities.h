#pragma once
// A PlaidML event log decoded into activities, whatever its schema generation (see
// plaidml_eventlog_loader.h): the events of each activity merged, parents resolved,
// clocks aligned. No model here: plaidml_eventlog_loader.cpp maps this onto a Trace.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/byte_source.h"
#include "model/diagnostics.h"

namespace opscope::plaidml {

enum class Generation { Current, V2017 };

// One metadata item: the message name of its type URL ("vertexai.tile.hal.opencl.proto.
// RunInfo") and the serialized message.
struct Metadata {
  std::string type;
  std::string value;
};

struct Activity {
  std::string id;       // as PlaidML identifies it: "stream:index" or the UUID in hex
  int32_t parent = -1;  // index in ActivityLog::activities; -1: a root
  int32_t domain = -1;  // the domain (process) activity, -1: the default domain
  std::string verb;
  uint32_t clock = 0;                 // index in ActivityLog::clocks
  std::optional<int64_t> start, end;  // ns from the clock's epoch, as recorded
  bool endInferred = false;           // never ended: end set to the clock's last event
  std::vector<Metadata> metadata;
  // Absolute times on the aligned axis (clock epoch + recorded), set by align().
  int64_t alignedStart = 0, alignedEnd = 0;
  // Identifiers inside metadata (RunInfo.kernel_id, BuildInfo.device_id) resolved to
  // activity indices by the decoder, which knows the generation's identifiers.
  int32_t runKernel = -1, buildDevice = -1;
};

struct Clock {
  std::string id;
  int64_t epoch = 0;  // added to recorded times to align the clock (align())
  int64_t lastEnd = INT64_MIN;
  uint64_t activities = 0;
};

struct ActivityLog {
  Generation generation = Generation::Current;
  std::vector<Activity> activities;
  std::vector<Clock> clocks;
  uint64_t events = 0, records = 0;
  uint64_t bytes = 0;  // decompressed bytes read
};

// Reads every record; problems (a cut, an undecodable record) go to diag. Returns false
// with error set when no activity could be read.
bool readActivityLog(ByteSource& src, ActivityLog& log, Diagnostics& diag, std::string& error);

// The type name of a type URL ("type.vertex.ai/x.y.Z" -> "x.y.Z").
std::string typeName(std::string_view typeUrl);

}  // namespace opscope::plaidml
