#include "perf/op_inputs.h"

#include <algorithm>

#include "analysis/occupancy.h"
#include "perf/collective_models.h"
#include "perf/conv_pairing.h"
#include "perf/tbe_models.h"

namespace opscope {

namespace {

// Appends tag, text's length and text: keys built of these never run into each other.
void appendTagged(std::string& key, char tag, const std::string& text) {
  key += tag;
  key += std::to_string(text.size());
  key += ':';
  key += text;
}

// The args opShapesFromArgs reads, in order, as one string: equal keys give equal shapes.
std::string shapeKey(const std::vector<NamedArg>& args) {
  std::string key;
  for (const NamedArg& a : args) {
    if (a.type != ArgType::Json) continue;
    const char tag = a.key == "Input Dims" ? 'd' : a.key == "Input type" ? 't' : a.key == "Concrete Inputs" ? 'c' : 0;
    if (tag) appendTagged(key, tag, a.text);
  }
  return key;
}

// The "grid" and "block" args a kernel's launch is read from (launchGrid, launchBlock:
// the first of each name), as one string: equal keys give equal launches, and a million
// kernels' grids are parsed as often as they differ.
std::string launchKey(const std::vector<NamedArg>& args) {
  std::string key;
  for (std::string_view name : {std::string_view("grid"), std::string_view("block")}) {
    const auto a = std::find_if(args.begin(), args.end(), [&](const NamedArg& n) { return n.key == name; });
    if (a == args.end()) key += '-';
    else appendTagged(key, static_cast<char>('a' + static_cast<int>(a->type)), a->text);
  }
  return key;
}

bool isShapeArg(std::string_view key) { return key == "Input Dims" || key == "Input type" || key == "Concrete Inputs"; }

}  // namespace

bool argsKeptFor(std::string_view name) {
  return name == "record_param_comms" || collectiveKindFromName(name) ||
         name.find("onv") != std::string_view::npos ||  // conv2d, cudnn_convolution, ConvolutionBackward0
         name.find("Backward") != std::string_view::npos;
}

OpInputs::OpInputs(const Trace& trace) : trace_(trace) {
  shapeTable_.emplace_back();
  shapeKeys_.emplace(std::string(), 0);
}
OpInputs::~OpInputs() = default;

uint32_t& OpInputs::slot(std::vector<std::vector<uint32_t>>& column, EventRef e) const {
  if (column.empty()) column.resize(trace_.tracks.size());
  std::vector<uint32_t>& track = column[e.track];
  if (track.empty()) track.assign(trace_.tracks[e.track].slices.size(), kUnread);
  return track[e.index];
}

void OpInputs::take(EventRef e, bool kernel, std::vector<NamedArg>&& args) const {
  if (kernel) {
    uint32_t& at = slot(launchOf_, e);
    auto [it, fresh] = launchKeys_.try_emplace(launchKey(args), static_cast<uint32_t>(launchTable_.size()));
    if (fresh) launchTable_.push_back({launchGrid(args), launchBlock(args)});
    at = it->second;
  } else {
    uint32_t& at = slot(shapeOf_, e);
    auto [it, fresh] = shapeKeys_.try_emplace(shapeKey(args), static_cast<uint32_t>(shapeTable_.size()));
    if (fresh) shapeTable_.push_back(opShapesFromArgs(args));
    at = it->second;
  }
  if (argsKeptFor(trace_.name(e))) args_.try_emplace(e.packed(), std::move(args));
}

const std::vector<NamedArg>& OpInputs::args(EventRef e) const {
  auto [it, fresh] = args_.try_emplace(e.packed());
  if (fresh) it->second = trace_.args(e);
  return it->second;
}

const OpShapes& OpInputs::shapes(EventRef op) const {
  uint32_t at = slot(shapeOf_, op);
  if (at == kUnread) {
    auto kept = args_.find(op.packed());
    take(op, false, kept != args_.end() ? std::vector<NamedArg>(kept->second) : trace_.args(op));
    at = slot(shapeOf_, op);
  }
  return shapeTable_[at];
}

const KernelLaunchDims& OpInputs::launch(EventRef kernel) const {
  uint32_t at = slot(launchOf_, kernel);
  if (at == kUnread) {
    take(kernel, true, trace_.args(kernel));
    at = slot(launchOf_, kernel);
  }
  return launchTable_[at];
}

void OpInputs::prefetch(std::optional<TimeWindow> window) const {
  std::vector<EventRef> events;
  size_t ops = 0;
  for (int pass = 0; pass < 2; ++pass) {  // ops, then kernels
    for (uint32_t t = 0; t < trace_.tracks.size(); ++t) {
      const Track& track = trace_.tracks[t];
      if ((pass == 0) != (track.kind == TrackKind::Thread)) continue;
      const SliceColumns& s = track.slices;
      const size_t first = window ? s.lowerBound(window->start) : 0;
      const size_t last = window && pass == 0 ? s.lowerBound(window->end) : s.size();
      for (size_t i = first; i < last; ++i) {
        const EventRef e{t, static_cast<uint32_t>(i)};
        if (pass == 0 ? !isOpKind(s.kind[i]) : s.kind[i] != SliceKind::Kernel) continue;
        if (slot(pass == 0 ? shapeOf_ : launchOf_, e) != kUnread) continue;
        if (auto kept = args_.find(e.packed()); kept != args_.end())  // read for a model already
          take(e, pass == 1, std::vector<NamedArg>(kept->second));
        else events.push_back(e);
      }
    }
    if (pass == 0) ops = events.size();
  }
  // Only the args the tables are read from, except for the ops whose others a model
  // reads: a kernel has a dozen args and uses two, an op three of eight. A failed read
  // (the file changed since loading) gives the events it missed empty args, as
  // Trace::args does.
  std::vector<uint8_t> whole(ops);
  for (size_t i = 0; i < ops; ++i) whole[i] = argsKeptFor(trace_.name(events[i]));
  const LazyArgs::KeyFilter keep = [&](size_t i, std::string_view key) {
    if (i >= ops) return key == "grid" || key == "block";
    return whole[i] || isShapeArg(key);
  };
  trace_.argsOfEach(
      events, [&](size_t i, std::vector<NamedArg>&& a) { take(events[i], i >= ops, std::move(a)); }, nullptr, &keep);
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
