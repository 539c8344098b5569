// The text of Help > About RGX: the version, the licence and where its full
// text is, and the credits: what RGX builds on and where its samples come from.
#pragma once

#include <QString>

namespace rgx::ui {

// Rich text for QMessageBox::about.
QString aboutText();

} // namespace rgx::ui
