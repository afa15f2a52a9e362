#pragma once
// The Chrome/Kineto JSON reader behind loadChromeJson (io/chrome_json_loader.h): one
// reader streams the whole input, or, in a parallel load, the first part of a plain
// file while readers of the later parts run on threads of their own
// (io/chrome_json_parallel.cpp). Internal to the loader's two files.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "io/byte_source.h"
#include "io/chrome_event_parser.h"
#include "io/chrome_raw_event.h"
#include "io/file_args.h"
#include "io/json_read_window.h"
#include "io/json_scanner.h"
#include "io/load_result.h"
#include "model/trace_builder.h"

namespace opscope::chrome_json {

struct Parts;

// Threads for parsing one input (io/chrome_json_parallel.cpp).
unsigned loadThreads(const LoadOptions& opts);

// What the parts of one parallel load share: cancellation and their progress.
struct PartsShared {
  std::atomic<bool> cancel{false};
  std::atomic<uint64_t> bytes{0}, events{0};
  std::mutex mutex;
  std::condition_variable done;
  size_t running = 0;
};

class Reader {
 public:
  // The whole input (and, when parallel, its first part).
  Reader(ByteSource& src, const LoadOptions& opts)
      : src_(src),
        opts_(opts),
        trace_(std::make_unique<Trace>()),
        builder_(std::make_unique<TraceBuilder>(*trace_)),
        window_(src, opts.progress ? std::function<bool(uint64_t, uint64_t)>([this](uint64_t done, uint64_t total) {
                  return opts_.progress(progressNow(done, total));
                })
                                   : std::function<bool(uint64_t, uint64_t)>()),
        // Plain regular files keep args in the file: read back by offset when asked.
        lazyArgs_(!opts.eagerArgs && !src.randomAccessPath().empty()),
        parser_(*trace_, *builder_, window_, lazyArgs_, opts.keepOpShapes, opts.keepKernelLaunches) {
    builder_->setLazyArgs(lazyArgs_);
    if (lazyArgs_)
      trace_->lazyArgs = std::make_shared<FileArgs>(src.randomAccessPath(), src.totalSize(), src.fileMtimeNs());
  }
  // A later part: the events from byte `begin` (src starts there) up to the cut `stopAt`
  // (0: the last part, which reads on to the end of the input), or, in a gzip file's
  // parts, up to `nextCut` once the next part's thread has found it (null: the last).
  // A plain file's parts read args back from the file (lazy); a gzip file's keep them.
  Reader(ByteSource& src, const LoadOptions& opts, PartsShared& shared, uint64_t begin, uint64_t stopAt, bool arrayForm,
         bool lazyArgs = true, const std::atomic<uint64_t>* nextCut = nullptr, uint64_t nextFrom = 0)
      : src_(src),
        opts_(opts),
        trace_(std::make_unique<Trace>()),
        builder_(std::make_unique<TraceBuilder>(*trace_)),
        window_(
            src, [this](uint64_t done, uint64_t) { return partProgress(done); }, begin),
        lazyArgs_(lazyArgs),
        parser_(*trace_, *builder_, window_, lazyArgs, opts.keepOpShapes, opts.keepKernelLaunches),
        shared_(&shared),
        part_(true),
        partBegin_(begin),
        stopAt_(stopAt),
        nextCut_(nextCut),
        nextFrom_(nextFrom) {
    arrayForm_ = arrayForm;
    builder_->setLazyArgs(lazyArgs);
    builder_->setDeferUnmatchedEnds(true);  // their begins may lie in an earlier part
  }
  ~Reader();

  LoadResult run();
  uint64_t peakWindow() const { return window_.peakBytes(); }
  unsigned partsAbsorbed() const { return partsAbsorbed_; }

 private:
  friend struct Parts;
  // How a later part's parse ended.
  enum class PartEnd { None, AtCut, End, Misplaced };

  enum class State { Start, ObjectFirstKey, ObjectNextKey, TopValue, EventsFirst, EventsNext, SkipTopValue, Done };

  // A top-level value the model does not use, skipped as it streams by (Perfetto's
  // "systemTraceEvents" can be hundreds of MB of text); the first bytes are kept for
  // TraceMetadata::other.
  struct TopValueSkip {
    std::string key;
    std::vector<char> closers;
    bool started = false, inString = false, escaped = false, scalar = false;
    std::string head;  // up to kKeptTopValueBytes + 1 bytes
    uint64_t bytes = 0;
  };
  static constexpr size_t kKeptTopValueBytes = 4096;
  // Consumes from sc_.p; true once the value ended (sc_.p just past it).
  bool skipTopValue(TopValueSkip& k);

  void parseEvent(RawEvent& ev);
  void parseArgs(RawEvent& ev);
  RawIdText parseIdValue(bool id2 = false);  // id2: its {"global"|"local": v} read too (readId2)
  void readId2(RawIdText& out);
  // The text of a number (the usual case for ts/dur) or of any other value.
  std::string_view numberOrValue(char first) {
    return first == '-' || (first >= '0' && first <= '9') ? sc_.number() : sc_.skipValue();
  }

  ByteSource& src_;
  const LoadOptions& opts_;
  std::unique_ptr<Trace> trace_;
  std::unique_ptr<TraceBuilder> builder_;
  JsonReadWindow window_;
  bool lazyArgs_ = false;
  ChromeEventParser parser_;
  JsonScanner sc_;
  bool sawTraceEvents_ = false;
  bool arrayForm_ = false;
  TopValueSkip topSkip_;
  bool absorbed_ = false;   // the parts' models are in this one: the input ended in the last
  std::string pendingKey_;  // the top-level key whose value comes next
  std::vector<std::string> topKeys_;

  // Parallel loading.
  LoadProgress progressNow(uint64_t done, uint64_t total) const;
  mutable uint64_t progressBytes_ = 0, progressEvents_ = 0;  // the most reported
  bool partProgress(uint64_t done);
  // At the first element of traceEvents (offset `at`): starts the later parts.
  void startParts(uint64_t at);
  // The same for a regular gzip file (chrome_json_gzip_parts.cpp): each later part's
  // thread inflates the file from its start up to near its share, finds an event start
  // there (its cut, published in Parts::cutAt) and parses on from it.
  void startGzipParts(uint64_t at);
  // At an element of traceEvents (offset `at`): the next part's cut once its thread has
  // found it, waited for from `nextFrom_` on (the cut lies at or after it, so a reader
  // before it never passes it unknowingly). False when that thread found none (the parts
  // cannot be used).
  bool learnCut(uint64_t at);
  // At the first cut: waits for the parts and absorbs them; false when they cannot be
  // used (dropped: this loader reads on in one pass).
  bool absorbParts();
  void dropParts();
  PartsShared* shared_ = nullptr;
  bool part_ = false;  // a later part
  uint64_t partBegin_ = 0, stopAt_ = 0;
  const std::atomic<uint64_t>* nextCut_ = nullptr;  // gzip parts: where the next begins
  uint64_t nextFrom_ = 0;                           // and where its thread looks from
  uint64_t reportedBytes_ = 0, reportedEvents_ = 0;
  PartEnd partEnd_ = PartEnd::None;
  bool partTruncated_ = false;
  bool planned_ = false;
  bool cancelledWaiting_ = false;
  uint64_t inputEnd_ = 0;  // after absorbing: where the last part's input ended
  uint64_t valueEnd_ = 0;  // where the top-level value ended (with the whitespace after it)
  bool lastTruncated_ = false;
  unsigned partsAbsorbed_ = 1;
  std::unique_ptr<Parts> parts_;
};

// The later parts of a parallel load, each a reader on its own thread and source.
struct Parts {
  struct Part {
    std::unique_ptr<ByteSource> src;
    std::unique_ptr<Reader> loader;
    LoadResult result;
  };
  // Where a gzip file's parts begin (decompressed offsets), as their threads find them:
  // 0 while looking, kNoCut when none was found. Plain files' cuts are known up front.
  static constexpr uint64_t kNoCut = ~uint64_t{0};
  std::unique_ptr<std::atomic<uint64_t>[]> cutAt;
  bool gzip = false;
  uint64_t sizeGuess = 0;  // gzip: the decompressed size the shares were cut from
  PartsShared shared;
  std::vector<Part> parts;  // in file order
  std::vector<std::thread> threads;

  void join() {
    for (std::thread& t : threads)
      if (t.joinable()) t.join();
  }
  ~Parts() {
    shared.cancel = true;
    join();
  }
};

}  // namespace opscope::chrome_json
