// MLCommons Chakra's protobuf execution trace (tests/data/chakra, Chakra's own test data):
// node count and names as an independent decoding gives them (a Python varint reader over
// the raw messages: 3,664 nodes; 320 each of "aten::copy_(0)", "aten::copy_(1)" and
// "Memcpy DtoD (Device -> Device)"), shapes and attributes in the JSON form, and cut files
// as one-line errors.
#include "et/chakra_et.h"

#include <gtest/gtest.h>

#include <map>

#include "io/byte_source.h"
#include "test_support.h"

namespace opscope {
namespace {

const std::string kChakra = OPSCOPE_SOURCE_DIR "/tests/data/chakra/chakra.0.et.gz";

TEST(ChakraEt, RealTraceNodesAsAnIndependentDecodingGivesThem) {
  std::string error;
  auto et = loadExecutionTrace(kChakra, error);
  ASSERT_TRUE(et) << error;
  EXPECT_EQ(et->nodes.size(), 3664u);
  EXPECT_EQ(et->schema, "1.0.1");
  EXPECT_EQ(et->top["pid"], 114598);
  std::map<std::string, size_t> names;
  for (const EtNode& n : et->nodes) ++names[n.name];
  EXPECT_EQ(names["aten::copy_(0)"], 320u);
  EXPECT_EQ(names["aten::copy_(1)"], 320u);
  EXPECT_EQ(names["Memcpy DtoD (Device -> Device)"], 320u);
  EXPECT_TRUE(et->problems.empty()) << et->problems.front().what;  // no parent made up from ctrl_deps
  // Shapes parsed from the IOInfo text; rf_id from the attributes.
  size_t withShapes = 0, withRf = 0;
  for (const EtNode& n : et->nodes) {
    withShapes += n.inputShapes().is_array() && !n.inputShapes().empty();
    withRf += n.rfId.has_value();
  }
  EXPECT_GT(withShapes, 1000u);
  EXPECT_GT(withRf, 1000u);
  // The summary names the format it read (it called a Chakra trace a PyTorch one).
  EXPECT_EQ(etSummaryText(*et, "f").rfind("f: Chakra execution trace (protobuf), schema 1.0.1, 3664 nodes\n", 0), 0u);
  const auto summary = nlohmann::ordered_json::parse(etSummaryJson(*et, "f"));
  EXPECT_EQ(summary["format"], "pytorch-et");  // the contract's kind, kept
  EXPECT_EQ(summary["encoding"], "chakra-protobuf");
}

TEST(ChakraEt, ACutFileIsAOneLineError) {
  std::string bytes = test::gunzip(test::readFile(kChakra));
  ASSERT_TRUE(looksLikeChakraEt(bytes.substr(0, 256)));
  bytes.resize(bytes.size() / 2);
  auto src = ByteSource::fromMemory(bytes);
  std::string error;
  EXPECT_FALSE(loadExecutionTrace(*src, error));
  EXPECT_EQ(error.rfind("Chakra execution trace: ", 0), 0u) << error;
  EXPECT_NE(error.find("cut short"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(looksLikeChakraEt(R"({"schema": "1.0.1", "nodes": []})"));
}

}  // namespace
}  // namespace opscope
