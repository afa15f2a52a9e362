// The columnar model as numpy arrays: Trace._columns fills one array per column straight
// from the slice columns (no JSON, no per-event Python object); the Python side turns
// string ids into categoricals and track indices into pid/tid/stream/device.
//
// Event ids: a slice's id is its track's first id plus its row, tracks in model order,
// so ids are stable for a loaded trace whatever filter a call applies; `parent` is the
// enclosing slice's id (-1 for a root) and args(id) reads any slice's args back.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "analysis/summary.h"
#include "py_trace.h"

namespace py = pybind11;

namespace opscope::python {

namespace {

// First event id of each track, and the total after the last.
std::vector<int64_t> trackBases(const Trace& t) {
  std::vector<int64_t> bases(t.tracks.size() + 1, 0);
  for (size_t i = 0; i < t.tracks.size(); ++i)
    bases[i + 1] = bases[i] + static_cast<int64_t>(t.tracks[i].slices.size());
  return bases;
}

py::str text(std::string_view s) { return utf8Text(s); }

py::object rawId(const Trace& t, const RawId& id) {
  if (id.isString) return text(t.str(id.str));
  return py::int_(id.num);
}

int64_t orMinusOne(int64_t v) { return v == kNoId ? -1 : v; }

// The rows of a track that may overlap [from, to): sorted starts bound the range's end;
// the rows' ends are checked one by one (a long slice may start long before `from`).
struct RowRange {
  size_t first = 0, last = 0;
};
RowRange rowsOverlapping(const SliceColumns& s, TimeNs to) { return {0, s.lowerBound(to)}; }

py::dict columns(const PyTrace& self, const std::vector<int>& kinds, TimeNs from, TimeNs to) {
  const Trace& t = self.timeline();
  // Which kinds to keep, indexed by SliceKind (all when none is named): a lookup per event.
  std::array<bool, 256> wanted{};
  for (int k : kinds)
    if (k >= 0 && k < 256) wanted[static_cast<size_t>(k)] = true;
  const bool all = kinds.empty();
  const auto bases = trackBases(t);
  auto keep = [&](const SliceColumns& s, size_t i) {
    if (!all && !wanted[static_cast<uint8_t>(s.kind[i])]) return false;
    // Overlapping [from, to); an instant-like slice of no duration counts where it sits.
    return s.start[i] < to && (s.end(i) > from || s.start[i] >= from);
  };
  size_t n = 0;
  {
    py::gil_scoped_release release;
    for (const Track& tr : t.tracks) {
      const auto r = rowsOverlapping(tr.slices, to);
      for (size_t i = r.first; i < r.last; ++i) n += keep(tr.slices, i);
    }
  }
  py::array_t<int64_t> id(n), ts(n), dur(n), corr(n), ext(n), parent(n);
  py::array_t<uint32_t> name(n), cat(n), track(n);
  py::array_t<uint8_t> kind(n);
  py::array_t<uint16_t> depth(n);
  auto pid = id.mutable_unchecked<1>(), pts = ts.mutable_unchecked<1>(), pdur = dur.mutable_unchecked<1>(),
       pcorr = corr.mutable_unchecked<1>(), pext = ext.mutable_unchecked<1>(), pparent = parent.mutable_unchecked<1>();
  auto pname = name.mutable_unchecked<1>(), pcat = cat.mutable_unchecked<1>(), ptrack = track.mutable_unchecked<1>();
  auto pkind = kind.mutable_unchecked<1>();
  auto pdepth = depth.mutable_unchecked<1>();
  {
    py::gil_scoped_release release;
    py::ssize_t k = 0;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      const SliceColumns& s = t.tracks[ti].slices;
      const auto r = rowsOverlapping(s, to);
      for (size_t i = r.first; i < r.last; ++i) {
        if (!keep(s, i)) continue;
        pid(k) = bases[ti] + static_cast<int64_t>(i);
        pts(k) = s.start[i];
        pdur(k) = s.dur[i];
        pcorr(k) = orMinusOne(s.correlation[i]);
        pext(k) = orMinusOne(s.externalId[i]);
        pparent(k) = s.parent[i] < 0 ? -1 : bases[ti] + s.parent[i];
        pname(k) = s.name[i];
        pcat(k) = s.cat[i];
        ptrack(k) = ti;
        pkind(k) = static_cast<uint8_t>(s.kind[i]);
        pdepth(k) = s.depth[i];
        ++k;
      }
    }
  }
  py::dict d;
  d["id"] = id;
  d["name"] = name;
  d["category"] = cat;
  d["track"] = track;
  d["kind"] = kind;
  d["ts_ns"] = ts;
  d["dur_ns"] = dur;
  d["correlation"] = corr;
  d["external_id"] = ext;
  d["depth"] = depth;
  d["parent"] = parent;
  return d;
}

// Ids of the top-level ops (summary.h's topLevelOps: the outermost cpu_op of each
// thread, by containment among cpu_ops only), the ops `summary` totals.
py::array_t<int64_t> topOps(const PyTrace& self) {
  const Trace& t = self.timeline();
  const auto bases = trackBases(t);
  std::vector<int64_t> ids;
  {
    py::gil_scoped_release release;
    for (uint32_t ti = 0; ti < t.tracks.size(); ++ti) {
      if (t.tracks[ti].kind != TrackKind::Thread) continue;
      for (uint32_t row : topLevelOps(t.tracks[ti].slices)) ids.push_back(bases[ti] + row);
    }
    std::sort(ids.begin(), ids.end());
  }
  return py::array_t<int64_t>(static_cast<py::ssize_t>(ids.size()), ids.data());
}

py::dict tracks(const PyTrace& self) {
  const Trace& t = self.timeline();
  py::list kind, pid, tid, processName, label, device, stream, rank;
  for (uint32_t i = 0; i < t.tracks.size(); ++i) {
    const Track& tr = t.tracks[i];
    const Process& p = t.processes[tr.process];
    kind.append(tr.kind == TrackKind::Thread ? "thread" : tr.kind == TrackKind::GpuStream ? "gpu_stream" : "async");
    pid.append(rawId(t, p.pid));
    tid.append(rawId(t, tr.tid));
    processName.append(text(t.str(p.name)));
    label.append(text(t.trackLabel(i)));
    device.append(orMinusOne(tr.device));
    stream.append(orMinusOne(tr.stream));
    rank.append(orMinusOne(p.rank));
  }
  py::dict d;
  d["kind"] = kind;
  d["pid"] = pid;
  d["tid"] = tid;
  d["process_name"] = processName;
  d["label"] = label;
  d["device"] = device;
  d["stream"] = stream;
  d["rank"] = rank;
  return d;
}

py::list strings(const PyTrace& self) {
  const Trace& t = self.timeline();
  py::list out(t.strings.size());
  for (size_t i = 0; i < t.strings.size(); ++i) out[i] = text(t.strings.get(static_cast<StringId>(i)));
  return out;
}

py::dict args(const PyTrace& self, int64_t id) {
  const Trace& t = self.timeline();
  const auto bases = trackBases(t);
  if (id < 0 || id >= bases.back()) fail(self.path + ": no event " + std::to_string(id), 2);
  const auto track = static_cast<uint32_t>(std::upper_bound(bases.begin(), bases.end(), id) - bases.begin() - 1);
  std::string error;
  const auto list = t.args(EventRef{track, static_cast<uint32_t>(id - bases[track])}, &error);
  if (!error.empty()) fail(self.path + ": " + error, 3);
  // Values as the file typed them; nested objects and arrays parsed by Python's json.
  py::dict d;
  py::object loads;
  for (const NamedArg& a : list) {
    py::object v;
    switch (a.type) {
      case ArgType::Null:
        v = py::none();
        break;
      case ArgType::False:
      case ArgType::True:
        v = py::bool_(a.type == ArgType::True);
        break;
      case ArgType::Int:
        v = py::int_(a.i);
        break;
      case ArgType::Double:
        v = py::float_(a.d);
        break;
      case ArgType::String:
        v = text(a.text);
        break;
      case ArgType::Json:
        if (!loads) loads = py::module_::import("json").attr("loads");
        v = loads(text(a.text));
        break;
    }
    d[text(a.key)] = v;
  }
  return d;
}

py::list kindNames() {
  py::list out;
  for (int k = 0; k <= static_cast<int>(SliceKind::Async); ++k) out.append(sliceKindName(static_cast<SliceKind>(k)));
  return out;
}

}  // namespace

py::str utf8Text(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

void bindEvents(py::module_& m, py::class_<PyTrace, std::shared_ptr<PyTrace>>& cls) {
  m.def("_kind_names", &kindNames, "Slice kind names by code (the kind column's codes).");
  cls.def("_columns", &columns, py::arg("kinds"), py::arg("from_ns"), py::arg("to_ns"));
  cls.def("_top_ops", &topOps);
  cls.def("_tracks", &tracks);
  cls.def("_strings", &strings);
  cls.def("_args", &args, py::arg("id"));
}

}  // namespace opscope::python
