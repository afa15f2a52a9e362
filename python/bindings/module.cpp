// opscope._opscope: the C++ half of the Python module (python/opscope/ is the public
// half). TraceFailureError from any binding becomes opscope.TraceError(message,
// exit_code), defined in Python (opscope/_errors.py) so it can be caught and pickled
// without this module.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "py_trace.h"

namespace py = pybind11;
using opscope::python::PyTrace;

PYBIND11_MODULE(_opscope, m) {
  m.doc() = "opscope's engine: loaders, columnar model and reports (use the opscope package, not this module)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const opscope::python::TraceFailureError& e) {
      py::object cls = py::module_::import("opscope._errors").attr("TraceError");
      // The message may carry a path's or a file's bytes that are not UTF-8.
      py::object exc = cls(opscope::python::utf8Text(e.failure.message), e.failure.exitCode);
      PyErr_SetObject(cls.ptr(), exc.ptr());
    }
  });
  py::class_<PyTrace, std::shared_ptr<PyTrace>> cls(m, "_Trace");
  // As os.fsdecode gives it: bytes that are not UTF-8 come back as surrogate escapes.
  cls.def_property_readonly("path", [](const PyTrace& t) {
    PyObject* o = PyUnicode_DecodeFSDefaultAndSize(t.path.data(), static_cast<Py_ssize_t>(t.path.size()));
    if (!o) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(o);
  });
  cls.def_property_readonly(
      "rank", [](const PyTrace& t) -> std::optional<int64_t> { return t.trace ? t.trace->meta.rank : std::nullopt; });
  cls.def_property_readonly("start_ns", [](const PyTrace& t) { return t.trace ? t.trace->minTs : int64_t{0}; });
  cls.def_property_readonly("is_execution_trace", [](const PyTrace& t) { return t.execution.has_value(); });
  cls.def_property_readonly("parse_seconds", [](const PyTrace& t) { return t.parseSeconds; });
  cls.def_property_readonly("hierarchy_seconds", [](const PyTrace& t) { return t.hierarchySeconds; });
  cls.def_property_readonly(
      "format", [](const PyTrace& t) { return t.trace ? t.trace->meta.format : std::string("execution-trace"); });
  cls.def("_iterations", [](const PyTrace& t) {
    py::list out;
    for (const opscope::Iteration& it : t.timeline().iterations)
      out.append(py::make_tuple(it.number, it.start, it.end));
    return out;
  });
  cls.def("_ranks_not_loaded",
          [](const PyTrace& t) { return t.trace ? t.trace->meta.ranksNotLoaded : std::vector<std::string>{}; });
  opscope::python::bindLoading(m);
  opscope::python::bindEvents(m, cls);
  opscope::python::bindReports(m, cls);
}
