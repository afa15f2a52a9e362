#pragma once
// What the Python module's C++ half shares between its files: the loaded trace as
// Python holds it, and the helpers every binding uses. Only core/ is included: the
// module is a front end like app/, beside it, never below it.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <pybind11/pybind11.h>

#include "et/execution_trace.h"
#include "model/trace.h"

namespace opscope::python {

// One loaded input: a timeline trace (Kineto, Nsight, XPlane, ... or a merged folder of
// ranks) or an execution trace, never both. Immutable once built: every method only
// reads it, so Python threads may share it (the GIL is released while they compute).
struct PyTrace {
  std::unique_ptr<Trace> trace;             // set for timeline traces
  std::optional<ExecutionTrace> execution;  // set for execution traces
  std::string path;                         // as the user named it (messages, reports)
  double parseSeconds = 0, hierarchySeconds = 0;

  // The timeline trace; an execution trace raises TraceError's C++ side (see below).
  const Trace& timeline() const;
};

// A failure Python turns into opscope.TraceError: the one-line message the binary
// prints (without its "opscope: " prefix) and the exit code the binary would return
// (3 cannot read, 4 invalid input, 2 a usage error such as an unknown GPU, 5 cancelled).
struct TraceFailure {
  std::string message;
  int exitCode = 4;
};
// Thrown by the bindings; module.cpp translates it into a Python exception.
class TraceFailureError : public std::exception {
 public:
  explicit TraceFailureError(TraceFailure f) : failure(std::move(f)) {}
  const char* what() const noexcept override { return failure.message.c_str(); }
  TraceFailure failure;
};
// Text from a file or a path may be any bytes: invalid UTF-8 becomes U+FFFD instead of
// raising UnicodeDecodeError. Needs the GIL.
pybind11::str utf8Text(std::string_view s);

[[noreturn]] inline void fail(std::string message, int exitCode = 4) {
  throw TraceFailureError({std::move(message), exitCode});
}

void bindLoading(pybind11::module_& m);
void bindEvents(pybind11::module_& m, pybind11::class_<PyTrace, std::shared_ptr<PyTrace>>& cls);
void bindReports(pybind11::module_& m, pybind11::class_<PyTrace, std::shared_ptr<PyTrace>>& cls);

}  // namespace opscope::python
