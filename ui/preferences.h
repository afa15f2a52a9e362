#pragma once
// What Edit ▸ Preferences sets, stored with QSettings (keys under "preferences/", and
// "view/dark", the key View ▸ Dark theme has always used). Loading never fails: a value
// that is missing or out of range reads as its default.
#include <QSettings>
#include <QString>
#include <memory>

#include "analysis/kernel_classes.h"
#include "timeline/time_view.h"

namespace opscope::ui {

// The docks shown beside the timeline when there is no saved window layout (first
// start, or after Preferences ▸ "Apply the layout now").
enum class DockLayout { TimelineAndOpTree, TimelineOnly, TimelineAndAnalysis };

struct Preferences {
  TimeUnit timeUnit = TimeUnit::Auto;
  bool dark = false;
  QString defaultGpu;         // a GPU preset's name; "" predicts for the trace's own GPU
  QString kernelClassesFile;  // "": ~/.config/opscope/kernel_classes.json when it exists
  DockLayout layout = DockLayout::TimelineAndOpTree;

  bool operator==(const Preferences&) const = default;
};

Preferences loadPreferences(const QSettings& s);
void savePreferences(QSettings& s, const Preferences& p);

// The kernel-class rules the analyses use: the file's rules before the built-in ones
// (file "" : the user's default file, as the command line reads it). A file that cannot
// be read or parsed gives null and one line in error naming the file and the rule.
std::shared_ptr<const KernelClassifier> kernelClassifierFor(const QString& file, QString* error);
// The built-in rules alone (what panels use until preferences are applied; scripted
// windows, screenshots and tests keep them).
std::shared_ptr<const KernelClassifier> builtinKernelClassifier();

}  // namespace opscope::ui
