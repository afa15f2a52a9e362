#pragma once
// Predicted time of NCCL/RCCL collectives from the message size and group size the
// profiler records, as nccl-tests defines bus bandwidth: a collective moves
// busBytes = S × factor through each rank's links, where S is the whole buffer
// (all-reduce: the tensor; all-gather: the gathered output, n × input; reduce-scatter:
// the input, n × output; all-to-all: the send buffer) and the factor is 2(n−1)/n for a
// ring all-reduce, (n−1)/n for all-gather, reduce-scatter and all-to-all, 1 for
// broadcast, reduce and point-to-point.
//
// Links (GpuSpec): inside a node of gpusPerNode GPUs, NVLink at nvlinkGBs / 2 (the
// preset's figure is both directions added), or PCIe where the GPU has no NVLink. A
// group larger than a node crosses the network at networkGBs per GPU (one NIC each):
// ring collectives then run at min(NVLink, gpusPerNode × networkGBs) (each ring enters
// and leaves every node once, rings spread over the node's NICs), all-to-all sends the
// share meant for other nodes, S × (n − gpusPerNode) / n, through the GPU's own NIC.
// Plus a fixed latency (kIntraNodeLatencyUs / kInterNodeLatencyUs) and never less than
// the kernel floor.
//
// What this cannot know from one rank's trace: the time a collective's kernel spends
// waiting for its slowest peer to arrive. A rank that waits measures longer than
// the model; its per-op error says how much of the collective was waiting.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/args.h"
#include "perf/gpu_spec.h"

namespace opscope {

enum class CollectiveKind { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, PointToPoint };
const char* collectiveKindName(CollectiveKind k);  // "all_reduce", ...

inline constexpr double kIntraNodeLatencyUs = 10;  // NCCL's small-message all-reduce inside a node
inline constexpr double kInterNodeLatencyUs = 25;  // across nodes over InfiniBand

struct CollectiveMessage {
  CollectiveKind kind = CollectiveKind::AllReduce;
  double bytes = 0;       // S above
  int64_t groupSize = 0;  // ranks taking part
};

// The collective a c10d op or a backend's record_function annotation stands for:
// c10d::allreduce_, nccl:all_reduce, c10d::alltoall_base_, nccl:all_to_all,
// c10d::_allgather_base_, nccl:_reduce_scatter_base, c10d::broadcast_, nccl:recv, ...;
// nullopt for anything else (c10d::barrier moves nothing; FBGEMM's All2All_Pooled_Req
// is a wrapper, whose collective is nested in it).
std::optional<CollectiveKind> collectiveKindFromName(std::string_view name);
// The same for PyTorch's bare "Collective name" values: allreduce, all_to_all,
// _allgather_base, allgather_into_tensor_coalesced, reduce_scatter_tensor, send, ...
std::optional<CollectiveKind> collectiveKindFromCommsName(std::string_view name);

double collectiveBusBytes(const CollectiveMessage& c);
// µs on g; 0 bytes or a group of one: the kernel floor.
double collectiveUs(const GpuSpec& g, const CollectiveMessage& c);

// The call an op's own args describe:
//  - PyTorch ≥ 2.1 record_param_comms: "Collective name", "In msg nelems" / "Out msg
//    nelems" (elements per rank), "dtype" ("Float", "BFloat16", ...), "Group size";
//  - older traces, the op or annotation's name (c10d::alltoall_base_, nccl:all_reduce)
//    with its "Input Dims" / "Input type": c10d ops list output then input
//    (c10d::_allgather_base_: [[n·m, …], [m, …]]), nccl: annotations the input only.
// groupSize from "Group size", else "Process Group Ranks", else worldSize; nullopt when
// the op is no collective, its size is not recorded, or no group size is known.
std::optional<CollectiveMessage> collectiveFromArgs(std::string_view opName, const std::vector<NamedArg>& args,
                                                    std::optional<int64_t> worldSize);

}  // namespace opscope
