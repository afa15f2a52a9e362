#include "load_job.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaObject>

#include "ranks/rank_session.h"
#include "worker.h"

namespace opscope::ui {

LoadJob::LoadJob(QObject* parent, Loader loader) : QObject(parent), loader_(std::move(loader)) {
  // A folder is a multi-rank session: its rank traces, loaded together and merged.
  if (!loader_)
    loader_ = [](const std::string& path, const LoadOptions& options) { return loadTraceOrSession(path, options); };
}

LoadJob::~LoadJob() {
  cancel();
  joinThread();
}

void LoadJob::joinThread() {
  if (thread_.joinable()) thread_.join();
}

void LoadJob::wait() { joinThread(); }

void LoadJob::cancel() {
  if (cancel_) cancel_->store(true);
}

LoadJob::Progress LoadJob::progress() const {
  return {bytesDone_.load(), bytesTotal_.load(), events_.load(), preparing_.load()};
}

void LoadJob::start(const QString& path) {
  const std::string file = QFile::encodeName(path).toStdString();  // the file system's bytes, not UTF-8
  startWith(path, file, [this, file](const LoadOptions& options) { return loader_(file, options); });
}

void LoadJob::startFiles(const QStringList& files) {
  std::vector<std::string> list;
  for (const QString& f : files) list.push_back(QFile::encodeName(f).toStdString());
  // The session is named after the folder of its first file.
  const QString label = files.isEmpty() ? QString() : QFileInfo(files.front()).absolutePath();
  startWith(label, QFile::encodeName(label).toStdString(),
            [list](const LoadOptions& options) { return loadRankSession(list, options); });
}

void LoadJob::startWith(const QString& path, const std::string& file,
                        std::function<LoadResult(const LoadOptions&)> run) {
  cancel();
  joinThread();
  const uint64_t gen = ++generation_;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  bytesDone_ = 0;
  bytesTotal_ = 0;
  events_ = 0;
  preparing_ = false;
  running_ = true;
  auto cancelFlag = cancel_;
  thread_ = std::thread([this, gen, cancelFlag, file, path, run = std::move(run)] {
    LoadOptions options;
    options.progress = [this, cancelFlag](const LoadProgress& p) {
      bytesDone_.store(p.bytesDone, std::memory_order_relaxed);
      bytesTotal_.store(p.bytesTotal, std::memory_order_relaxed);
      events_.store(p.events, std::memory_order_relaxed);
      return !cancelFlag->load();
    };
    std::shared_ptr<const TraceDocument> doc;
    bool wasCancelled = false;
    QString error;
    try {
      LoadResult r;
      if (cancelFlag->load()) r.status = LoadStatus::Cancelled;
      else r = run(options);
      if (r.status == LoadStatus::Ok && !cancelFlag->load()) {
        preparing_ = true;
        doc = prepareDocument(file, std::move(r));
      }
      wasCancelled = cancelFlag->load() || r.status == LoadStatus::Cancelled;
      error = QString::fromStdString(r.error);
    } catch (...) {
      // Escaping this thread would terminate the program with the user's session.
      doc.reset();
      error = workerErrorText(std::current_exception());
    }
    running_ = false;
    // Delivered on the GUI thread; a newer start() makes this result stale.
    QMetaObject::invokeMethod(
        this,
        [this, gen, doc, wasCancelled, error, path] {
          if (gen != generation_.load()) return;
          if (wasCancelled) emit cancelled(path);
          else if (doc) emit loaded(doc);
          else emit failed(path, error);
        },
        Qt::QueuedConnection);
  });
}

}  // namespace opscope::ui
