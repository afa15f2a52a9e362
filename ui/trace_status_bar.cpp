#include "trace_status_bar.h"

#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <set>

#include "load_job.h"
#include "timeline/time_view.h"
#include "trace_document.h"

namespace opscope::ui {

namespace {

QString megabytes(uint64_t bytes) { return QString::number(static_cast<double>(bytes) / (1 << 20), 'f', 1) + " MB"; }

}  // namespace

TraceStatusBar::TraceStatusBar(QStatusBar* bar, LoadJob* job) : QObject(bar), job_(job) {
  info_ = new QLabel(bar);
  bar->addWidget(info_, 1);
  progressLabel_ = new QLabel(bar);
  progress_ = new QProgressBar(bar);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(260);
  cancel_ = new QPushButton(QStringLiteral("Cancel"), bar);
  connect(cancel_, &QPushButton::clicked, job_, &LoadJob::cancel);
  warnings_ = new QPushButton(bar);
  warnings_->setFlat(true);
  connect(warnings_, &QPushButton::clicked, this, &TraceStatusBar::warningsRequested);
  et_ = new QPushButton(bar);
  et_->setFlat(true);
  et_->setToolTip(QStringLiteral("The execution trace's link: what could not be linked, and why"));
  et_->hide();
  connect(et_, &QPushButton::clicked, this, &TraceStatusBar::etReportRequested);
  bar->addPermanentWidget(et_);
  bar->addPermanentWidget(warnings_);
  bar->addPermanentWidget(progressLabel_);
  bar->addPermanentWidget(progress_);
  bar->addPermanentWidget(cancel_);
  warnings_->hide();
  timer_ = new QTimer(this);
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, &TraceStatusBar::poll);
  setLoading(false);
  info_->setText(QStringLiteral("No trace loaded"));
}

QString TraceStatusBar::info() const { return info_->text(); }

void TraceStatusBar::setLoading(bool loading, const QString& what) {
  progress_->setVisible(loading);
  progressLabel_->setVisible(loading);
  cancel_->setVisible(loading);
  if (loading) {
    info_->setText(what);
    progressLabel_->setText(QString());
    progress_->setValue(0);
    timer_->start();
  } else {
    timer_->stop();
  }
}

void TraceStatusBar::poll() {
  const LoadJob::Progress p = job_->progress();
  if (p.preparing) {
    progress_->setRange(0, 0);  // busy: building the view structures
    progressLabel_->setText(QStringLiteral("%L1 events · building views").arg(p.events));
    return;
  }
  progress_->setRange(0, 1000);
  if (p.bytesTotal) progress_->setValue(static_cast<int>(1000.0 * p.bytesDone / p.bytesTotal));
  progressLabel_->setText(
      QStringLiteral("%1 of %2 · %L3 events").arg(megabytes(p.bytesDone), megabytes(p.bytesTotal)).arg(p.events));
}

void TraceStatusBar::showEtLink(const QString& text) {
  et_->setText(text);
  et_->setVisible(!text.isEmpty());
}

void TraceStatusBar::showDocument(const TraceDocument* doc) {
  if (!doc) {
    info_->setText(QStringLiteral("No trace loaded"));
    warnings_->hide();
    showEtLink(QString());
    return;
  }
  const Trace& t = *doc->trace;
  uint64_t gpuStreams = 0;
  for (const Track& tr : t.tracks) gpuStreams += tr.kind == TrackKind::GpuStream;
  // "slices" as `opscope summary` counts them (its "slices" key), not the file's events.
  std::set<int64_t> ranks;
  for (const Process& p : t.processes)
    if (p.rank != kNoId) ranks.insert(p.rank);
  const QString name = QFileInfo(QString::fromStdString(doc->path)).fileName();
  // The device as the trace calls it: "12 MTIA streams", "1 CPU device stream".
  info_->setText(QStringLiteral("%1 · %L2 slices · %3 %9 stream%4 · %5 iteration%6 · %7 wall · loaded in %8 s")
                     .arg(ranks.empty() ? name : QStringLiteral("%1 (%2 ranks)").arg(name).arg(ranks.size()))
                     .arg(t.sliceCount())
                     .arg(gpuStreams)
                     .arg(gpuStreams == 1 ? "" : "s")
                     .arg(t.iterations.size())
                     .arg(t.iterations.size() == 1 ? "" : "s")
                     .arg(QString::fromStdString(formatDuration(t.maxTs - t.minTs)))
                     .arg(doc->timings.parseSeconds + doc->timings.hierarchySeconds + doc->prepareSeconds, 0, 'f', 2)
                     .arg(QString::fromStdString(t.meta.deviceKind)));
  // Problems raise an orange badge; informational diagnostics only (launch flows that
  // lost an end, which every Kineto file has) a quiet one to the same list.
  const uint64_t problems = t.diagnostics.problems(), all = t.diagnostics.total();
  warnings_->setVisible(all > 0);
  if (!all) return;
  QStringList parts;
  for (const WarningEntry& e : t.diagnostics.entries())
    if (!isInformational(e.kind) || !problems)
      parts << QStringLiteral("%L1 \u00D7 %2").arg(e.count).arg(QString::fromLatin1(warningKindName(e.kind)));
  // A style icon, not a glyph: fonts without U+26A0 / U+24D8 drew a box.
  warnings_->setIcon(
      QApplication::style()->standardIcon(problems ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation));
  warnings_->setText(parts.join(QStringLiteral(", ")));
  warnings_->setStyleSheet(problems ? QStringLiteral("color: #b35900; font-weight: bold;") : QString());
  warnings_->setToolTip(
      problems ? QStringLiteral("Click for the list of warnings")
               : QStringLiteral("Nothing wrong: expected diagnostics of this kind of file. Click for the list"));
}

}  // namespace opscope::ui
