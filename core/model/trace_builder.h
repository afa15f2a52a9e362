#pragma once
// Append-side API of the model, shared by every importer (Chrome/Kineto JSON now,
// other profilers later). It knows nothing of any file format: importers translate
// their records into these calls, then finish() sorts the tracks; the hierarchy pass
// (hierarchy/finalize.h) nests slices and binds links afterwards.
#include <cstdint>
#include <map>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/args.h"
#include "model/trace.h"

namespace opscope {

struct SliceInput {
  TimeNs start = 0;
  TimeNs dur = 0;
  StringId name = 0;
  StringId cat = 0;
  uint8_t flags = 0;
  int64_t correlation = kNoId;
  int64_t externalId = kNoId;
  int64_t device = kNoId;  // GPU events: names the track's device
  int64_t stream = kNoId;  // GPU events: names the track's stream
};

// The most thread and async tracks one trace gets. A track costs ~1.4 KB before it holds
// anything (its columns, their first heap blocks, the builder's maps): 10^6 one-event
// threads in a 5 MB gzip took 1.37 GB (217 MiB at a ceiling of 100,000, 94 MiB at this
// one). Real traces have hundreds to a few thousand; events of threads met after this
// many go to one merged track per trace ("threads and streams beyond the first 10000,
// merged"), counted as a warning, so nothing is lost from the totals and memory stays
// bounded.
inline constexpr size_t kMaxTracks = 10'000;

class TraceBuilder {
 public:
  explicit TraceBuilder(Trace& trace);
  // Lazy args: every slice keeps its args' file offset (ArgsWriter::fileOffset) instead
  // of the encoded record. Set before the first slice; one mode per trace.
  void setLazyArgs(bool on) { lazyArgs_ = on; }

  uint32_t process(const RawId& pid);
  uint32_t threadTrack(const RawId& pid, const RawId& tid);
  // Classifies a category once; "cpu_op" and legacy "Operator" are both CpuOp, etc.
  SliceKind kindOf(StringId cat);
  // Whether a slice of this name in an op category is a record_function span
  // (ProfilerStep#N, "## module ##" markers, Optimizer.step#…): an annotation, not an op.
  bool isRecordFunctionName(StringId name);

  uint32_t addSlice(uint32_t track, const SliceInput& in, const ArgsWriter& args);
  // B: opens a slice on the track's stack. E: closes the innermost open one; false when
  // none is open (unless deferred, below). `at`: the end's byte offset in the input.
  void beginSlice(uint32_t track, const SliceInput& in, const ArgsWriter& args);
  bool endSlice(uint32_t track, TimeNs ts, uint64_t at = 0);

  void addInstant(const Instant& instant);
  void addCounter(uint32_t process, StringId seriesName, TimeNs ts, double value);
  void addFlowPoint(const FlowPoint& p);
  // Async b/n/e: tracks keyed by (process, category, id), or by (category, id) alone for
  // an id of AsyncScope::Trace, whose track lies in the process of its first event; e
  // closes the innermost open slice of the same name (or the innermost one when no name
  // matches) of its lane. A lane (> 0) is one of the track's own id's lanes in a file
  // opscope wrote ("<id> (lane N)", report/trace_writer.h): its slices go on the id's
  // track, paired among themselves.
  void asyncBegin(uint32_t process, StringId cat, StringId id, const SliceInput& in, const ArgsWriter& args,
                  uint32_t lane = 0, AsyncScope scope = AsyncScope::Process);
  bool asyncEnd(uint32_t process, StringId cat, StringId id, StringId name, TimeNs ts, uint32_t lane = 0,
                uint64_t at = 0, AsyncScope scope = AsyncScope::Process);

  // Parallel loading: a later part's builder keeps each end that finds nothing open on
  // its track or lane (its begin lies in an earlier part, or nowhere) and returns true;
  // absorb() closes the earlier parts' innermost open slice with it, as one pass would
  // have, or warns UnmatchedEnd at `at` when nothing is open there either.
  void setDeferUnmatchedEnds(bool on) { deferEnds_ = on; }
  // UnmatchedEnd's examples, whoever finds the end unmatched (the parser, or absorb()).
  static constexpr std::string_view kNoOpenBegin = "E event with no open B on its thread";
  static constexpr std::string_view kNoOpenAsyncBegin = "async end with no open begin";

  // Closes open slices (warned), classifies tracks, sorts every track by
  // (start asc, dur desc, arrival order) and computes the trace's time bounds.
  void finish();

  Trace& trace() { return trace_; }

  // Metadata events set these fields of a process or thread (parallel loading merges
  // the later setting of each, as one pass over the file would have left it).
  enum MetadataField : uint8_t { kMetaName = 1, kMetaLabels = 2, kMetaSortIndex = 4 };
  void noteProcessMetadata(uint32_t process, uint8_t fields);
  void noteTrackMetadata(uint32_t track, uint8_t fields);
  // Whether an async b slice is still open on some track.
  bool hasOpenAsyncSlices() const;

  // Parallel loading (io/chrome_json_loader.cpp): appends what `part` built from the
  // events that follow this builder's in the same file, so that the result is what one
  // builder fed all of them in order would hold before finish(): part's strings, then
  // processes, tracks and counter series new to this builder are added in the order
  // part met them (ids, track order and rows equal a single pass), slices, instants,
  // flows, memory events and counter samples appended after this builder's. `part` is
  // left empty. Slices left open before part's events are closed by part's deferred
  // ends (setDeferUnmatchedEnds), innermost first, before part's own open ones go on
  // the stacks. False, with nothing but strings added, when the result could not be
  // exact: part used the merged track of kMaxTracks or the sum passes kMaxTracks.
  // Call canAbsorb() on all the parts first: it rules out what absorb cannot see.
  // Lazy-args builders, or a gzip file's parts (their args are translated).
  bool absorb(TraceBuilder& part);
  // Whether absorbing `parts` in order yields exactly one pass's model, asked of them all
  // before any is absorbed (so that no part is refused after others were merged). No
  // when a part used the merged track, the tracks would pass kMaxTracks, a part kept
  // more than kMaxDeferredEnds ends, or an async end of a part closed its lane's
  // innermost slice for want of one of its name while an async slice was left open
  // before that part (one pass might have closed that one: a conservative rule).
  bool canAbsorb(std::span<TraceBuilder* const> parts) const;
  // The most ends a deferring builder keeps (2 MiB): real files keep as many as slices
  // are open at their cut; 10^6 E events with nothing open would otherwise cost 32 MB
  // a part where one pass counts them. Past it the part is refused (one pass reads it).
  static constexpr size_t kMaxDeferredEnds = size_t{1} << 16;

 private:
  // The series of (process, name), added at the end when new (the order one pass meets
  // them in): addCounter's and a merged part's samples go to the same one.
  CounterSeries& counterSeries(uint32_t process, StringId name);
  static constexpr uint8_t kUnclassified = 2;
  // Key tags keep the key spaces of processes, threads, async tracks and counters apart.
  static constexpr uint64_t kThreadTag = 1, kAsyncTag = 2, kCounterTag = 3;
  bool lazyArgs_ = false;
  std::vector<uint8_t> spanByName_;  // by name id: 1 a record_function span, 0 not
  // Into the time domain (ids.h): start clamped, dur cut so the slice ends inside it.
  void clampSlice(SliceInput& in);
  TimeNs clampPoint(TimeNs t, const char* what);
  uint32_t asyncTrack(uint32_t process, StringId cat, StringId id, AsyncScope scope);
  uint32_t appendRow(Track& t, const SliceInput& in, const ArgsWriter& args);
  // Closes an open B slice / async slice: its duration up to ts (0 when ts is earlier).
  // closeAsync: whether a slice of the end's name was open (else it closed the innermost).
  void closeBegin(uint32_t track, uint32_t row, TimeNs ts);
  bool closeAsync(uint32_t track, std::vector<uint32_t>& open, StringId name, TimeNs ts);

  // A later part's ends that found nothing open, in file order (setDeferUnmatchedEnds).
  struct DeferredEnd {
    uint32_t track = 0;
    uint32_t lane = 0;
    StringId name = 0;  // async ends: the name they close first
    bool async = false;
    TimeNs ts = 0;  // clamped already
    uint64_t at = 0;
  };
  bool deferEnds_ = false;
  bool tooManyDeferred_ = false;  // past kMaxDeferredEnds: the part is refused
  std::vector<DeferredEnd> deferredEnds_;
  bool deferEnd(const DeferredEnd& e);
  // A later part's async ends that closed their lane's innermost slice because none open
  // in the part had their name: one pass might have met one of that name earlier.
  struct NamelessClose {
    uint32_t track = 0;
    uint32_t lane = 0;
    StringId name = 0;
  };
  std::vector<NamelessClose> namelessCloses_;

  // Exact composite keys (no hashing collisions possible between tracks).
  struct Key {
    uint64_t a = 0, b = 0;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      const uint64_t h = k.a * 0x9E3779B97F4A7C15ull ^ (k.b + 0x632BE59BD9B4E019ull + (k.a << 6));
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  static Key rawKey(uint64_t tag, const RawId& id) {
    return {tag * 2 + (id.isString ? 1 : 0), id.isString ? id.str : static_cast<uint64_t>(id.num)};
  }
  // An async track's key: its process index in the high half of `a`, or ~0u for an id
  // of AsyncScope::Trace (processes are far fewer than 2^32 - 1).
  static Key asyncKey(AsyncScope scope, uint32_t process, StringId cat, StringId id) {
    const uint64_t owner = scope == AsyncScope::Trace ? ~0u : process;
    return {(owner << 32) | (kAsyncTag * 2), (static_cast<uint64_t>(cat) << 32) | id};
  }

  Trace& trace_;
  std::unordered_map<Key, uint32_t, KeyHash> processByPid_;
  std::unordered_map<Key, uint32_t, KeyHash> trackByKey_;
  std::vector<std::vector<uint32_t>> openSlices_;  // per track: rows of open B / b slices
  // Per (track, lane > 0) of an async track: rows of open b slices, ordered for output.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> laneOpen_;
  std::vector<uint32_t>& openOf(uint32_t track, uint32_t lane) {
    return lane ? laneOpen_[{track, lane}] : openSlices_[track];
  }
  std::unordered_map<StringId, SliceKind> kindByCat_;
  RawId lastPid_, lastTid_;
  RawId lastProcessPid_;
  uint32_t lastProcess_ = ~0u;
  uint32_t lastTrack_ = ~0u;
  uint32_t overflowTrack_ = ~0u;  // the merged track past kMaxTracks, once made
  uint32_t mergedTrack(uint32_t process);
  StringId lastCat_ = ~0u;
  SliceKind lastKind_ = SliceKind::Other;
  std::unordered_map<Key, uint32_t, KeyHash> counterByKey_;
  std::vector<uint8_t> processMetaSet_, trackMetaSet_;  // MetadataField bits, by index
};

}  // namespace opscope
