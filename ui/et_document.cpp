#include "et_document.h"

namespace opscope::ui {

std::shared_ptr<const EtDocument> loadEtDocument(const std::string& path, std::shared_ptr<const TraceDocument> kineto,
                                                 std::string& error) {
  auto et = loadExecutionTrace(path, error);
  if (!et) return nullptr;
  auto doc = std::make_shared<EtDocument>();
  doc->path = path;
  doc->et = std::move(*et);
  doc->kineto = std::move(kineto);
  doc->link = linkExecutionTrace(doc->et, *doc->kineto->trace);
  doc->shapes = std::make_shared<const std::map<uint64_t, OpShapes>>(etOpShapes(doc->et, doc->link));
  return doc;
}

}  // namespace opscope::ui
