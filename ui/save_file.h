#pragma once
// GUI saves go through the same writer as the command line (io/output_file.h): drawn
// or serialised into memory first, then written so that no file is ever lost: the
// open trace is never replaced, links, hard links, devices and modes are respected.
#include <QByteArray>
#include <QString>
#include <string_view>

namespace opscope::ui {

// false with *error set (one line) when nothing was written.
bool saveBytes(const QString& path, std::string_view bytes, QString* error);
inline bool saveBytes(const QString& path, const QByteArray& bytes, QString* error) {
  return saveBytes(path, std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())), error);
}

}  // namespace opscope::ui
