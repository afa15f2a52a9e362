#pragma once
// Names as every view and chart shows them: shortened by meaning
// (core/analysis/short_name.h), then elided only if still too long, keeping the part
// that tells siblings apart. The full name always goes in the tooltip or Details.
#include <QString>
#include <QStringList>
#include <string>
#include <string_view>
#include <vector>

namespace opscope::ui {

QString displayName(std::string_view full);
// At most maxChars characters: a long base name loses its middle before the template
// part ("<float,…direct_copy…>") loses anything.
QString displayName(std::string_view full, int maxChars);
QString elideMiddle(const QString& s, int maxChars);
// The labels of one chart: displayName(full, maxChars) each, except that labels of
// different names never coincide: such labels are shortened around where the names
// differ, and what still coincides is numbered (" #2").
QStringList distinctDisplayNames(const std::vector<std::string>& fulls, int maxChars);

// Widths of the charts' name labels, in characters. Tested (first_glance_test.cpp) to
// keep every distinct op / every distinct name of the public traces apart.
inline constexpr int kOpAxisChars = 36;       // rotated op names under the op-kernels bars
inline constexpr int kBarLabelChars = 44;     // names beside horizontal bars (breakdown)
inline constexpr int kKernelLabelChars = 56;  // kernel names beside the kernel-statistics bars

}  // namespace opscope::ui
