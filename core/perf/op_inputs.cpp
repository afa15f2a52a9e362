#include "perf/op_inputs.h"

#include "perf/conv_pairing.h"
#include "perf/tbe_models.h"

namespace opscope {

OpInputs::OpInputs(const Trace& trace) : trace_(trace) {}
OpInputs::~OpInputs() = default;

const std::vector<NamedArg>& OpInputs::args(EventRef e) const {
  auto [it, fresh] = args_.try_emplace(e.packed());
  if (fresh) it->second = trace_.args(e);
  return it->second;
}

const OpShapes& OpInputs::shapes(EventRef op) const {
  auto [it, fresh] = shapes_.try_emplace(op.packed());
  if (fresh) it->second = opShapesFromArgs(args(op));
  return it->second;
}

const std::unordered_map<uint64_t, TbeCall>& OpInputs::tbeCalls() const {
  if (!tbeCalls_) tbeCalls_ = std::make_unique<std::unordered_map<uint64_t, TbeCall>>(tbeCallsOf(*this));
  return *tbeCalls_;
}

const std::unordered_map<uint64_t, ConvProblem>& OpInputs::convCalls() const {
  if (!convCalls_) convCalls_ = convProblemsOf(*this);
  return *convCalls_;
}

}  // namespace opscope
