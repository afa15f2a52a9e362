#include "perf/conv_pairing.h"

#include "perf/op_inputs.h"

#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "hierarchy/queries.h"
#include "perf/conv_models.h"
#include "perf/op_models.h"

namespace opscope {

namespace {

enum class ConvRole : uint8_t { None, Forward, Backward, LegacyBackward, InputGrad, WeightGrad };

ConvRole roleOf(std::string_view n) {
  if (n.starts_with("aten::")) n.remove_prefix(6);
  if (n == "conv1d" || n == "conv2d" || n == "conv3d" || n == "convolution" || n == "_convolution" ||
      n == "cudnn_convolution" || n == "miopen_convolution")
    return ConvRole::Forward;
  if (n == "convolution_backward") return ConvRole::Backward;
  if (n == "cudnn_convolution_backward" || n == "miopen_convolution_backward") return ConvRole::LegacyBackward;
  if (n == "cudnn_convolution_backward_input" || n == "miopen_convolution_backward_input") return ConvRole::InputGrad;
  if (n == "cudnn_convolution_backward_weight" || n == "miopen_convolution_backward_weight")
    return ConvRole::WeightGrad;
  return ConvRole::None;
}

// y can be the output of x convolved by w: as many dims, all positive, y's batch x's,
// its channels w's outputs, w's inputs a divisor of x's channels (groups).
bool consistent(const ConvProblem& p) {
  if (p.x.size() < 3 || p.w.size() != p.x.size() || p.y.size() != p.x.size()) return false;
  for (const auto* v : {&p.x, &p.w, &p.y})
    for (int64_t d : *v)
      if (d <= 0) return false;
  return p.y[0] == p.x[0] && p.y[1] == p.w[0] && p.x[1] % p.w[1] == 0;
}

void completeStride(ConvProblem& p) {
  if (!p.stride.empty()) return;
  const std::vector<int64_t> in(p.x.begin() + 2, p.x.end()), kernel(p.w.begin() + 2, p.w.end()),
      out(p.y.begin() + 2, p.y.end());
  if (auto s = inferConvStride(in, kernel, out)) {
    p.stride = std::move(*s);
    p.dilation.assign(p.stride.size(), 1);
  }
}

// A backward op's problem (grad_output as y). The legacy op computes the gradients its
// children name.
std::optional<ConvProblem> backwardProblem(const Trace& trace, EventRef op, ConvRole role, const OpShapes& s,
                                           const std::vector<ConvRole>& roles) {
  if (role == ConvRole::Backward) return convolutionProblem("convolution_backward", s);
  const auto *x = s.tensor(0), *dy = s.tensor(1), *w = s.tensor(2);  // input, grad_output, weight
  if (!x || !dy || !w) return std::nullopt;
  ConvProblem p;
  p.backward = true;
  p.dtype = s.type(0);
  p.x = *x, p.w = *w, p.y = *dy;
  bool input = false, weight = false;
  for (EventRef c : childrenOf(trace, op)) {
    const StringId n = trace.tracks[c.track].slices.name[c.index];
    input |= n < roles.size() && roles[n] == ConvRole::InputGrad;
    weight |= n < roles.size() && roles[n] == ConvRole::WeightGrad;
  }
  if (input || weight) p.inputGrad = input, p.weightGrad = weight;
  return p;
}

// The sequence number of the autograd node a backward op runs in: its nearest ancestor
// named "…Backward…" that records one (CudnnConvolutionBackward, ConvolutionBackward0).
std::optional<int64_t> nodeSequenceNumber(const OpInputs& inputs, EventRef op) {
  const Trace& trace = inputs.trace();
  const std::vector<EventRef> up = ancestors(trace, op);
  for (auto it = up.rbegin(); it != up.rend(); ++it) {
    if (trace.name(*it).find("Backward") == std::string_view::npos) continue;
    if (auto n = intArg(inputs.args(*it), "Sequence number")) return n;
  }
  return std::nullopt;
}

}  // namespace

bool needsConvPairing(std::string_view n, const OpShapes& s) {
  switch (roleOf(n)) {
    case ConvRole::LegacyBackward:
      return true;
    case ConvRole::Forward:
    case ConvRole::Backward: {
      const auto own = convolutionProblem(n, s);
      return !own || own->stride.empty();
    }
    default:
      return false;
  }
}

std::unordered_map<uint64_t, ConvProblem> convProblemsOf(const OpInputs& inputs) {
  const Trace& trace = inputs.trace();
  std::unordered_map<uint64_t, ConvProblem> out;
  // The names first: a trace without convolutions is not walked.
  std::vector<ConvRole> roles(trace.strings.size(), ConvRole::None);
  bool any = false;
  for (StringId id = 0; id < trace.strings.size(); ++id) {
    roles[id] = roleOf(trace.str(id));
    any |= roles[id] != ConvRole::None;
  }
  if (!any) return out;
  struct Backward {
    std::vector<int64_t> x, w, y;
  };
  std::map<std::pair<uint32_t, int64_t>, Backward> bySequence;  // (process, sequence number)
  std::vector<EventRef> forwards;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      const ConvRole role = s.name[i] < roles.size() ? roles[s.name[i]] : ConvRole::None;
      if (!isOpKind(s.kind[i]) || role == ConvRole::None) continue;
      const EventRef op{t, i};
      if (role == ConvRole::Forward) {
        forwards.push_back(op);
        continue;
      }
      if (role != ConvRole::Backward && role != ConvRole::LegacyBackward) continue;
      auto p = backwardProblem(trace, op, role, inputs.shapes(op), roles);
      if (!p || !consistent(*p)) continue;
      if (const auto n = nodeSequenceNumber(inputs, op))
        bySequence.emplace(std::make_pair(trace.tracks[t].process, *n), Backward{p->x, p->w, p->y});
      if (role == ConvRole::Backward && !p->stride.empty()) continue;  // its own shapes suffice
      completeStride(*p);
      out.emplace(op.packed(), std::move(*p));
    }
  }
  for (EventRef op : forwards) {
    const std::vector<NamedArg>& args = inputs.args(op);
    const OpShapes& s = inputs.shapes(op);
    std::string_view name = trace.name(op);
    if (name.starts_with("aten::")) name.remove_prefix(6);
    if (convolutionProblem(name, s)) continue;  // stride and padding recorded
    const auto n = intArg(args, "Sequence number");
    if (!n) continue;
    const auto it = bySequence.find({trace.tracks[op.track].process, *n});
    const auto *x = s.tensor(0), *w = s.tensor(1);
    if (it == bySequence.end() || !x || !w || *x != it->second.x || *w != it->second.w) continue;
    ConvProblem p;
    p.dtype = s.type(0);
    p.x = *x, p.w = *w, p.y = it->second.y;
    completeStride(p);
    out.emplace(op.packed(), std::move(p));
  }
  return out;
}

}  // namespace opscope
