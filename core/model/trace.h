#pragma once
// The loaded trace: processes, tracks of slices (columnar), counters, flows, instants,
// top-level metadata and the links built by the hierarchy pass. Plain C++; every view,
// analysis and command reads this.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/args.h"
#include "model/device_properties.h"
#include "model/diagnostics.h"
#include "model/ids.h"
#include "model/slice_columns.h"
#include "model/string_pool.h"

namespace opscope {

struct Process {
  RawId pid;
  StringId name = 0;    // process_name metadata, 0 when absent
  StringId labels = 0;  // process_labels metadata
  int64_t sortIndex = 0;
  bool hasSortIndex = false;
  // Multi-rank sessions (ranks/rank_session.h): the rank whose trace this process came
  // from, shown before its label and ordering the timeline; kNoId in a single trace.
  int64_t rank = kNoId;
};

enum class TrackKind : uint8_t {
  Thread,     // CPU thread: nested op stacks
  GpuStream,  // holds kernels / memcpy / memset: overlaps go to sub-lanes
  Async,      // b/n/e async slices of one (process, category, id), or (category, id)
};

// Whose an async id is. The Trace Event Format's plain "id" and id2 "global" name one
// track across the trace's processes, as catapult and Perfetto read them; id2 "local",
// and the async spans other loaders make, one per process.
enum class AsyncScope : uint8_t { Process, Trace };

// An async track's slices that overlap without nesting are written in lanes, lane k > 0
// on the id "<id> (lane k+1)" (report/trace_writer.h), and folded back onto <id>'s track
// when read (io/chrome_event_parser.cpp): the one spelling of such an id's mark.
inline constexpr std::string_view kAsyncLaneMark = " (lane ";

struct Track {
  TrackKind kind = TrackKind::Thread;
  uint32_t process = 0;                    // index into Trace::processes
  RawId tid;                               // Async: the async id
  AsyncScope scope = AsyncScope::Process;  // Async: whose its id is (the key above)
  StringId name = 0;                       // thread_name metadata (Async: category or name)
  int64_t sortIndex = 0;
  bool hasSortIndex = false;
  int64_t device = kNoId;  // GPU streams: args.device of their events
  int64_t stream = kNoId;  // GPU streams: args.stream of their events
  // GPU streams whose ids are opaque handles (OpenCL queues): their number on the device,
  // 1, 2, … in order of first use, shown as "queue N"; `stream` keeps the handle.
  int64_t queueNumber = kNoId;
  // Merged sessions: where this track's lazy args are read back (each rank's file has
  // its own); null: Trace::lazyArgs.
  std::shared_ptr<const LazyArgs> lazyArgs;
  // A thread with no name and an id no OS gave (negative or above 2^22: CUPTI's
  // pthread_self() cut to int32, e.g. -1220540864, for runtime calls made on threads
  // Kineto did not name, such as NCCL's watchdog): what its events are, e.g.
  // "cudaEventQuery", shown in its label. Not the file's thread_name; 0 when unset.
  StringId holds = 0;
  uint16_t maxDepth = 0;  // rows used: nesting depth (CPU) or lanes (GPU), plus overflow row
  uint64_t crossovers = 0;
  SliceColumns slices;
};

struct CounterSeries {
  uint32_t process = 0;
  StringId name = 0;  // "<event name>.<arg key>": one series per numeric arg
  std::vector<TimeNs> ts;
  std::vector<double> value;
};

// One Kineto "[memory]" instant (profile_memory=True): an allocation (bytes > 0) or a
// free (bytes < 0) by the caching allocator of a device, on the CPU thread that asked.
// Older Kineto writes only Bytes; newer adds Addr and the allocator's totals after it.
struct MemoryEvent {
  TimeNs ts = 0;
  int64_t bytes = 0;
  uint64_t addr = 0;            // 0: not recorded
  int64_t totalAllocated = -1;  // -1: not recorded
  int64_t totalReserved = -1;
  int32_t device = -1;     // "Device Id" (-1: the host)
  uint8_t deviceType = 0;  // "Device Type": 0 CPU, 1 CUDA, others as Kineto numbers them
  uint32_t track = 0;      // the thread track of the event
};

enum class InstantScope : uint8_t { Thread, Process, Global };

struct Instant {
  TimeNs ts = 0;
  StringId name = 0;
  StringId cat = 0;
  InstantScope scope = InstantScope::Thread;
  uint32_t process = 0;
  uint32_t track = 0;  // Thread scope only
};

// One end of a flow arrow before binding. Kineto's ac2g start sits on the launch,
// its end (bp "e") on the kernel; an end without bp "e" binds to the next slice.
constexpr uint64_t kStringFlowId = 1ull << 63;

struct FlowPoint {
  uint32_t track = 0;
  TimeNs ts = 0;
  StringId cat = 0;
  StringId name = 0;
  // Flow id: a non-negative integer id as its value (Kineto uses the correlation id,
  // so interning them as text would add one string per launch); any other id as
  // kStringFlowId | its interned text.
  uint64_t id = 0;
  char phase = 's';  // 's', 't' or 'f'
  bool bindEnclosing = true;
};

// A bound flow arrow (s -> f), e.g. Kineto's ac2g launch -> kernel or fwdbwd.
struct Flow {
  StringId cat = 0;
  StringId name = 0;
  uint64_t from = kNoRef;  // packed EventRef of the slice the start binds to
  uint64_t to = kNoRef;
};

struct TraceMetadata {
  std::string format;  // "kineto-json", "chrome-json", "legacy-pytorch-json"
  std::optional<int64_t> schemaVersion;
  std::string schemaVersionText;          // raw JSON text when it is not an integer
  std::vector<DeviceProperties> devices;  // deviceProperties, parsed (model/device_properties.h)
  std::string distributedInfo;            // raw JSON text of the object
  std::optional<int64_t> rank, worldSize;
  std::string traceName;
  std::optional<int64_t> baseTimeNanoseconds;
  std::string displayTimeUnit;
  std::string recordShapes;  // raw JSON text
  // What the trace's accelerator is called, from the categories its events use:
  // "GPU" (CUDA, ROCm), "MTIA", "HPU", "XPU", "MLU", "device" (PrivateUse1).
  std::string deviceKind = "GPU";
  std::vector<std::pair<std::string, std::string>> other;  // remaining small top-level keys
  // A merged multi-rank session (ranks/rank_session.h): its ranks in rank order, each
  // with the file it came from and the offset added to its times to put it on the
  // first rank's clock; empty for a single trace. clockAlignment names how the offsets
  // were found ("collectives", "first_iteration", "none").
  struct SessionRank {
    int64_t rank = 0;
    TimeNs clockOffset = 0;
    std::string file;
  };
  std::vector<SessionRank> sessionRanks;
  std::string clockAlignment;
  // The session's files that did not load, each "file: the loader's one-line error";
  // every command over a folder lists them (advise DIR said nothing of them).
  std::vector<std::string> ranksNotLoaded;
};

// launch (cuda_runtime / cuda_driver / Runtime) <-> GPU event, joined by correlation id.
// A launch may start several GPU events (CUDA graphs share one correlation id).
struct LaunchLinks {
  struct Pair {
    uint64_t first, second;
    friend bool operator<(const Pair& a, const Pair& b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    }
  };
  PodColumn<Pair> gpuToLaunch;     // sorted by GPU ref
  PodColumn<Pair> launchToGpu;     // sorted by launch ref, then GPU ref
  uint64_t unlinkedGpuEvents = 0;  // GPU events with no launch in the trace
};

struct Iteration {
  int64_t number = 0;  // N of ProfilerStep#N, or ordinal for marker-based iterations
  TimeNs start = 0;
  TimeNs end = 0;
  uint64_t ref = kNoRef;  // the slice that defines it (kNoRef for marker spans)
};

class Trace {
 public:
  StringPool strings;
  std::vector<Process> processes;
  std::vector<Track> tracks;
  std::vector<CounterSeries> counters;
  std::vector<Instant> instants;
  std::vector<MemoryEvent> memoryEvents;  // in file order; analysis/memory_timeline.h orders them
  PodColumn<Flow> flows;
  PodColumn<FlowPoint> unboundFlows;  // filled by importers, emptied by the hierarchy pass
  // What the performance models read of most events, kept while loading a lazy trace
  // so that they need not read a million args objects back from the file:
  // LoadOptions::keepOpShapes keeps every op's shape args ("Input Dims", "Input type",
  // "Concrete Inputs"), keepKernelLaunches every kernel's "grid" and "block" (in file
  // order; none is an empty text), as the loader read them, by the file offset of the
  // event's args object (SliceColumns::argsAt), ascending. The text is io/args_text.h's
  // keptArgsText, interned in keptArgTexts. Empty when not kept: the args are then read
  // back from the file.
  struct KeptArgs {
    uint64_t argsAt = 0;
    StringId text = 0;
  };
  PodColumn<KeptArgs> keptArgs;
  StringPool keptArgTexts;
  // r's entry of keptArgs, or nullptr: none kept, r has no args object in the file,
  // or r's track reads its args from a file of its own (a merged rank's).
  const KeptArgs* keptArgsOf(EventRef r) const;
  TraceMetadata meta;
  Diagnostics diagnostics;
  LaunchLinks links;
  std::vector<Iteration> iterations;  // ProfilerStep#N, sorted by start
  // Set for lazy traces: reads args objects back from the file (SliceColumns::argsAt).
  std::shared_ptr<const LazyArgs> lazyArgs;

  uint64_t inputBytes = 0;      // bytes of the file on disk
  uint64_t jsonBytes = 0;       // bytes parsed (decompressed)
  uint64_t eventsRead = 0;      // elements of the event list, any phase
  TimeNs minTs = 0, maxTs = 0;  // over slices, instants and counters; both 0 when empty

  std::string_view str(StringId id) const { return strings.get(id); }
  const SliceColumns& slices(uint32_t track) const { return tracks[track].slices; }

  // Slice accessors by reference.
  TimeNs start(EventRef r) const { return tracks[r.track].slices.start[r.index]; }
  TimeNs dur(EventRef r) const { return tracks[r.track].slices.dur[r.index]; }
  TimeNs end(EventRef r) const { return start(r) + dur(r); }
  StringId nameId(EventRef r) const { return tracks[r.track].slices.name[r.index]; }
  std::string_view name(EventRef r) const { return str(nameId(r)); }
  SliceKind kind(EventRef r) const { return tracks[r.track].slices.kind[r.index]; }
  std::optional<EventRef> parent(EventRef r) const;
  // A slice's args, decoded (or, for lazy traces, read back from the file); on failure
  // (a lazy trace whose file changed since loading) empty, with error set.
  std::vector<NamedArg> args(EventRef r, std::string* error = nullptr) const;
  // The args of every event, sink(i, args) for events[i], in no set order: a lazy
  // trace's objects are read in one pass over the file (LazyArgs::readMany), which
  // for millions of events is many times faster than args() for each. On failure
  // the events not read get empty args and error is set (the first failure).
  // keep: as LazyArgs::readMany's, by index into events.
  void argsOfEach(std::span<const EventRef> events, const LazyArgs::Sink& sink, std::string* error = nullptr,
                  const LazyArgs::KeyFilter* keep = nullptr) const;

  uint64_t sliceCount() const;
  size_t memoryBytes() const;

  // "GPU 0 · stream 7", "python (1234) · thread 5678 (pt_autograd_0)", ...
  std::string trackLabel(uint32_t track) const;
  std::string processLabel(uint32_t process) const;
  std::string rawIdText(const RawId& id) const;  // number or string as written
};

// Whether the trace has a counter series of that name (or "<name>.value", as a written
// series reads back) under that process: the series the analyses add to the timeline
// are in a trace that `export --trace` wrote, and are not added twice.
bool hasCounter(const Trace& trace, uint32_t process, StringId name);

}  // namespace opscope
