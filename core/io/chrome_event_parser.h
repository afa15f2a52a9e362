#pragma once
// The meaning of Chrome trace events (Kineto / PyTorch profiler, its legacy dialect,
// chrome://tracing, Perfetto's JSON): each raw event the tokenizer found becomes slices,
// instants, counters, flow points, memory events or metadata in the TraceBuilder, with
// every oddity counted as a warning at its place in the file. Top-level values
// (schemaVersion, deviceProperties, distributedInfo, ...) become TraceMetadata.
#include <string>
#include <string_view>
#include <vector>

#include "io/chrome_raw_event.h"
#include "io/json_read_window.h"
#include "model/trace.h"
#include "model/trace_builder.h"

namespace opscope {

// A merged session opscope wrote as one file (report/trace_writer.h) labels every process
// "rank N" or "rank N, …": when every process of the loaded trace carries such a label,
// each becomes that process's rank (the labels keep what follows). A trace where some
// process lacks one is left as it is: "rank 0" is an ordinary label there. A process
// name ending in that rank's " (rank N)" (the writer adds it for viewers that ignore
// labels) loses the mark.
void applyRankLabels(Trace& trace);

class ChromeEventParser {
 public:
  // window: where the raw events' text lies, for the warnings' positions. lazyArgs: args
  // stay in the file (read back by offset), only the indexed ones are lifted.
  // keepOpShapes, keepKernelLaunches (with lazyArgs): LoadOptions' (Trace::keptArgs).
  ChromeEventParser(Trace& trace, TraceBuilder& builder, const JsonReadWindow& window, bool lazyArgs,
                    bool keepOpShapes = false, bool keepKernelLaunches = false);

  void event(RawEvent& ev);
  void topLevelValue(std::string_view key, std::string_view raw);
  void warn(WarningKind kind, const char* at, std::string_view example);
  // What the events said the file is: "kineto-json", "legacy-pytorch-json" or "chrome-json".
  const char* format() const;
  // Parallel loading: what a part's parser saw of the file's dialect counts here too.
  void absorbDialect(const ChromeEventParser& part) {
    sawKineto_ = sawKineto_ || part.sawKineto_;
    sawLegacy_ = sawLegacy_ || part.sawLegacy_;
  }

 private:
  bool timeField(const RawEvent& ev, std::string_view text, bool wasString, const char* field, TimeNs& out);
  RawId rawId(const RawIdText& t, const RawEvent& ev, const char* field);
  bool argId(const RawArg& a, const RawEvent& ev, int64_t& out);
  void encodeArgs(RawEvent& ev, SliceInput& in);
  void addMemoryEvent(const RawEvent& ev, TimeNs ts, const RawId& pid);
  void liftId(const RawArg& a, const RawEvent& ev, int64_t& out);
  void metadataEvent(const RawEvent& ev, uint32_t process, const RawId& pid, const RawId& tid);
  StringId internId(const RawIdText& t);
  // The pool's id of raw JSON text made compact (compactJson).
  StringId compactJsonId(std::string_view raw);
  StringId asyncIdAndLane(const RawIdText& t, uint32_t& lane);  // lane 0: not a lane id
  static AsyncScope asyncScope(const RawIdText& t);

  Trace& trace_;
  TraceBuilder& builder_;
  const JsonReadWindow& window_;
  bool lazyArgs_;
  bool keepOpShapes_, keepKernelLaunches_;
  ArgsWriter argsWriter_;
  std::string jsonScratch_;  // compactJson's copy of an indented array or object
  std::string keptScratch_;  // keptArgsText's buffer
  // Raw JSON values as the file writes them -> their compact text's id in the trace's
  // pool (compactJsonIds_[raw id]): an op's shape lists repeat a few thousand texts
  // millions of times, compacted once each. Bounded: past kRawJsonCacheBytes (texts and
  // entries) new texts are compacted every time.
  static constexpr size_t kRawJsonCacheBytes = size_t{2} << 20;  // a parser (a part) each
  // What an entry costs beside its text (its view, hash, slot and id): millions of tiny
  // distinct arrays ("[0]", "[1]", ...) are bounded too.
  static constexpr size_t kRawJsonEntryBytes = 40;
  StringPool rawJson_;
  std::vector<StringId> compactJsonIds_ = {0};  // both pools' id 0 is the empty text
  size_t rawJsonBytes_ = 0;
  StringId keyCorrelation_, keyExternalId_, keyExternalIdLegacy_, keyStream_, keyDevice_, keyDeviceLegacy_;
  bool sawKineto_ = false, sawLegacy_ = false;
  // Which dialect a category names (a legacy "Operator"/"Kernel"..., a Kineto
  // "cpu_op"/"kernel"..., or neither), by its id, so each event is not compared by text
  // again. Ids from kDialectMemo up (a file of millions of distinct categories) are.
  static constexpr uint8_t kDialectUnknown = 0, kDialectNone = 1, kDialectLegacy = 2, kDialectKineto = 3;
  static constexpr StringId kDialectMemo = StringId{1} << 16;
  std::vector<uint8_t> catDialect_;
  void noteDialect(StringId catId, std::string_view cat);
};

}  // namespace opscope
