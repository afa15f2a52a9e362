#include "perf/collective_models.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string>

#include "perf/op_models.h"

namespace opscope {

const char* collectiveKindName(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::AllReduce:
      return "all_reduce";
    case CollectiveKind::AllGather:
      return "all_gather";
    case CollectiveKind::ReduceScatter:
      return "reduce_scatter";
    case CollectiveKind::AllToAll:
      return "all_to_all";
    case CollectiveKind::Broadcast:
      return "broadcast";
    case CollectiveKind::Reduce:
      return "reduce";
    case CollectiveKind::PointToPoint:
      return "send_recv";
  }
  return "?";
}

std::optional<CollectiveKind> collectiveKindFromName(std::string_view name) {
  // Only c10d's ops and the backends' annotations: FBGEMM's ReduceScatterBase_Req and
  // All2All_Pooled_Wait are wrappers holding other work besides their collective, and
  // "aten::send" is none.
  for (std::string_view prefix : {"c10d::", "nccl:", "rccl:"})
    if (name.starts_with(prefix)) return collectiveKindFromCommsName(name.substr(prefix.size()));
  return std::nullopt;
}

std::optional<CollectiveKind> collectiveKindFromCommsName(std::string_view name) {
  if (name.find(':') != std::string_view::npos) return std::nullopt;
  std::string n;  // underscores dropped: _allgather_base_, all_gather_into_tensor, ...
  for (char c : name)
    if (c != '_') n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n.find("barrier") != std::string::npos) return std::nullopt;
  if (n.starts_with("allreduce")) return CollectiveKind::AllReduce;
  if (n.starts_with("alltoall")) return CollectiveKind::AllToAll;
  if (n.starts_with("allgather")) return CollectiveKind::AllGather;
  if (n.starts_with("reducescatter")) return CollectiveKind::ReduceScatter;
  if (n.starts_with("broadcast")) return CollectiveKind::Broadcast;
  if (n == "reduce") return CollectiveKind::Reduce;
  if (n.starts_with("send") || n.starts_with("recv")) return CollectiveKind::PointToPoint;
  return std::nullopt;
}

double collectiveBusBytes(const CollectiveMessage& c) {
  const double n = static_cast<double>(std::max<int64_t>(1, c.groupSize));
  switch (c.kind) {
    case CollectiveKind::AllReduce:
      return c.bytes * 2 * (n - 1) / n;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll:
      return c.bytes * (n - 1) / n;
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::PointToPoint:
      return c.bytes;
  }
  return c.bytes;
}

double collectiveUs(const GpuSpec& g, const CollectiveMessage& c) {
  const double floor = g.kernelFloorUs;
  if (c.groupSize <= 1 || c.bytes <= 0) return floor;
  const double n = static_cast<double>(c.groupSize);
  const double perNode = std::max(1, g.gpusPerNode);
  const double intra = g.nvlinkGBs > 0 ? g.nvlinkGBs / 2 : g.pcieGBs;  // one direction
  const double nic = g.networkGBs > 0 ? g.networkGBs : g.pcieGBs;
  if (intra <= 0) return floor;
  const bool spansNodes = n > perNode;
  double us = 0;
  if (!spansNodes) {
    us = kIntraNodeLatencyUs + collectiveBusBytes(c) / (intra * 1e3);
  } else if (c.kind == CollectiveKind::AllToAll || c.kind == CollectiveKind::PointToPoint) {
    // All-to-all: the shares for the GPUs of this node over NVLink, the rest through
    // this GPU's NIC, both at once. A point-to-point transfer between nodes (the peer
    // is not recorded) is taken to cross the network.
    const double local = c.kind == CollectiveKind::AllToAll ? c.bytes * (perNode - 1) / n : 0;
    const double remote = c.kind == CollectiveKind::AllToAll ? c.bytes * (n - perNode) / n : c.bytes;
    us = kInterNodeLatencyUs + std::max(local / (intra * 1e3), nic > 0 ? remote / (nic * 1e3) : 0);
  } else {
    const double bus = std::min(intra, perNode * nic);
    us = kInterNodeLatencyUs + (bus > 0 ? collectiveBusBytes(c) / (bus * 1e3) : 0);
  }
  return std::max(us, floor);
}

namespace {

const NamedArg* findArg(const std::vector<NamedArg>& args, std::string_view key) {
  for (const NamedArg& a : args)
    if (a.key == key) return &a;
  return nullptr;
}

// "Process Group Ranks": "[0, 1, 2, 3]" (a string holding a JSON list).
std::optional<int64_t> ranksInGroup(const std::vector<NamedArg>& args) {
  const NamedArg* a = findArg(args, "Process Group Ranks");
  if (!a || (a->type != ArgType::String && a->type != ArgType::Json)) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(a->text, nullptr, false);
  if (!j.is_array() || j.empty()) return std::nullopt;
  return static_cast<int64_t>(j.size());
}

}  // namespace

std::optional<CollectiveMessage> collectiveFromArgs(std::string_view opName, const std::vector<NamedArg>& args,
                                                    std::optional<int64_t> worldSize) {
  CollectiveMessage c;
  std::optional<int64_t> group = intArg(args, "Group size");
  if (!group) group = ranksInGroup(args);
  if (!group) group = worldSize;
  if (!group || *group < 1) return std::nullopt;
  c.groupSize = *group;

  if (const NamedArg* name = findArg(args, "Collective name"); name && name->type == ArgType::String) {
    const auto kind = collectiveKindFromCommsName(name->text);
    if (!kind) return std::nullopt;
    c.kind = *kind;
    const double in = static_cast<double>(std::max<int64_t>(0, intArg(args, "In msg nelems").value_or(0)));
    const double out = static_cast<double>(std::max<int64_t>(0, intArg(args, "Out msg nelems").value_or(0)));
    const NamedArg* dtype = findArg(args, "dtype");
    const double size =
        dtypeBytes(dtype && dtype->type == ArgType::String ? dtypeFromProfilerName(dtype->text) : DType::Unknown);
    const double n = static_cast<double>(c.groupSize);
    double elements = in > 0 ? in : out;
    if (c.kind == CollectiveKind::AllGather) elements = out > 0 ? out : in * n;
    if (c.kind == CollectiveKind::ReduceScatter) elements = in > 0 ? in : out * n;
    c.bytes = elements * size;
    if (c.bytes <= 0) return std::nullopt;
    return c;
  }

  const auto kind = collectiveKindFromName(opName);
  if (!kind) return std::nullopt;
  c.kind = *kind;
  const OpShapes s = opShapesFromArgs(args);
  if (!s.recorded()) return std::nullopt;
  if (opName.starts_with("c10d::")) {
    // c10d ops list their outputs before their inputs where they have both.
    switch (c.kind) {
      case CollectiveKind::AllToAll:
      case CollectiveKind::ReduceScatter:
        c.bytes = s.bytes(1);
        break;
      default:
        c.bytes = s.bytes(0);
        break;
    }
  } else {  // nccl:/rccl: annotations record the input tensor
    c.bytes = s.bytes(0);
    if (c.kind == CollectiveKind::AllGather) c.bytes *= static_cast<double>(c.groupSize);
  }
  if (c.bytes <= 0) return std::nullopt;
  return c;
}

}  // namespace opscope
