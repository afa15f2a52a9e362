#pragma once
// What the performance models read of a trace, read once per prediction. With lazy
// args (a plain JSON trace), Trace::args goes back to the file on every call; a
// prediction runs the op models several times (its own run, the calibrated companion,
// calibration's two passes on the first iteration), and each model and pairing
// (collectives, FBGEMM's TBE pairs, convolutions completed from their backward) looked
// at an op's args again. An OpInputs keeps what it was asked for, and the pairings,
// for the prediction's lifetime.
//
// Bounded on large traces (a 1 GB trace holds a million ops and as many kernels):
// shapes and kernel launches are interned (a training step repeats a few thousand
// distinct shapes a million times), so an op costs a 4-byte index; full args lists are
// kept only for the ops whose other args a model reads (collectives and convolutions,
// their autograd nodes included: argsKeptFor). prefetch() reads every op's and kernel's args of a
// window in one pass over the file instead of one read each.
//
// Not thread-safe until shareBetweenThreads(): before it, one thread at a time (the
// passes of one prediction); after it, any number of threads read it at once. The trace
// must outlive it. References it returns stay valid for its lifetime.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/op_index.h"
#include "model/args.h"
#include "model/trace.h"
#include "perf/conv_problem.h"
#include "perf/op_models.h"

namespace opscope {

struct TbeCall;

// A kernel's recorded grid and block (zeros where not recorded).
struct KernelLaunchDims {
  std::array<int64_t, 3> grid{}, block{};
  friend bool operator==(const KernelLaunchDims&, const KernelLaunchDims&) = default;
};

class OpInputs {
 public:
  explicit OpInputs(const Trace& trace);
  ~OpInputs();
  OpInputs(const OpInputs&) = delete;
  OpInputs& operator=(const OpInputs&) = delete;

  const Trace& trace() const { return trace_; }
  // The event's args, read from the trace the first time.
  const std::vector<NamedArg>& args(EventRef e) const;
  // The op's recorded shapes (opShapesFromArgs of its args), parsed the first time.
  const OpShapes& shapes(EventRef op) const;
  // The kernel's recorded grid and block, read the first time.
  const KernelLaunchDims& launch(EventRef kernel) const;
  // Reads, in one pass, the args of every op starting in window (every op: nullopt) and
  // of every kernel starting at or after its start, that were not read yet.
  void prefetch(std::optional<TimeWindow> window) const;
  // Reads everything a model can ask of the trace's ops and kernels now (prefetch of the
  // whole trace, the pairings) and from then on only reads its tables, so that several
  // threads may use it at once (a prediction's calibrated companion beside its own run).
  // What is asked afterwards that was not read (an event prefetch does not cover) is
  // read under a lock into storage of its own: same answers, never a table written
  // while another thread reads it.
  void shareBetweenThreads() const;
  // From how many events to read a prefetch on two threads (default 200,000; tests lower
  // it to reach the two-thread path on small traces).
  void setParallelPrefetchFrom(size_t events) { parallelFrom_ = events; }
  // The trace's op index (analysis/op_index.h), built on first use: every pass of a
  // prediction (its own, the companion's, calibration's two) and its simulations
  // asked for one of their own, 0.03 s each on 1 GB.
  const OpIndex& opIndex() const;
  // Every TBE op's call, paired (tbe_models.h); built on first use.
  const std::unordered_map<uint64_t, TbeCall>& tbeCalls() const;
  // Convolutions completed from their backward (conv_pairing.h); built on first use.
  const std::unordered_map<uint64_t, ConvProblem>& convCalls() const;
  // Distinct shapes and launches held, and full args lists kept.
  size_t distinctShapes() const { return shapeTable_.size(); }
  size_t distinctLaunches() const { return launchTable_.size(); }
  size_t argsKept() const { return args_.size(); }

 private:
  static constexpr uint32_t kUnread = UINT32_MAX;
  uint32_t& slot(std::vector<std::vector<uint32_t>>& column, EventRef e) const;
  // Files the args just read for e: its shapes or launch interned, its args kept when
  // argsKeptFor its name. In two steps for prefetch's threads: taken works out what to
  // file (touching no table), file writes the tables.
  void take(EventRef e, bool kernel, std::vector<NamedArg>&& args) const;
  struct Taken {
    EventRef e;
    bool kernel = false, keep = false;
    std::string key;  // shapeKey or launchKey of args
    std::vector<NamedArg> args;
  };
  Taken taken(EventRef e, bool kernel, std::vector<NamedArg>&& args) const;
  void file(Taken&& t) const;

  const Trace& trace_;
  mutable std::unordered_map<uint64_t, std::vector<NamedArg>> args_;
  // Per track and slice: an index into the tables, kUnread until read.
  mutable std::vector<std::vector<uint32_t>> shapeOf_, launchOf_;
  mutable std::deque<OpShapes> shapeTable_;  // [0]: nothing recorded
  mutable std::unordered_map<std::string, uint32_t> shapeKeys_;
  mutable std::deque<KernelLaunchDims> launchTable_;
  mutable std::unordered_map<std::string, uint32_t> launchKeys_;  // the grid and block args' text
  mutable std::unique_ptr<OpIndex> opIndex_;
  mutable std::unique_ptr<std::unordered_map<uint64_t, TbeCall>> tbeCalls_;
  mutable std::optional<std::unordered_map<uint64_t, ConvProblem>> convCalls_;
  // Set by shareBetweenThreads (before the threads start); the stores below hold what
  // is read after it, each entry on the heap so references stay put.
  mutable bool shared_ = false;
  size_t parallelFrom_ = 200'000;
  mutable std::mutex lateMutex_;
  mutable std::unordered_map<uint64_t, std::unique_ptr<std::vector<NamedArg>>> lateArgs_;
  mutable std::unordered_map<uint64_t, std::unique_ptr<OpShapes>> lateShapes_;
  mutable std::unordered_map<uint64_t, std::unique_ptr<KernelLaunchDims>> lateLaunches_;
  // The slot of e in column when it was read, else nullptr; never writes.
  const uint32_t* readSlot(const std::vector<std::vector<uint32_t>>& column, EventRef e) const;
};

// Whether a model reads args of an op of this name beyond its shapes: collectives and
// record_param_comms (message sizes), convolutions and autograd nodes (sequence numbers).
bool argsKeptFor(std::string_view name);

}  // namespace opscope
