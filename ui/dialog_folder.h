#pragma once
// Where file dialogs start: the open trace's folder (where its exports, GPU files and
// execution traces usually sit), not the working directory the window was launched
// from. The window sets it when a trace opens; a dialog asks for a start path with a
// default file name in it.
#include <QString>

namespace opscope::ui {

void setDialogFolder(const QString& folder);
// folder/fileName (just the folder when fileName is empty); fileName alone when no
// trace has been opened.
QString dialogStart(const QString& fileName = {});

}  // namespace opscope::ui
