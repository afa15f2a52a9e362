#include "panels/welcome_page.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSizePolicy>
#include <QVBoxLayout>

namespace opscope::ui {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
  // The wrapped labels are added without an alignment flag: a QLabel with word wrap that a layout aligns
  // gets its size hint's width and the height of a few lines, which cut the text at 1280x720 ("Open a
  // PyTorch profiler (Kineto) trace, an Nsight Systems SQLite" and nothing after). Instead the column is a
  // widget of bounded width, centred, whose labels take its whole width and wrap inside it; the
  // layout then asks each label its height for that width.
  // The page scrolls instead of setting the window's minimum: eight recent files with
  // long paths asked for over 700 px, and a 1000x700 window opened on a trace came out
  // 706 px tall (the central stack's minimum is its largest page's).
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* page = new QWidget(scroll);
  scroll->setWidget(page);
  auto* whole = new QVBoxLayout(this);
  whole->setContentsMargins(0, 0, 0, 0);
  whole->addWidget(scroll);
  auto* outer = new QVBoxLayout(page);
  outer->addStretch(2);
  auto* row = new QHBoxLayout;
  outer->addLayout(row);
  outer->addStretch(3);
  auto* holder = new QWidget(page);
  holder->setMaximumWidth(660);  // room for the recent files' buttons (at most 640)
  holder->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  row->addStretch(1);
  row->addWidget(holder, 4);
  row->addStretch(1);
  auto* column = new QVBoxLayout(holder);
  column->setContentsMargins(0, 0, 0, 0);
  auto* title = new QLabel(QStringLiteral("<span style='font-size:20pt; font-weight:600'>opscope</span>"), holder);
  column->addWidget(title, 0, Qt::AlignHCenter);
  auto* how =
      new QLabel(QStringLiteral("Open a PyTorch profiler (Kineto) trace, an Nsight Systems export,<br>a rocprofv3 "
                                "result, an XPlane profile, an execution trace (PyTorch or Chakra),<br>a dv/dt or a "
                                "PlaidML log.<br>File \u25B8 Open, drag and drop a file here, or "
                                "pass it on the command line."),
                 holder);
  how->setAlignment(Qt::AlignHCenter);
  how->setWordWrap(true);  // the page never sets the window's minimum width
  column->addWidget(how);
  auto* open = new QPushButton(QStringLiteral("Open a trace\u2026"), holder);
  open->setDefault(true);
  connect(open, &QPushButton::clicked, this, &WelcomePage::openDialogRequested);
  column->addSpacing(8);
  column->addWidget(open, 0, Qt::AlignHCenter);
  column->addSpacing(12);
  recentBox_ = new QVBoxLayout;
  column->addLayout(recentBox_);
  column->addSpacing(12);
  auto* keys = new QLabel(QStringLiteral("<span style='color:gray'><b>Ctrl+Shift+P</b> finds any action, track or op"
                                         " \u00B7 <b>?</b> lists the keys and mouse gestures</span>"),
                          holder);
  keys->setWordWrap(true);
  keys->setAlignment(Qt::AlignHCenter);
  column->addWidget(keys);
}

void WelcomePage::setRecent(const QStringList& paths) {
  while (QLayoutItem* item = recentBox_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  recentShown_ = 0;
  if (paths.isEmpty()) return;
  auto* head = new QLabel(QStringLiteral("<b>Recent</b>"), this);
  recentBox_->addWidget(head, 0, Qt::AlignHCenter);
  for (const QString& path : paths) {
    const QFileInfo info(path);
    const QString where = QDir::toNativeSeparators(info.absolutePath());
    const QString description =
        info.exists() ? QStringLiteral("%1 \u00B7 %2").arg(where, QLocale().formattedDataSize(info.size()))
                      : QStringLiteral("%1 \u00B7 missing").arg(where);
    auto* b = new QCommandLinkButton(info.fileName(), description, this);
    b->setToolTip(path);
    b->setEnabled(info.exists());
    b->setMinimumWidth(420);
    b->setMaximumWidth(640);
    connect(b, &QCommandLinkButton::clicked, this, [this, path] { emit openRequested(path); });
    recentBox_->addWidget(b, 0, Qt::AlignHCenter);
    ++recentShown_;
  }
}

}  // namespace opscope::ui
