#pragma once
// The body of every fuzz target, as plain functions: the libFuzzer executables call
// them (cmake --preset fuzz), and the normal test suite replays the seed corpora and
// every regression fixture through them, so a finding stays fixed in every build.
//
// Each runs one loader entry point on the bytes and then what a user runs after it:
// the hierarchy pass, the summary, the args of the first slices read back and, on
// traces of up to 64 slices, one chart's data export or the prediction (picked by the
// input's size, so each input always runs the same one); so a finding anywhere downstream
// of the bytes is caught, not only in the parser. None may crash, hang, leak or hit
// undefined behaviour whatever the bytes.
#include <string_view>

namespace opscope::fuzz {

// Any bytes as a trace file, through the whole load of `opscope summary FILE`: format
// detection, Chrome/Kineto JSON (plain: lazy args read back; gzip: inflated), or
// whichever other format the head selects.
void traceFile(std::string_view bytes);
// Any bytes as a PyTorch execution trace, with the per-node accessors and summaries.
void executionTrace(std::string_view bytes);
// Any bytes as a rocprofv3 JSON result (that loader, whatever the head says).
void rocprofv3(std::string_view bytes);
// Any bytes as an XPlane protobuf (XSpace), as JAX and TensorFlow write *.xplane.pb.
void xplane(std::string_view bytes);
// Any bytes as a Chakra protobuf execution trace (.et), with the per-node accessors
// and summaries of the execution-trace target.
void chakraEt(std::string_view bytes);
// Any bytes as an OpenCL dv/dt prof trace (that loader, whatever the head says).
void dvdt(std::string_view bytes);
// Any bytes as a PlaidML event log.
void plaidml(std::string_view bytes);
// Any bytes as an Nsight Systems SQLite export (written to a file first).
void nsysSqlite(std::string_view bytes);
// An execution trace and a Kineto trace separated by the first NUL byte, linked as
// `opscope link` does, with ET+ and both reports written.
void link(std::string_view bytes);
// Any bytes as a microbenchmark CSV (`predict --microbench`: GEMM or convolution table,
// by its header), then priced: a few GEMM shapes, or convolutions near and far from the
// table's rows, forward and backward, on an H100 and a V100.
void microbench(std::string_view bytes);
// Any bytes as a --gpu-file (io/side_input.h's ceilings: deep nesting, huge numbers),
// every GPU it holds written back and priced (a GEMM roofline).
void gpuFile(std::string_view bytes);
// Kernel classes: the bytes up to the first NUL are the user's rules file (none when
// there is no NUL), the rest a kernel name, classified as it is and repeated to 256 KiB
// (std::regex overflowed the stack on a 28 KB name), then searched for with the name's
// head as a regular expression.
void kernelClasses(std::string_view bytes);
// Any bytes as an --overheads file (the notebook's T1-T5 JSON), parsed and written back.
void overheadsFile(std::string_view bytes);
// Any bytes as an opscope-cluster table (ranks.jsonl, written to a file: its lines are
// read again when the report is written), ranks assigned, the multi-rank report written
// as JSON (checked valid) and text, and the cluster view's table built.
void rankTable(std::string_view bytes);

}  // namespace opscope::fuzz
