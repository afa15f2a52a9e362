#pragma once
// What the performance models read of a trace, read once per prediction. With lazy
// args (a plain JSON trace), Trace::args goes back to the file on every call; a
// prediction runs the op models several times (its own run, the calibrated companion,
// calibration's two passes on the first iteration), and each model and pairing
// (collectives, FBGEMM's TBE pairs, convolutions completed from their backward) looked
// at an op's args again. An OpInputs keeps every args list and parsed shapes it was
// asked for, and the pairings, for the prediction's lifetime.
//
// Not thread-safe: one prediction (one thread) at a time; share it only between the
// passes of one prediction. The trace must outlive it.
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/args.h"
#include "model/trace.h"
#include "perf/conv_problem.h"
#include "perf/op_models.h"

namespace opscope {

struct TbeCall;

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
  // Every TBE op's call, paired (tbe_models.h); built on first use.
  const std::unordered_map<uint64_t, TbeCall>& tbeCalls() const;
  // Convolutions completed from their backward (conv_pairing.h); built on first use.
  const std::unordered_map<uint64_t, ConvProblem>& convCalls() const;
  // How many events' args were read from the trace (each at most once).
  size_t argsRead() const { return args_.size(); }

 private:
  const Trace& trace_;
  mutable std::unordered_map<uint64_t, std::vector<NamedArg>> args_;
  mutable std::unordered_map<uint64_t, OpShapes> shapes_;
  mutable std::unique_ptr<std::unordered_map<uint64_t, TbeCall>> tbeCalls_;
  mutable std::optional<std::unordered_map<uint64_t, ConvProblem>> convCalls_;
};

}  // namespace opscope
