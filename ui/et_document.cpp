#include "et_document.h"

#include <QFile>

#include "et/chakra_et.h"
#include "et/execution_trace.h"
#include "io/byte_source.h"

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
  if (!doc->link.refused.empty()) {
    error = doc->link.refused;
    return nullptr;
  }
  doc->shapes = std::make_shared<const std::map<uint64_t, OpShapes>>(etOpShapes(doc->et, doc->link));
  return doc;
}

void EtLinker::link(const QString& path, std::shared_ptr<const TraceDocument> kineto) {
  const std::string file = QFile::encodeName(path).toStdString();
  struct Outcome {
    std::shared_ptr<const EtDocument> et;
    std::string error;
  };
  job_.run(
      this,
      [kineto, file] {
        Outcome o;
        o.et = loadEtDocument(file, kineto, o.error);
        return o;
      },
      [path](EtLinker* self, Outcome o) {
        if (o.et) emit self->linked(std::move(o.et), path);
        else
          emit self->failed(QStringLiteral("Open execution trace"),
                            QStringLiteral("%1: %2").arg(path, QString::fromStdString(o.error)));
      },
      [path](EtLinker* self, const QString& message) {
        emit self->failed(QStringLiteral("Open execution trace"), QStringLiteral("%1: %2").arg(path, message));
      });
}

bool isExecutionTraceFile(const std::string& path) {
  std::string error;
  auto src = ByteSource::open(path, error);
  if (!src) return false;
  const std::string head = peekHead(*src, 1 << 16);
  return looksLikeExecutionTrace(head) || looksLikeChakraEt(head);
}

}  // namespace opscope::ui
