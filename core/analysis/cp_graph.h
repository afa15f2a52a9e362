#pragma once
// The critical path's dependency graph (analysis/critical_path.h), in columnar arrays:
// while it is built, one flat vector of the edges added; once finished, the edges by
// source (CSR: offsets a node, 8 bytes an edge and its insertion rank), never a container
// per node (a 1 GB trace's graph of millions of nodes took gigabytes as vectors of vectors
// and a hash map of edges).
//
// Edges and nodes are ordered as networkx' DiGraph orders them, so the longest path
// breaks ties as Holistic Trace Analysis' does: a node enters the graph with its first
// edge, and a repeated (u, v) keeps the place of its first insertion with the data of
// its last. The place is kept as the edge's rank (its index among the edges added).
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/critical_path.h"

namespace opscope {

class CpGraph {
 public:
  static constexpr uint32_t kNone = ~0u;
  // An edge names its event (attr) in 28 bits, its type and zeroWeight in the other 4:
  // attr is at most kMaxAttr (the builder refuses a window of more events).
  static constexpr uint32_t kMaxAttr = (1u << 28) - 2;
  static constexpr size_t kEdgeTypes = 5;

  // An edge as add() takes it and find() gives it back.
  struct Edge {
    uint32_t from = 0, to = 0;
    uint32_t attr = kNone;  // the event an Operator / KernelKernelDelay edge's time is spent in
    CpEdgeType type = CpEdgeType::Dependency;
    bool zeroWeight = false;  // a blocking call's end: its time is the GPU work it waits for
  };

  // Room for as many edges as nodes and an eighth more, reserved: the graphs of real
  // traces have about as many (4.10 M edges for 4.10 M nodes on 1 GB), and growing by
  // doubling held up to twice that.
  // nodeTs: a node's time (the builder's; read while the graph lives).
  CpGraph(size_t nodes, std::function<TimeNs(uint32_t)> nodeTs) : nodeTs_(std::move(nodeTs)), nodes_(nodes) {
    added_.reserve(nodes + nodes / 8);
  }
  // vts - uts of its nodes, 0 for dependency and sync edges and zeroWeight ones, and
  // clamped at 0 (a child ending after its parent by clock rounding).
  TimeNs weight(const Edge& e) const { return weight(e.from, e.to, e.type, e.zeroWeight); }

  // u -> v (nodes below the constructor's count, attr at most kMaxAttr or kNone); its
  // weight is vts - uts (clamped at 0, counted in clamped) unless the type or zeroWeight
  // makes it 0.
  void add(uint32_t u, TimeNs uts, uint32_t v, TimeNs vts, CpEdgeType type, bool zeroWeight, uint32_t attr);
  // Merges repeated edges and builds the adjacency; add() may not follow.
  void finish();

  // After finish(): the edge u -> v, if there is one.
  std::optional<Edge> find(uint32_t u, uint32_t v) const;
  // networkx.dag_longest_path after finish(): topological generations (Kahn; the first
  // generation in the order its nodes entered the graph, each next one in the order its
  // nodes' last in-edge was removed), each node's best predecessor the first in-edge (by
  // rank) of maximal distance, the path ending at the first node taken of maximal
  // distance. Empty when the graph has a cycle.
  std::vector<uint32_t> longestPath(bool* cycle) const;
  // After longestPath: frees what only it reads (the edges' ranks, the first generation),
  // keeping find(), the counts and edgesByType().
  void dropPathSearch();

  size_t nodeCount() const { return nodeCount_; }  // after finish(): nodes with an edge
  size_t edgeCount() const { return out_.size(); }
  std::array<size_t, kEdgeTypes> edgesByType() const;
  uint64_t clamped = 0;

 private:
  // attr, type and zeroWeight in one word.
  static uint32_t pack(uint32_t attr, CpEdgeType type, bool zeroWeight) {
    return (attr == kNone ? kMaxAttr + 1 : attr) | static_cast<uint32_t>(type) << 28 | uint32_t{zeroWeight} << 31;
  }
  static uint32_t attrOf(uint32_t p) { return (p & 0x0FFFFFFFu) == kMaxAttr + 1 ? kNone : p & 0x0FFFFFFFu; }
  static CpEdgeType typeOf(uint32_t p) { return static_cast<CpEdgeType>(p >> 28 & 7); }
  static bool zeroOf(uint32_t p) { return p >> 31; }
  TimeNs weight(uint32_t u, uint32_t v, CpEdgeType type, bool zeroWeight) const {
    if (type == CpEdgeType::Dependency || type == CpEdgeType::Sync || zeroWeight) return 0;
    return std::max<TimeNs>(0, nodeTs_(v) - nodeTs_(u));
  }
  // The source of stored edge k (a binary search of the offsets).
  uint32_t sourceOf(uint32_t k) const;

  struct Added {  // while building: 12 bytes an edge, in insertion order
    uint32_t from, to, packed;
  };
  struct Out {  // finished: 8 bytes an edge, its source given by the offsets
    uint32_t to, packed;
  };
  std::function<TimeNs(uint32_t)> nodeTs_;
  size_t nodes_ = 0;
  std::vector<Added> added_;
  size_t nodeCount_ = 0;
  // Edges out of node n are out_[at_[n] .. at_[n + 1]), in rank order; rank_[k] is out_[k]'s
  // index among the edges added (its first insertion's).
  std::vector<uint32_t> at_, rank_;
  std::vector<Out> out_;
  std::vector<uint32_t> sources_;  // the nodes no edge enters, in the order they entered the graph
};

}  // namespace opscope
