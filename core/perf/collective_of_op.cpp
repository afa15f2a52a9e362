#include "perf/collective_of_op.h"

#include "hierarchy/queries.h"
#include "perf/op_inputs.h"

namespace opscope {

namespace {

constexpr int kMaxDepth = 4;  // c10d op > record_param_comms > nccl: annotation, and a spare

std::optional<CollectiveMessage> callOf(const OpInputs& inputs, EventRef op, std::optional<int64_t> worldSize,
                                        int depth) {
  const Trace& trace = inputs.trace();
  const std::string_view name = trace.name(op);
  if (name != "record_param_comms" && !collectiveKindFromName(name)) return std::nullopt;
  if (auto c = collectiveFromArgs(name, inputs.args(op), worldSize)) return c;
  if (depth >= kMaxDepth) return std::nullopt;
  for (EventRef c : childrenOf(trace, op))
    if (auto call = callOf(inputs, c, worldSize, depth + 1)) return call;
  return std::nullopt;
}

}  // namespace

std::optional<CollectiveMessage> collectiveCallOf(const OpInputs& inputs, EventRef op,
                                                  std::optional<int64_t> worldSize) {
  return callOf(inputs, op, worldSize, 0);
}

std::optional<CollectiveMessage> collectiveOfKernel(const OpInputs& inputs, EventRef kernel,
                                                    std::optional<int64_t> worldSize) {
  const Trace& trace = inputs.trace();
  const std::optional<EventRef> launch = launchOf(trace, kernel);
  if (!launch) return std::nullopt;
  // Innermost first, annotations included: the nccl: annotation, then record_param_comms,
  // then the c10d op; each by its own args (a parent's children are its ancestors' too).
  std::optional<EventRef> up = trace.parent(*launch);
  if (!up) up = enclosingOp(trace, *launch);  // a legacy launch recorded apart from its op
  for (int levels = 0; up && levels < 4 * kMaxDepth; up = trace.parent(*up), ++levels)
    if (auto c = callOf(inputs, *up, worldSize, kMaxDepth)) return c;
  return std::nullopt;
}

}  // namespace opscope
