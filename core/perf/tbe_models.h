#pragma once
// FBGEMM table-batched embeddings (TBE) as Kineto records them, priced with the
// notebook's forward, SGD and row-wise Adagrad predictors (kernel_models.h).
//
//   forward   fbgemm::split_embedding_codegen_lookup_<optimizer>_function
//             Input Dims, FBGEMM's positional arguments (stable since 2021):
//               1 dev_weights [ΣE_t·D_t]  2 uvm_weights  4 weights_placements [T]
//               6 D_offsets [T+1]  7 total_D  11 indices [N]  12 offsets [T·B+1]
//               14 indice_weights ([N] when weighted, absent otherwise)
//   backward  torch::autograd::CppNode<SplitLookupFunction_<optimizer>_Op>
//             (inside autograd's evaluate_function node): Input Dims [[B, total_D]],
//             the pooled output's gradient, and nothing else.
//
// Neither half says everything: the forward knows T, B and N but D only through
// total_D's concrete value (PyTorch >= 2.1) or, for row-wise Adagrad, its momentum
// (one float per row: D = dev_weights / ΣE); the backward knows total_D but not T or N.
// pairTbeCalls matches each backward with its forward, the way autograd runs them:
// the latest earlier forward of the same optimizer and batch whose T divides total_D
// (and agrees with its D when known) that no later backward took. The notebook had
// no such pairing and hard-coded the backward's L; here it is the forward's N / (B·T).
//
// Not priced: UVM-placed or cached tables (the DRAM/L2 models do not hold), inference
// TBE (int_nbit_…), the dense variant (other arguments), backward optimizers other
// than SGD and row-wise Adagrad (their forward still is).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/trace.h"
#include "perf/op_models.h"

namespace opscope {

struct TbeCall {
  bool backward = false;
  std::string optimizer;    // "sgd", "rowwise_adagrad", … as the op name spells it
  int64_t tables = 0;       // T
  int64_t batch = 0;        // B
  int64_t indices = 0;      // N, over all tables and bags
  int64_t weightElems = 0;  // ΣE_t·D_t (forward's dev_weights)
  int64_t totalDim = 0;     // Σ D_t; 0 while unknown
  bool weighted = false;    // per-sample weights (indice_weights given)
  bool paired = false;      // the other half was found (its fields copied in)
  uint32_t group = 0;       // calls pair within one group only: the process (a merged
                            // session's ranks run the same lookups at the same times)
  double bag() const {
    return tables > 0 && batch > 0 ? static_cast<double>(indices) / static_cast<double>(tables * batch) : 0;
  }
  int64_t dim() const { return tables > 0 ? totalDim / tables : 0; }  // mean D
  // Forward and backward both need T, B and D; the backward also N (from its forward).
  bool complete() const { return tables > 0 && batch > 0 && totalDim >= tables && (!backward || paired); }
};

// The call an op stands for, from its name and shapes; nullopt when it is not a TBE op
// of a kind priced here or its shapes do not fit FBGEMM's arguments.
std::optional<TbeCall> tbeCall(std::string_view opName, const OpShapes& shapes);

// calls: every TBE call of a trace, in start order. Completes each backward (and any
// forward without total_D) from its pair, found in its own group.
void pairTbeCalls(std::vector<TbeCall*>& calls);

class OpInputs;
// Every TBE op of the trace (packed EventRef -> call), paired; args read through inputs.
std::unordered_map<uint64_t, TbeCall> tbeCallsOf(const OpInputs& inputs);

// A complete call's GPU time: the forward kernel (rows per block from its launch's
// block.y, 32 when not recorded); the backward's update kernel (SGD or row-wise
// Adagrad), FBGEMM's index sort before it (linearize, radix sort over the bits ΣE
// needs, run-length segments: their bytes, a kernel floor for each kernel launched
// besides the update) and, when weighted, the per-sample weights' gradient (a grad
// row and a weight row per index). nullopt when incomplete or the backward's optimizer
// has no model. At least the kernel floor.
std::optional<OpPrediction> tbePrediction(const GpuSpec& g, const TbeCall& c, const std::vector<KernelLaunch>& kernels);

}  // namespace opscope
