#pragma once
// Loads a trace on a background thread. Progress lives in atomics the GUI polls (a
// timer, not a signal per chunk); cancel() makes the loader stop at its next progress
// check; a generation counter drops the result of a load that was superseded. The
// result arrives by queued signal on the GUI thread. Whatever the loader or the view
// preparation throws becomes failed(path, one line): never an abort of the GUI.
#include <QObject>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "trace_document.h"

namespace opscope::ui {

class LoadJob : public QObject {
  Q_OBJECT
 public:
  // How a path is loaded (loadTraceFile; tests substitute one that fails or throws).
  using Loader = std::function<LoadResult(const std::string& path, const LoadOptions& options)>;
  explicit LoadJob(QObject* parent = nullptr, Loader loader = {});
  ~LoadJob() override;  // cancels and joins

  void setLoader(Loader loader) { loader_ = std::move(loader); }
  // Starts loading path, cancelling any load in progress.
  void start(const QString& path);
  // Starts loading several rank traces as one session (ranks/rank_session.h).
  void startFiles(const QStringList& files);
  void cancel();
  bool running() const { return running_.load(); }
  // Blocks until the current load's thread has finished (tests; the result signal is
  // still delivered through the event loop).
  void wait();

  struct Progress {
    uint64_t bytesDone = 0, bytesTotal = 0, events = 0;
    bool preparing = false;  // parsing done, building the view structures
  };
  Progress progress() const;

 signals:
  void loaded(std::shared_ptr<const opscope::ui::TraceDocument> doc);
  void failed(QString path, QString message);
  void cancelled(QString path);

 private:
  void joinThread();
  void startWith(const QString& path, const std::string& file, std::function<LoadResult(const LoadOptions&)> run);
  Loader loader_;
  std::thread thread_;
  std::atomic<uint64_t> generation_{0};
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> bytesDone_{0}, bytesTotal_{0}, events_{0};
  std::atomic<bool> preparing_{false};
};

}  // namespace opscope::ui
