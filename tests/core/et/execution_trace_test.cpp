// Execution traces: both schema generations, malformed files, the link with Kineto on
// the public pair and on fixtures for each failure the reference's users meet, and the
// written ET+ read back.
#include "et/execution_trace.h"
#include "io/byte_source.h"

#include <gtest/gtest.h>

#include <utility>

#include <fstream>

#include <set>

#include "et/et_link.h"
#include "io/trace_loader.h"
#include "perf/et_shapes.h"
#include "test_support.h"

namespace opscope {
namespace {

using Json = nlohmann::json;

// The newer schema: inputs/outputs as objects, ctrl_deps, attrs holding rf_id and tid.
const char* kNewSchema = R"js({
  "schema": "1.0.2-chakra.0.0.4", "pid": 7, "time": "x", "start_ts": 1,
  "nodes": [
    {"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "ctrl_deps": 1,
     "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []},
     "attrs": [{"name": "rf_id", "type": "uint64", "value": 0}]},
    {"id": 2, "name": "aten::mm", "ctrl_deps": 1,
     "inputs": {"values": [[1,2,0,6,4,"cuda:0"],[3,4,0,12,4,"cuda:0"]], "shapes": [[2,3],[3,4]], "types": ["Tensor(float)","Tensor(float)"]},
     "outputs": {"values": [[5,6,0,8,4,"cuda:0"]], "shapes": [[2,4]], "types": ["Tensor(float)"]},
     "attrs": [{"name": "rf_id", "type": "uint64", "value": 11}, {"name": "tid", "type": "uint64", "value": 3},
               {"name": "op_schema", "type": "string", "value": "aten::mm(Tensor self, Tensor mat2) -> Tensor"}]}
  ]})js";

TEST(ExecutionTrace, NewerSchemaReadsThroughTheSameAccessors) {
  std::string error;
  auto et = parseExecutionTrace(kNewSchema, error);
  ASSERT_TRUE(et) << error;
  EXPECT_EQ(et->schema, "1.0.2-chakra.0.0.4");
  ASSERT_EQ(et->nodes.size(), 2u);
  const EtNode* mm = et->node(2);
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->parent, 1);
  EXPECT_EQ(mm->rfId, 11);
  EXPECT_EQ(mm->tid, 3);
  EXPECT_EQ(mm->inputShapes().dump(), "[[2,3],[3,4]]");
  EXPECT_EQ(mm->outputTypes().dump(), "[\"Tensor(float)\"]");
  bool schema = false;
  for (const auto& [k, v] : mm->attributes()) schema |= k == "op_schema" && v.find("aten::mm(") == 0;
  EXPECT_TRUE(schema);
  EXPECT_TRUE(et->node(1)->isAnnotation());
  EXPECT_TRUE(et->problems.empty());
}

TEST(ExecutionTrace, OldSchemaFromThePublicPair) {
  const auto path = test::sharedTrace("simple_add_et.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  std::string error;
  auto et = loadExecutionTrace(*path, error);
  ASSERT_TRUE(et) << error;
  EXPECT_EQ(et->schema, "1.0.1");
  EXPECT_EQ(et->nodes.size(), 38u);
  const EtNode* add = et->node(36);
  ASSERT_TRUE(add);
  EXPECT_EQ(add->name, "aten::add");
  EXPECT_EQ(add->rfId, 22);
  EXPECT_EQ(add->parent, 35);
  EXPECT_EQ(add->inputShapes().dump(), "[[256,256],[256,256],[]]");
  EXPECT_EQ(add->inputTypes()[0], "Tensor(float)");
  auto src = ByteSource::open(*path, error);
  ASSERT_TRUE(src) << error;
  const std::string head = peekHead(*src, 4096);
  EXPECT_TRUE(looksLikeExecutionTrace(head));  // gzip read through
  EXPECT_FALSE(looksLikeExecutionTrace(R"({"schemaVersion": 1, "traceEvents": [], "nodes": 1})"));
}

TEST(ExecutionTrace, MalformedTracesSayWhatAndWhere) {
  std::string error;
  EXPECT_FALSE(parseExecutionTrace(R"({"schema": "1.0.1", "nodes": [ {"id": 1,)", error));
  EXPECT_NE(error.find("byte"), std::string::npos) << error;
  EXPECT_FALSE(parseExecutionTrace(R"({"schema": "1.0.1", "nodes": 5})", error));
  EXPECT_EQ(error, "\"nodes\" is not an array");
  EXPECT_FALSE(parseExecutionTrace(R"({"schema": "1.0.1"})", error));
  EXPECT_NE(error.find("no top-level \"nodes\""), std::string::npos);
  EXPECT_FALSE(parseExecutionTrace(R"({"schema": "1.0.1", "nodes": [3]})", error));
  EXPECT_EQ(error, "node 1 of \"nodes\" is not an object");
  // A merged multi-rank file: duplicate ids, a parent from another rank, a node without id.
  auto et = parseExecutionTrace(R"({"schema": "1.0.1", "nodes": [
      {"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "parent": 1},
      {"id": 2, "name": "aten::add", "parent": 1, "rf_id": 5},
      {"id": 2, "name": "aten::add", "parent": 1, "rf_id": 5},
      {"id": 3, "name": "aten::mul", "parent": 9, "rf_id": 6},
      {"name": "lost"}]})",
                                error);
  ASSERT_TRUE(et) << error;
  EXPECT_EQ(et->nodes.size(), 3u);
  ASSERT_EQ(et->problems.size(), 3u);
  std::string all;
  for (const EtProblem& p : et->problems) all += p.what + "\n";
  EXPECT_NE(all.find("node id 2 appears more than once"), std::string::npos) << all;
  EXPECT_NE(all.find("node 3 (aten::mul): parent 9 is not in the trace"), std::string::npos) << all;
  EXPECT_NE(all.find("has no integer \"id\""), std::string::npos) << all;
  EXPECT_EQ(et->node(3)->parent, -1);
}

// Memory a node: its bytes live deflated in the trace's store (a 10^6-node trace took
// 2.4 GB as JSON DOMs, 239 MB peak now), and every node still reads back whole, in its
// field order, from any block, in any order.
TEST(ExecutionTrace, NodesAreStoredDeflatedAndReadBackWhole) {
  constexpr int kNodes = 20000;
  std::string text = R"({"schema": "1.1.1-chakra.0.0.4", "pid": 1, "nodes": [)";
  auto nodeText = [](int i) {
    return R"({"id": )" + std::to_string(i) + R"(, "name": "aten::add", "ctrl_deps": )" +
           std::to_string(i > 1 ? 1 : 0) + R"(, "inputs": {"values": [[1,2,3,0,4,"cuda:0"]], "shapes": [[8,)" +
           std::to_string(i % 97) +
           R"x(]], "types": ["Tensor(float)"]}, "outputs": {"values": [], "shapes": [], "types": []}, "attrs": [{"name": "rf_id", "type": "uint64", "value": )x" +
           std::to_string(i) + "}]}";
  };
  for (int i = 1; i <= kNodes; ++i) text += (i > 1 ? "," : "") + nodeText(i);
  text += "]}";
  std::string error;
  auto et = parseExecutionTrace(text, error);
  ASSERT_TRUE(et) << error;
  ASSERT_EQ(et->nodes.size(), static_cast<size_t>(kNodes));
  // ~210 bytes of MessagePack a node, deflated with its neighbours.
  EXPECT_LT(et->store->storedBytes(), static_cast<size_t>(kNodes) * 40) << et->store->storedBytes();
  EXPECT_GT(et->store->storedBytes(), 0u);
  for (int i : {kNodes, 1, 777, 12345, 2, kNodes - 1}) {  // across blocks, out of order
    const EtNode* n = et->node(i);
    ASSERT_NE(n, nullptr) << i;
    EXPECT_EQ(n->json().dump(), nlohmann::ordered_json::parse(nodeText(i)).dump()) << i;
    EXPECT_EQ(n->inputShapes().dump(), "[[8," + std::to_string(i % 97) + "]]") << i;
    EXPECT_EQ(n->rfId, i);
  }
  // A copy of the trace shares the store: its nodes read the same.
  const ExecutionTrace copy = *et;
  et.reset();
  EXPECT_EQ(copy.node(777)->inputShapes().dump(), "[[8," + std::to_string(777 % 97) + "]]");
}

// The public pair: every host op and GPU event linked, and the figures agree with the
// Kineto file read independently (by External id, which this PyTorch shares with rf_id).
TEST(EtLink, PublicPairLinksEverythingAndTheFiguresAgree) {
  const auto etPath = test::sharedTrace("simple_add_et.json.gz");
  const auto kinetoPath = test::sharedTrace("simple_add_kineto.json.gz");
  if (!etPath || !kinetoPath) GTEST_SKIP() << "../shared/traces not present";
  std::string error;
  auto et = loadExecutionTrace(*etPath, error);
  ASSERT_TRUE(et) << error;
  LoadResult loaded = loadTraceFile(*kinetoPath);
  ASSERT_EQ(loaded.status, LoadStatus::Ok);
  const EtLink link = linkExecutionTrace(*et, *loaded.trace);
  EXPECT_EQ(link.etOps, 36u);
  EXPECT_EQ(link.linkedOps, 36u);
  EXPECT_EQ(link.gpuEvents, 4u);
  EXPECT_EQ(link.linkedGpuEvents, 4u);
  EXPECT_TRUE(link.issues.empty()) << etLinkReportText(*loaded.trace, link);

  // Independently: the raw Kineto events, host ops by External id, launches by
  // correlation id.
  const Json kineto = Json::parse(test::gunzip(test::readFile(*kinetoPath)));
  std::map<int64_t, const Json*> cpuByExt, launchByCorrelation;
  std::vector<const Json*> kernels, cpuOps;
  for (const Json& e : kineto["traceEvents"]) {
    if (!e.contains("cat")) continue;
    if ((e["cat"] == "cpu_op" || e["cat"] == "user_annotation") && e["args"].contains("External id")) {
      cpuByExt[e["args"]["External id"].get<int64_t>()] = &e;
      cpuOps.push_back(&e);
    }
    if (e["cat"] == "cuda_runtime" && e.contains("args") && e["args"].contains("correlation"))
      launchByCorrelation[e["args"]["correlation"].get<int64_t>()] = &e;
    if (e["cat"] == "kernel") kernels.push_back(&e);
  }
  const Json plus = Json::parse(etPlusJson(*et, *loaded.trace, link));
  ASSERT_EQ(plus["nodes"].size(), 38u + 4u);
  EXPECT_EQ(plus["schema"], "1.0.1");
  EXPECT_EQ(plus["pid"], 563677);
  std::map<int64_t, const Json*> nodeById;
  for (const Json& n : plus["nodes"]) nodeById[n["id"].get<int64_t>()] = &n;
  size_t checked = 0;
  for (const Json& n : plus["nodes"]) {
    if (n.contains("cat") || !n.contains("rf_id") || n["rf_id"].get<int64_t>() == 0) continue;
    const Json& k = *cpuByExt.at(n["rf_id"].get<int64_t>());
    EXPECT_EQ(k["name"], n["name"]);
    EXPECT_NEAR(n["ts"].get<double>(), k["ts"].get<double>(), 1e-3);
    EXPECT_NEAR(n["dur"].get<double>(), k["dur"].get<double>(), 1e-3);
    EXPECT_EQ(n["inclusive_dur"], n["dur"]);
    EXPECT_LE(n["exclusive_dur"].get<double>(), n["dur"].get<double>());
    ++checked;
  }
  EXPECT_EQ(checked, 36u);
  // Each kernel is a node under the op whose rf_id is the kernel's External id.
  size_t gpu = 0;
  for (const Json& n : plus["nodes"]) {
    if (!n.contains("cat")) continue;
    ++gpu;
    EXPECT_EQ(n["cat"], "kernel");
    EXPECT_EQ(n["stream"], 7);
    const Json& parent = *nodeById.at(n["parent"].get<int64_t>());
    const Json* kernel = nullptr;
    for (const Json* k : kernels)
      if (std::abs((*k)["ts"].get<double>() - n["ts"].get<double>()) < 1e-3) kernel = k;
    ASSERT_TRUE(kernel);
    ASSERT_TRUE(n.contains("correlation"));
    EXPECT_EQ(n["correlation"], (*kernel)["args"]["correlation"]);  // its launch's, read back
    // The parent is the innermost host op around the kernel's launch.
    const Json& launch = *launchByCorrelation.at((*kernel)["args"]["correlation"].get<int64_t>());
    const double a = launch["ts"].get<double>(), b = a + launch["dur"].get<double>();
    const Json* innermost = nullptr;
    for (const Json* op : cpuOps) {
      const double s = (*op)["ts"].get<double>(), e = s + (*op)["dur"].get<double>();
      if (s <= a && b <= e && (!innermost || (*op)["dur"].get<double>() < (*innermost)["dur"].get<double>()))
        innermost = op;
    }
    ASSERT_TRUE(innermost);
    EXPECT_EQ((*innermost)["args"]["External id"], parent["rf_id"]);
    EXPECT_EQ((*innermost)["name"], parent["name"]);
    EXPECT_NEAR(n["dur"].get<double>(), (*kernel)["dur"].get<double>(), 1e-3);
    EXPECT_GT(n["id"].get<int64_t>(), 58);  // above every ET id
  }
  EXPECT_EQ(gpu, 4u);

  // Round trip: ET+ loads as an execution trace; its GPU nodes are not ops to link.
  auto back = parseExecutionTrace(plus.dump(), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->nodes.size(), 42u);
  size_t gpuNodes = 0;
  for (const EtNode& n : back->nodes) gpuNodes += n.isGpu;
  EXPECT_EQ(gpuNodes, 4u);
  EXPECT_TRUE(back->problems.empty());
  const EtLink again = linkExecutionTrace(*back, *loaded.trace);
  EXPECT_EQ(again.linkedOps, 36u);
}

// Older PyTorch: the Kineto ops carry no id the ET's rf_id could match, and the
// Kineto trace holds three ops before the ET's first: paired in order after a shift.
// A pair recorded with PyTorch 2.11 on an H100 (tests/data/pytorch_h100, README there):
// schema 1.1.1-chakra.0.0.4, where each ProfilerStep#N is an ET node whose rf_id is the
// Kineto annotation's "Record function id". Every node links, the steps included (they
// were reported "outside the profiled window" before), and each linked node carries
// the Kineto event of its own rf_id and name, read here from the raw files.
TEST(EtLink, PyTorch211PairLinksEveryNodeProfilerStepsIncluded) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/";
  std::string error;
  auto et = loadExecutionTrace(dir + "h100_mlp_et.json.gz", error);
  ASSERT_TRUE(et) << error;
  LoadResult loaded = loadTraceFile(dir + "h100_mlp.pt.trace.json.gz");
  ASSERT_EQ(loaded.status, LoadStatus::Ok);
  const EtLink link = linkExecutionTrace(*et, *loaded.trace);

  const Json rawEt = Json::parse(test::gunzip(test::readFile(dir + "h100_mlp_et.json.gz")));
  const Json kineto = Json::parse(test::gunzip(test::readFile(dir + "h100_mlp.pt.trace.json.gz")));
  std::map<int64_t, std::string> kinetoNameOfRf;
  size_t kernels = 0;
  for (const Json& e : kineto["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if ((cat == "cpu_op" || cat == "user_annotation") && e["args"].contains("Record function id"))
      kinetoNameOfRf[e["args"]["Record function id"].get<int64_t>()] = e["name"].get<std::string>();
    kernels += cat == "kernel" || cat == "gpu_memset" || cat == "gpu_memcpy";
  }
  size_t ops = 0, steps = 0;
  for (const Json& n : rawEt["nodes"]) {
    const std::string name = n["name"].get<std::string>();
    if (name.rfind("[pytorch|profiler|execution_trace|", 0) == 0) continue;
    ++ops;
    int64_t rf = -1;
    for (const Json& a : n["attrs"])
      if (a["name"] == "rf_id") rf = a["value"].get<int64_t>();
    ASSERT_TRUE(kinetoNameOfRf.count(rf)) << name << " rf_id " << rf;
    EXPECT_EQ(kinetoNameOfRf[rf], name);
    const auto it = link.opOfNode.find(n["id"].get<int64_t>());
    ASSERT_NE(it, link.opOfNode.end()) << name;
    EXPECT_EQ(loaded.trace->name(it->second), name);
    if (name.rfind("ProfilerStep#", 0) == 0) ++steps;
  }
  EXPECT_EQ(steps, 3u);
  EXPECT_EQ(link.etOps, ops);
  EXPECT_EQ(link.linkedOps, ops);
  EXPECT_EQ(link.gpuEvents, kernels);
  EXPECT_EQ(link.linkedGpuEvents, kernels);
  EXPECT_TRUE(link.issues.empty()) << etLinkReportText(*loaded.trace, link);
}

// The host ops' ids read back from a plain Kineto file (one pass over it) link as the
// ids decoded from the gzip file do: the same pairs, the same GPU events, the same report.
TEST(EtLink, APlainKinetoFileLinksAsItsGzipDoes) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/";
  std::string error;
  auto et = loadExecutionTrace(dir + "h100_mlp_et.json.gz", error);
  ASSERT_TRUE(et) << error;
  const std::string plain = test::plainCopy(dir + "h100_mlp.pt.trace.json.gz", "et_link_plain.json");
  LoadResult gz = loadTraceFile(dir + "h100_mlp.pt.trace.json.gz"), lazy = loadTraceFile(plain);
  ASSERT_EQ(gz.status, LoadStatus::Ok);
  ASSERT_EQ(lazy.status, LoadStatus::Ok);
  ASSERT_TRUE(lazy.trace->lazyArgs);
  const EtLink a = linkExecutionTrace(*et, *gz.trace), b = linkExecutionTrace(*et, *lazy.trace);
  EXPECT_EQ(a.method, b.method);
  EXPECT_GT(a.linkedOps, 100u);
  EXPECT_EQ(a.linkedOps, b.linkedOps);
  EXPECT_EQ(a.linkedGpuEvents, b.linkedGpuEvents);
  EXPECT_EQ(a.opOfNode, b.opOfNode);
  EXPECT_EQ(a.gpuOfNode, b.gpuOfNode);
  EXPECT_EQ(etLinkReportText(*gz.trace, a), etLinkReportText(*lazy.trace, b));
  // ET+ too, with each GPU node's correlation (its launch's, read back from the file).
  const std::string plusGz = etPlusJson(*et, *gz.trace, a);
  EXPECT_EQ(plusGz, etPlusJson(*et, *lazy.trace, b));
  EXPECT_NE(plusGz.find("\"correlation\""), std::string::npos);
}

TEST(EtLink, WithoutIdsInOrderWithAShift) {
  std::string et =
      R"({"schema": "1.0.1", "nodes": [{"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "parent": 1})";
  std::string kineto = R"([{"ph":"X","cat":"cpu_op","name":"warm::a","pid":1,"tid":1,"ts":0,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"warm::b","pid":1,"tid":1,"ts":2,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"warm::c","pid":1,"tid":1,"ts":4,"dur":1})";
  const char* names[] = {"aten::a", "aten::b", "aten::c", "aten::d"};
  for (int i = 0; i < 20; ++i) {
    const std::string name = names[i % 4];
    et += R"(, {"id": )" + std::to_string(10 + i) + R"(, "name": ")" + name + R"(", "parent": 1, "rf_id": )" +
          std::to_string(100 + i) + "}";
    kineto += R"(, {"ph":"X","cat":"cpu_op","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
              std::to_string(10 + 3 * i) + R"(,"dur":2,"args":{"correlation":)" + std::to_string(500 + i) + "}}";
  }
  et += "]}";
  kineto += "]";
  std::string error;
  auto e = parseExecutionTrace(et, error);
  ASSERT_TRUE(e) << error;
  auto k = test::loadOk(kineto);
  ASSERT_TRUE(k);
  const EtLink link = linkExecutionTrace(*e, *k);
  EXPECT_NE(link.method.find("in order"), std::string::npos) << link.method;
  EXPECT_NE(link.method.find("shift 3"), std::string::npos) << link.method;
  EXPECT_EQ(link.linkedOps, 20u);
  // Every pair has the same name and keeps the order.
  TimeNs last = -1;
  for (const auto& [id, ref] : link.opOfNode) {
    EXPECT_EQ(k->name(ref), e->node(id)->name);
    EXPECT_GT(k->start(ref), last);
    last = k->start(ref);
  }
  size_t unmatchedKineto = 0;
  for (const EtLinkIssue& i : link.issues) unmatchedKineto += i.kind == EtLinkIssue::Kind::KinetoOp;
  EXPECT_EQ(unmatchedKineto, 3u);    // the warm-up ops, reported
  EXPECT_NE(link.notes.size(), 0u);  // no GPU events: said once
}

// HIP launches without correlation ids: GPU events found through their External id;
// one with neither is reported with the reason.
TEST(EtLink, HipWithoutCorrelationUsesExternalIdAndReportsTheRest) {
  const char* et = R"({"schema": "1.0.1", "nodes": [
      {"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "parent": 1},
      {"id": 2, "name": "aten::add", "parent": 1, "rf_id": 7},
      {"id": 3, "name": "aten::mul", "parent": 1, "rf_id": 8},
      {"id": 4, "name": "aten::gone", "parent": 1, "rf_id": 99}]})";
  const char* kineto = R"([
      {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":0,"dur":10,"args":{"External id":7}},
      {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":2,"dur":3,"args":{"External id":7}},
      {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":20,"dur":10,"args":{"External id":8}},
      {"ph":"X","cat":"cpu_op","name":"aten::extra","pid":1,"tid":1,"ts":40,"dur":10,"args":{"External id":9}},
      {"ph":"X","cat":"kernel","name":"add_kernel","pid":2,"tid":0,"ts":6,"dur":4,"args":{"External id":7,"stream":0,"device":2}},
      {"ph":"X","cat":"kernel","name":"mul_kernel","pid":2,"tid":0,"ts":26,"dur":4,"args":{"External id":8,"stream":0,"device":2}},
      {"ph":"X","cat":"kernel","name":"orphan_kernel","pid":2,"tid":0,"ts":60,"dur":4,"args":{"stream":0,"device":2}}])";
  std::string error;
  auto e = parseExecutionTrace(et, error);
  ASSERT_TRUE(e) << error;
  auto k = test::loadOk(kineto);
  ASSERT_TRUE(k);
  const EtLink link = linkExecutionTrace(*e, *k);
  EXPECT_NE(link.method.find("External id"), std::string::npos) << link.method;
  EXPECT_EQ(link.linkedOps, 2u);
  EXPECT_EQ(link.gpuEvents, 3u);
  EXPECT_EQ(link.linkedGpuEvents, 2u);
  ASSERT_EQ(link.gpuOfNode.at(2).size(), 1u);
  EXPECT_EQ(k->name(link.gpuOfNode.at(2)[0]), "add_kernel");
  EXPECT_EQ(k->name(link.gpuOfNode.at(3)[0]), "mul_kernel");
  std::set<std::string> reasons;
  for (const EtLinkIssue& i : link.issues)
    reasons.insert(std::string(etLinkIssueKindName(i.kind)) + " " + i.name + ": " + i.reasonText());
  EXPECT_TRUE(reasons.count("ET node aten::gone: no Kineto op with id 99 (outside the profiled window?)"))
      << etLinkReportText(*k, link);
  EXPECT_TRUE(reasons.count("Kineto op aten::extra: not in the execution trace"));
  EXPECT_TRUE(reasons.count(
      "GPU event orphan_kernel: no launch with its correlation id and no op with its External id (HIP launches without "
      "correlation ids?)"));
  EXPECT_NE(link.summaryLine().find("linked 2 of 3 ET ops and 2 of 3 GPU events"), std::string::npos)
      << link.summaryLine();
}

// The same from a plain file, whose args are read back in one pass in file order: the
// kernels without a launch, on two streams, are written in an order other than their
// tracks' and rows', and each still joins the op its own External id names.
TEST(EtLink, HipKernelsReadBackFromAPlainFileJoinTheirOwnOps) {
  const char* et = R"({"schema": "1.0.1", "nodes": [
      {"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "parent": 1},
      {"id": 2, "name": "aten::a", "parent": 1, "rf_id": 7},
      {"id": 3, "name": "aten::b", "parent": 1, "rf_id": 8},
      {"id": 4, "name": "aten::c", "parent": 1, "rf_id": 9},
      {"id": 5, "name": "aten::d", "parent": 1, "rf_id": 10}]})";
  const std::string path = test::tempPath("hip_plain.json");
  std::ofstream(path, std::ios::binary) << R"({"traceEvents": [
      {"ph":"X","cat":"kernel","name":"d_kernel","pid":2,"tid":1,"ts":66,"dur":4,"args":{"External id":10,"stream":1,"device":2}},
      {"ph":"X","cat":"cpu_op","name":"aten::a","pid":1,"tid":1,"ts":0,"dur":10,"args":{"External id":7}},
      {"ph":"X","cat":"kernel","name":"a_kernel","pid":2,"tid":0,"ts":5,"dur":4,"args":{"External id":7,"stream":0,"device":2}},
      {"ph":"X","cat":"cpu_op","name":"aten::b","pid":1,"tid":1,"ts":20,"dur":10,"args":{"External id":8}},
      {"ph":"X","cat":"kernel","name":"c_kernel","pid":2,"tid":1,"ts":45,"dur":4,"args":{"External id":9,"stream":1,"device":2}},
      {"ph":"X","cat":"cpu_op","name":"aten::c","pid":1,"tid":1,"ts":40,"dur":10,"args":{"External id":9}},
      {"ph":"X","cat":"cpu_op","name":"aten::d","pid":1,"tid":1,"ts":60,"dur":10,"args":{"External id":10}},
      {"ph":"X","cat":"kernel","name":"b_kernel","pid":2,"tid":0,"ts":25,"dur":4,"args":{"External id":8,"stream":0,"device":2}}]})";
  std::string error;
  auto e = parseExecutionTrace(et, error);
  ASSERT_TRUE(e) << error;
  const LoadResult k = loadTraceFile(path);
  ASSERT_EQ(k.status, LoadStatus::Ok) << k.error;
  ASSERT_TRUE(k.trace->lazyArgs);
  const EtLink link = linkExecutionTrace(*e, *k.trace);
  EXPECT_EQ(link.linkedOps, 4u);
  EXPECT_EQ(link.linkedGpuEvents, 4u) << etLinkReportText(*k.trace, link);
  for (const auto& [node, op] : std::vector<std::pair<int64_t, std::string>>{{2, "a"}, {3, "b"}, {4, "c"}, {5, "d"}}) {
    ASSERT_TRUE(link.gpuOfNode.count(node)) << op;
    ASSERT_EQ(link.gpuOfNode.at(node).size(), 1u) << op;
    EXPECT_EQ(k.trace->name(link.gpuOfNode.at(node)[0]), op + "_kernel");
  }
}

TEST(EtLink, KinetoWithOnlyCpuOpsAndNamesThatDisagree) {
  const char* et = R"({"schema": "1.0.1", "nodes": [
      {"id": 2, "name": "aten::add", "parent": 1, "rf_id": 1},
      {"id": 3, "name": "aten::mul", "parent": 1, "rf_id": 2}]})";
  // Ids 1 and 2 exist but name other ops: a coincidence of numbers, not a link.
  const char* kineto = R"([
      {"ph":"X","cat":"cpu_op","name":"aten::zeros","pid":1,"tid":1,"ts":0,"dur":10,"args":{"External id":1}},
      {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":20,"dur":10,"args":{"External id":2}},
      {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":40,"dur":10,"args":{"External id":3}}])";
  std::string error;
  auto e = parseExecutionTrace(et, error);
  ASSERT_TRUE(e) << error;
  auto k = test::loadOk(kineto);
  ASSERT_TRUE(k);
  const EtLink link = linkExecutionTrace(*e, *k);
  EXPECT_NE(link.method.find("in order"), std::string::npos) << link.method;
  EXPECT_EQ(link.linkedOps, 2u);
  EXPECT_EQ(k->start(link.opOfNode.at(2)), 20'000);
  ASSERT_FALSE(link.notes.empty());
  EXPECT_NE(link.notes.back().find("no GPU events"), std::string::npos);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(EtShapes, EtNodeInputsAsTheOpModelsReadThem) {
  std::string error;
  auto et = parseExecutionTrace(R"js({"schema": "1.0.1", "nodes": [
      {"id": 2, "name": "aten::_foreach_add_", "parent": 1, "rf_id": 1,
       "input_shapes": [[[4,4],[8]], [], [2,3]],
       "input_types": ["GenericList[Tensor(c10::BFloat16),Tensor(c10::BFloat16)]", "Double", "Tensor(float)"]}]})js",
                                error);
  ASSERT_TRUE(et) << error;
  const OpShapes s = opShapesFromEtNode(et->nodes[0]);
  ASSERT_EQ(s.inputs.size(), 3u);
  ASSERT_EQ(s.inputs[0].size(), 2u);  // a tensor list: both tensors count
  EXPECT_EQ(s.type(0), DType::BF16);
  EXPECT_DOUBLE_EQ(s.bytes(0), (16 + 8) * 2.0);
  EXPECT_TRUE(s.inputs[1].empty());  // a scalar
  ASSERT_TRUE(s.tensor(2));
  EXPECT_EQ(*s.tensor(2), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(s.type(2), DType::F32);
  EXPECT_TRUE(s.recorded());
}

// The public pair's Kineto trace recorded no shapes; with the ET linked, aten::add gets
// its memory-bound model from the ET's [256, 256] float inputs.
TEST(EtShapes, LinkedExecutionTraceGivesThePredictorsShapes) {
  const auto etPath = test::sharedTrace("simple_add_et.json.gz");
  const auto kinetoPath = test::sharedTrace("simple_add_kineto.json.gz");
  if (!etPath || !kinetoPath) GTEST_SKIP() << "../shared/traces not present";
  std::string error;
  auto et = loadExecutionTrace(*etPath, error);
  ASSERT_TRUE(et) << error;
  LoadResult loaded = loadTraceFile(*kinetoPath);
  ASSERT_EQ(loaded.status, LoadStatus::Ok);
  const auto shapes = etOpShapes(*et, linkExecutionTrace(*et, *loaded.trace));
  EXPECT_EQ(shapes.size(), 36u);
  const GpuSpec& a100 = *builtinGpuSpecs().find("A100-SXM4-80GB");
  const OpModels models(a100);
  const std::vector<OpRow> without = predictOps(*loaded.trace, models, std::nullopt);
  const std::vector<OpRow> with = predictOps(*loaded.trace, models, std::nullopt, &shapes);
  ASSERT_EQ(with.size(), without.size());
  size_t adds = 0;
  for (size_t i = 0; i < with.size(); ++i) {
    if (loaded.trace->name(with[i].op) != "aten::add") continue;
    ++adds;
    EXPECT_EQ(without[i].model, "no model");
    EXPECT_EQ(with[i].model, "memory-bound");
    // Two 256x256 floats read, one written, at the kernel floor on an A100.
    EXPECT_DOUBLE_EQ(*with[i].predictedUs, std::max(3.0 * 256 * 256 * 4 / 2039e3, a100.kernelFloorUs));
  }
  EXPECT_EQ(adds, 2u);
}

// Parents that lead back to a node (4 -> 5 -> 6 -> 4) are named and broken, so the
// nodes stay reachable from a root; a chain of 200,000 parents is walked without
// recursion.
TEST(ExecutionTrace, ParentCyclesAreNamedAndBroken) {
  std::string error;
  auto et = parseExecutionTrace(R"({"schema": "1.0.1", "nodes": [
      {"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "parent": 1},
      {"id": 2, "name": "aten::add", "parent": 1},
      {"id": 4, "name": "a", "parent": 6}, {"id": 5, "name": "b", "parent": 4}, {"id": 6, "name": "c", "parent": 5},
      {"id": 7, "name": "d", "parent": 5}]})",
                                error);
  ASSERT_TRUE(et) << error;
  ASSERT_EQ(et->problems.size(), 1u);
  EXPECT_NE(et->problems[0].what.find("its parents lead back to it"), std::string::npos) << et->problems[0].what;
  // Every node reaches a root now.
  for (const EtNode& n : et->nodes) {
    int64_t at = n.id;
    for (int steps = 0; steps < 10 && at > 0; ++steps) {
      const EtNode* node = et->node(at);
      ASSERT_NE(node, nullptr);
      at = node->parent == node->id ? -1 : node->parent;
    }
    EXPECT_LE(at, 0) << "node " << n.id << " is still on a cycle";
  }
  std::string chain = R"({"schema": "1.0.1", "nodes": [{"id": 1, "name": "root", "parent": -1})";
  for (int i = 2; i <= 200000; ++i)
    chain += ", {\"id\": " + std::to_string(i) + ", \"name\": \"n\", \"parent\": " + std::to_string(i - 1) + "}";
  chain += "]}";
  et = parseExecutionTrace(chain, error);
  ASSERT_TRUE(et) << error;
  EXPECT_TRUE(et->problems.empty());
}

// Order alone pairs two processes' ops only by chance: an ET recorded by process 99 and a
// Kineto trace whose ops are process 1's, with no id in common, are refused (they were
// joined in order without a word); --force pairs them and says so.
TEST(EtLink, InOrderAcrossProcessesIsRefusedUnlessForced) {
  std::string et =
      R"({"schema": "1.0.1", "pid": 99, "nodes": [{"id": 1, "name": "[pytorch|profiler|execution_trace|process]", "parent": 1})";
  std::string kineto = "[";
  for (int i = 0; i < 8; ++i) {
    const std::string name = i % 2 ? "aten::mul" : "aten::add";
    et += R"(, {"id": )" + std::to_string(10 + i) + R"(, "name": ")" + name + R"(", "parent": 1})";
    kineto += std::string(i ? "," : "") + R"({"ph":"X","cat":"cpu_op","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
              std::to_string(10 * i) + R"(,"dur":2})";
  }
  et += "]}";
  kineto += "]";
  std::string error;
  auto e = parseExecutionTrace(et, error);
  ASSERT_TRUE(e) << error;
  auto k = test::loadOk(kineto);
  ASSERT_TRUE(k);
  const EtLink refused = linkExecutionTrace(*e, *k);
  EXPECT_EQ(refused.linkedOps, 0u);
  EXPECT_NE(refused.refused.find("process 99"), std::string::npos) << refused.refused;
  EXPECT_NE(refused.refused.find("--force"), std::string::npos) << refused.refused;
  EtLinkOptions force;
  force.forceOrderAcrossProcesses = true;
  const EtLink forced = linkExecutionTrace(*e, *k, force);
  EXPECT_TRUE(forced.refused.empty());
  EXPECT_EQ(forced.linkedOps, 8u);
  EXPECT_NE(forced.method.find("forced"), std::string::npos) << forced.method;
  // The same ET from the Kineto trace's own process links in order as before.
  const std::string samePid = "\"pid\": 1,";
  std::string own = et;
  own.replace(own.find("\"pid\": 99,"), 10, samePid);
  auto e1 = parseExecutionTrace(own, error);
  ASSERT_TRUE(e1) << error;
  EXPECT_EQ(linkExecutionTrace(*e1, *k).linkedOps, 8u);
}

}  // namespace
}  // namespace opscope
