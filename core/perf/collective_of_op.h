#pragma once
// Which collective an op, or a communication kernel, stands for, read from the ops'
// recorded args (perf/collective_models.h's collectiveFromArgs): the c10d op, its
// record_param_comms and the backend's nccl: annotation each may carry the message.
#include <cstdint>
#include <optional>

#include "model/trace.h"
#include "perf/collective_models.h"

namespace opscope {

class OpInputs;

// The collective op stands for: its own args, else the first nested record_param_comms
// or nccl: annotation that records one (a few levels down: c10d op > record_param_comms
// > nccl:all_reduce). Only collective ops look inside: a backward node holding an
// all-reduce also runs other kernels. nullopt for any other op.
std::optional<CollectiveMessage> collectiveCallOf(const OpInputs& inputs, EventRef op,
                                                  std::optional<int64_t> worldSize);

// The collective a GPU kernel carries out: its launch's enclosing ops, innermost first,
// the first that records one. nullopt when the kernel has no launch, or no op around
// the launch records a message size.
std::optional<CollectiveMessage> collectiveOfKernel(const OpInputs& inputs, EventRef kernel,
                                                    std::optional<int64_t> worldSize);

}  // namespace opscope
