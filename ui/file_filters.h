#pragma once
// The file dialogs' name filters, one place for every dialog that opens a trace. They
// cover every name the desktop's MIME types (packaging/opscope-mime.xml) give opscope's
// formats; a file of another name still opens through "All files": formats are told
// by content, never by name.
#include <QString>

namespace opscope::ui {

// File ▸ Open, Compare with: Kineto/Chrome JSON (plain or gzip), rocprofv3 results, dv/dt,
// Nsight Systems SQLite exports, PlaidML event logs, XPlane profiles, Chakra and PyTorch
// execution traces.
inline QString traceFileFilter() {
  return QStringLiteral("Traces (*.json *.json.gz *.gz *.sqlite *.log *.pb *.et);;All files (*)");
}

// File ▸ Open execution trace: PyTorch's JSON execution traces and Chakra's protobuf ones.
inline QString executionTraceFileFilter() {
  return QStringLiteral("Execution traces (*.json *.json.gz *.gz *.et);;All files (*)");
}

}  // namespace opscope::ui
