#pragma once
// The critical path's dependency graph (analysis/critical_path.h), in columnar arrays:
// edges in one flat vector, adjacency as offsets into edge-id arrays (CSR) built once,
// never a container per node (a 1 GB trace's graph of millions of nodes took gigabytes
// as vectors of vectors and a hash map of edges).
//
// Edges and nodes are ordered as networkx' DiGraph orders them, so the longest path
// breaks ties as Holistic Trace Analysis' does: a node enters the graph with its first
// edge, and a repeated (u, v) keeps the place of its first insertion with the data of
// its last.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/critical_path.h"

namespace opscope {

class CpGraph {
 public:
  static constexpr uint32_t kNone = ~0u;
  // 16 bytes: the weight is not stored but computed from the nodes' times (weight()); 24
  // bytes an edge held 37 MB more on 1 GB.
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
  CpGraph(size_t nodes, std::function<TimeNs(uint32_t)> nodeTs) : nodeTs_(std::move(nodeTs)), seen_(nodes, 0) {
    edges_.reserve(nodes + nodes / 8);
  }
  // vts - uts of its nodes, 0 for dependency and sync edges and zeroWeight ones, and
  // clamped at 0 (a child ending after its parent by clock rounding).
  TimeNs weight(const Edge& e) const {
    if (e.type == CpEdgeType::Dependency || e.type == CpEdgeType::Sync || e.zeroWeight) return 0;
    return std::max<TimeNs>(0, nodeTs_(e.to) - nodeTs_(e.from));
  }

  // u -> v; its weight is vts - uts (clamped at 0, counted in clamped) unless the type
  // or zeroWeight makes it 0.
  void add(uint32_t u, TimeNs uts, uint32_t v, TimeNs vts, CpEdgeType type, bool zeroWeight, uint32_t attr);
  // Merges repeated edges and builds the adjacency; add() may not follow.
  void finish();

  // After finish(): the edge u -> v, or nullptr.
  const Edge* find(uint32_t u, uint32_t v) const;
  // networkx.dag_longest_path after finish(): topological generations (Kahn, nodes in
  // insertion order), each node's best predecessor the first of maximal distance, the
  // path ending at the first node of maximal distance. Empty when the graph has a cycle.
  std::vector<uint32_t> longestPath(bool* cycle) const;

  size_t nodeCount() const { return nodeCount_ ? nodeCount_ : order_.size(); }
  // After longestPath: frees what only it reads (the predecessor lists, the node order),
  // keeping edges(), find() and nodeCount() (a 10^6-event chain: 26 MB fewer while the
  // path's segments are built).
  void dropPathSearch();
  const std::vector<Edge>& edges() const { return edges_; }
  uint64_t clamped = 0;
  // Bytes held (the edges, the adjacency, the node order).
  size_t memoryBytes() const;

 private:
  void touch(uint32_t n) {
    if (!seen_[n]) {
      seen_[n] = 1;
      order_.push_back(n);
    }
  }
  std::function<TimeNs(uint32_t)> nodeTs_;
  std::vector<Edge> edges_;
  std::vector<uint8_t> seen_;
  std::vector<uint32_t> order_;
  size_t nodeCount_ = 0;  // set by dropPathSearch
  // CSR: edges out of node n are succ_[succAt_[n] .. succAt_[n + 1]), in insertion order.
  std::vector<uint32_t> succAt_, succ_, predAt_, pred_;
};

}  // namespace opscope
