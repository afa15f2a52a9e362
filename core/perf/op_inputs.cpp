#include "perf/op_inputs.h"

#include <algorithm>
#include <array>
#include <exception>
#include <mutex>
#include <span>
#include <thread>

#include "analysis/occupancy.h"
#include "io/args_text.h"
#include "model/kept_args_in_order.h"
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

// Events a prefetch reader files at a time.
constexpr size_t kBatch = 4096;

}  // namespace

bool argsKeptFor(std::string_view name) {
  // Another autograd node's args (its "Sequence number") are read only above a
  // convolution's backward (conv_pairing.cpp), whose node is a convolution's too; the
  // rare other one is read when asked. Keeping every "…Backward…" op's args read half a
  // 1 GB training trace's ops back from the file.
  return name == "record_param_comms" || collectiveKindFromName(name) ||
         name.find("onv") != std::string_view::npos;  // conv2d, cudnn_convolution, ConvolutionBackward0
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

OpInputs::Taken OpInputs::taken(EventRef e, bool kernel, std::vector<NamedArg>&& args) const {
  return {e, kernel, argsKeptFor(trace_.name(e)), kernel ? launchKey(args) : shapeKey(args), std::move(args)};
}

void OpInputs::file(Taken&& t) const {
  if (t.kernel) {
    uint32_t& at = slot(launchOf_, t.e);
    auto [it, fresh] = launchKeys_.try_emplace(std::move(t.key), static_cast<uint32_t>(launchTable_.size()));
    if (fresh) launchTable_.push_back({launchGrid(t.args), launchBlock(t.args)});
    at = it->second;
  } else {
    uint32_t& at = slot(shapeOf_, t.e);
    auto [it, fresh] = shapeKeys_.try_emplace(std::move(t.key), static_cast<uint32_t>(shapeTable_.size()));
    if (fresh) shapeTable_.push_back(opShapesFromArgs(t.args));
    at = it->second;
  }
  if (t.keep) args_.try_emplace(t.e.packed(), std::move(t.args));
}

void OpInputs::take(EventRef e, bool kernel, std::vector<NamedArg>&& args) const {
  file(taken(e, kernel, std::move(args)));
}

const uint32_t* OpInputs::readSlot(const std::vector<std::vector<uint32_t>>& column, EventRef e) const {
  if (e.track >= column.size() || e.index >= column[e.track].size()) return nullptr;
  const uint32_t& at = column[e.track][e.index];
  return at == kUnread ? nullptr : &at;
}

void OpInputs::shareBetweenThreads() const {
  if (shared_) return;
  prefetch(std::nullopt);
  opIndex();
  tbeCalls();
  convCalls();
  shared_ = true;
}

const std::vector<NamedArg>& OpInputs::args(EventRef e) const {
  if (shared_) {
    if (auto kept = args_.find(e.packed()); kept != args_.end()) return kept->second;
    std::lock_guard lock(lateMutex_);
    auto& late = lateArgs_[e.packed()];
    if (!late) late = std::make_unique<std::vector<NamedArg>>(trace_.args(e));
    return *late;
  }
  auto [it, fresh] = args_.try_emplace(e.packed());
  if (fresh) it->second = trace_.args(e);
  return it->second;
}

const OpShapes& OpInputs::shapes(EventRef op) const {
  if (shared_) {
    if (const uint32_t* at = readSlot(shapeOf_, op)) return shapeTable_[*at];
    std::lock_guard lock(lateMutex_);
    auto& late = lateShapes_[op.packed()];
    if (!late) {
      const auto kept = args_.find(op.packed());
      late = std::make_unique<OpShapes>(opShapesFromArgs(kept != args_.end() ? kept->second : trace_.args(op)));
    }
    return *late;
  }
  uint32_t at = slot(shapeOf_, op);
  if (at == kUnread) {
    auto kept = args_.find(op.packed());
    take(op, false, kept != args_.end() ? std::vector<NamedArg>(kept->second) : trace_.args(op));
    at = slot(shapeOf_, op);
  }
  return shapeTable_[at];
}

const KernelLaunchDims& OpInputs::launch(EventRef kernel) const {
  if (shared_) {
    if (const uint32_t* at = readSlot(launchOf_, kernel)) return launchTable_[*at];
    std::lock_guard lock(lateMutex_);
    auto& late = lateLaunches_[kernel.packed()];
    if (!late) {
      const std::vector<NamedArg> a = trace_.args(kernel);
      late = std::make_unique<KernelLaunchDims>(KernelLaunchDims{launchGrid(a), launchBlock(a)});
    }
    return *late;
  }
  uint32_t at = slot(launchOf_, kernel);
  if (at == kUnread) {
    take(kernel, true, trace_.args(kernel));
    at = slot(launchOf_, kernel);
  }
  return launchTable_[at];
}

void OpInputs::prefetch(std::optional<TimeWindow> window) const {
  if (shared_) return;  // everything was read
  std::vector<EventRef> events;
  size_t ops = 0;
  // The args the loader kept (LoadOptions::keepOpShapes and keepKernelLaunches,
  // Trace::keptArgsOf): an op whose other args no model reads, and every kernel, takes
  // them from there instead of the file. A kept text's shapes or launch, worked out and
  // interned at its first event: every later event of that text takes the same table
  // entry (its shapeKey or launchKey is a function of the text alone). A 1 GB training
  // trace repeats a few thousand texts a million times. An op's and a kernel's texts
  // are apart (the empty text is both), as are their tables.
  std::array<std::vector<uint32_t>, 2> entryOfText;
  for (auto& e : entryOfText) e.assign(trace_.keptArgs.empty() ? 0 : trace_.keptArgTexts.size(), kUnread);
  const auto fileKeptText = [&](EventRef e, bool kernel, StringId text) {
    uint32_t& known = entryOfText[kernel][text];
    if (known == kUnread) {
      take(e, kernel, keptArgsOfText(trace_.keptArgTexts.get(text)));
      known = slot(kernel ? launchOf_ : shapeOf_, e);
    } else {
      slot(kernel ? launchOf_ : shapeOf_, e) = known;
    }
  };
  KeptArgsInOrder keptOf(trace_);  // a track's rows ask in file order, mostly
  // argsKeptFor by name id: a million ops share a few hundred names.
  std::vector<int8_t> keptForName(trace_.strings.size(), -1);
  const auto argsKept = [&](EventRef e) {
    int8_t& known = keptForName[trace_.nameId(e)];
    if (known < 0) known = argsKeptFor(trace_.name(e));
    return known != 0;
  };
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
        if (auto read = args_.find(e.packed()); read != args_.end())  // read for a model already
          take(e, pass == 1, std::vector<NamedArg>(read->second));
        else if (const Trace::KeptArgs* k = keptOf.of(e); k && (pass == 1 || !argsKept(e)))
          fileKeptText(e, pass == 1, k->text);
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
  for (size_t i = 0; i < ops; ++i) whole[i] = argsKept(events[i]);
  const LazyArgs::KeyFilter keep = [&](size_t i, std::string_view key) {
    if (i >= ops) return isLaunchArgKey(key);
    return whole[i] || isShapeArgKey(key);
  };
  // Parsing the objects is most of this pass (1.7 M of them on 1 GB: 0.9 s of its 1.3 s
  // on one core). With many events, two readers each take the events of one half of the
  // file's bytes (split at the median offset, so that neither reads the other's windows)
  // on two threads; each works out what it read (taken) alone and files it (file) in
  // batches under a lock: a lock taken an event made the two threads slower than one.
  const auto read = [&](std::span<const EventRef> part, std::span<const size_t> index, std::mutex* lock) {
    const LazyArgs::KeyFilter partKeep = [&](size_t i, std::string_view key) { return keep(index[i], key); };
    std::vector<Taken> batch;
    const auto flush = [&] {
      std::unique_lock<std::mutex> guard;
      if (lock) guard = std::unique_lock(*lock);
      for (Taken& t : batch) file(std::move(t));
      batch.clear();
    };
    trace_.argsOfEach(
        part,
        [&](size_t i, std::vector<NamedArg>&& a) {
          batch.push_back(taken(part[i], index[i] >= ops, std::move(a)));
          if (batch.size() == kBatch) flush();
        },
        nullptr, &partKeep);
    flush();
  };
  if (events.size() < parallelFrom_ || std::thread::hardware_concurrency() < 2) {
    std::vector<size_t> index(events.size());
    for (size_t i = 0; i < index.size(); ++i) index[i] = i;
    read(events, index, nullptr);
    return;
  }
  const auto offsetOf = [&](EventRef e) -> uint64_t {
    const SliceColumns& s = trace_.tracks[e.track].slices;
    return e.index < s.argsAt.size() ? s.argsAt[e.index] : 0;
  };
  std::vector<uint64_t> offsets(events.size());
  for (size_t i = 0; i < events.size(); ++i) offsets[i] = offsetOf(events[i]);
  const auto middle = offsets.begin() + static_cast<std::ptrdiff_t>(offsets.size() / 2);
  std::nth_element(offsets.begin(), middle, offsets.end());
  const uint64_t split = *middle;
  offsets = {};
  std::array<std::vector<EventRef>, 2> part;
  std::array<std::vector<size_t>, 2> index;
  for (size_t i = 0; i < events.size(); ++i) {
    const size_t half = offsetOf(events[i]) < split ? 0 : 1;
    part[half].push_back(events[i]);
    index[half].push_back(i);
  }
  events = {};
  std::mutex lock;
  std::exception_ptr failed;  // the other thread's exception (bad_alloc), thrown here
  std::thread other([&] {
    try {
      read(part[1], index[1], &lock);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    read(part[0], index[0], &lock);
  } catch (...) {
    other.join();
    throw;
  }
  other.join();
  if (failed) std::rethrow_exception(failed);
}

const OpIndex& OpInputs::opIndex() const {
  if (!opIndex_) opIndex_ = std::make_unique<OpIndex>(trace_);
  return *opIndex_;
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
