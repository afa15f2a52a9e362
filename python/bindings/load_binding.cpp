// opscope._load / _load_ranks: every format the binary reads, with the GIL released
// while the file is read, progress reported to a Python callable, and Ctrl-C (or an
// exception raised by the callable) cancelling the load between two progress calls.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "et/chakra_et.h"
#include "et/execution_trace.h"
#include "io/byte_source.h"
#include "io/trace_loader.h"
#include "py_trace.h"
#include "ranks/rank_session.h"

namespace py = pybind11;

namespace opscope::python {

const Trace& PyTrace::timeline() const {
  if (!trace)
    fail(path +
             ": an execution trace has no timeline (summary() describes it; link it with its Kineto trace "
             "through `opscope link`)",
         2);
  return *trace;
}

namespace {

// The binary's exit code for a load status (app/cli_common.h's exitFor).
int exitCodeOf(LoadStatus s) {
  switch (s) {
    case LoadStatus::Ok:
      return 0;
    case LoadStatus::IoError:
      return 3;
    case LoadStatus::InvalidInput:
      return 4;
    case LoadStatus::Cancelled:
      return 5;
  }
  return 1;
}

// The progress hook of one load. It runs on the loading thread, which holds no GIL: it
// takes the GIL for the few microseconds of a signal check and the user's callable.
// The first Python exception (KeyboardInterrupt from Ctrl-C, or one the callable
// raised) cancels the load and is kept to be raised once the load has unwound.
class ProgressHook {
 public:
  explicit ProgressHook(py::object callback) : callback_(std::move(callback)) {}
  ~ProgressHook() {
    py::gil_scoped_acquire gil;  // the kept exception and the callable die with the GIL held
    pending_.reset();
    callback_ = py::object();
  }

  LoadOptions options() {
    LoadOptions o;
    o.progress = [this](const LoadProgress& p) { return onProgress(p); };
    return o;
  }
  // With the GIL held: raises what cancelled the load, if anything did.
  void raisePending() {
    if (pending_) {
      py::error_already_set e = std::move(*pending_);
      pending_.reset();
      throw e;
    }
  }

 private:
  bool onProgress(const LoadProgress& p) {
    py::gil_scoped_acquire gil;
    if (pending_) return false;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!callback_.is_none()) callback_(p.bytesDone, p.bytesTotal, p.events);
    } catch (py::error_already_set& e) {
      pending_.emplace(std::move(e));
      return false;
    }
    return true;
  }

  py::object callback_;
  std::optional<py::error_already_set> pending_;
};

// Loads with the GIL released; turns a failure into TraceFailureError, a cancellation
// by Python into its exception.
std::shared_ptr<PyTrace> finish(LoadResult r, const std::string& name, ProgressHook& hook) {
  hook.raisePending();
  if (r.status != LoadStatus::Ok) fail(name + ": " + r.error, exitCodeOf(r.status));
  auto out = std::make_shared<PyTrace>();
  out->trace = std::move(r.trace);
  out->path = name;
  out->parseSeconds = r.timings.parseSeconds;
  out->hierarchySeconds = r.timings.hierarchySeconds;
  return out;
}

std::shared_ptr<PyTrace> load(const std::string& path, py::object progress) {
  ProgressHook hook(std::move(progress));
  LoadResult r;
  std::optional<ExecutionTrace> et;
  std::string etError;
  bool isEt = false;
  {
    py::gil_scoped_release release;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      r = loadTraceOrSession(path, hook.options());  // a folder of ranks: one session
    } else {
      std::string openError;
      auto src = ByteSource::open(path, openError);
      if (!src) {
        r.status = LoadStatus::IoError;
        r.error = openError;
      } else {
        // As `opscope summary`: an execution trace is told from a timeline trace by its
        // first bytes, handed on to whichever loader reads it.
        const std::string head = peekHead(*src, 1 << 16);
        isEt = looksLikeExecutionTrace(head) || looksLikeChakraEt(head);
        if (isEt) et = loadExecutionTrace(*src, etError);
        else r = loadTraceSource(*src, path, hook.options());
      }
    }
  }
  if (isEt) {
    hook.raisePending();
    if (!et) fail(path + ": " + etError, 4);
    auto out = std::make_shared<PyTrace>();
    out->execution = std::move(et);
    out->path = path;
    return out;
  }
  return finish(std::move(r), path, hook);
}

std::shared_ptr<PyTrace> loadRanks(const std::vector<std::string>& paths, py::object progress) {
  if (paths.empty()) fail("load_ranks: no traces given", 2);
  ProgressHook hook(std::move(progress));
  LoadResult r;
  {
    py::gil_scoped_release release;
    r = loadRankSession(paths, hook.options());
  }
  return finish(std::move(r),
                paths.size() == 1 ? paths[0] : paths[0] + " and " + std::to_string(paths.size() - 1) + " more", hook);
}

}  // namespace

void bindLoading(py::module_& m) {
  m.def("_load", &load, py::arg("path"), py::arg("progress") = py::none(),
        "Loads one trace, a folder of rank traces or an execution trace (the GIL is released).");
  m.def("_load_ranks", &loadRanks, py::arg("paths"), py::arg("progress") = py::none(),
        "Loads several rank traces as one session, clocks aligned.");
}

}  // namespace opscope::python
