// Where RGX finds the files it ships (the sample images), relative to the
// running program: the same layout in the build tree and in an install.
#pragma once

#include <QString>

namespace rgx {

// The folder of the bundled sample images: RGX_SAMPLES_DIR when set, else
// <program folder>/../share/rgx/samples. The build copies the samples there
// (build/share/rgx/samples beside build/app), `cmake --install` puts them in
// <prefix>/share/rgx/samples beside <prefix>/bin. Needs a QCoreApplication.
QString samplesDirectory();

// The file to load for the module `name` (no suffix, QLibrary adds it): beside
// the program in the build tree, <program folder>/../<libdir>/rgx/<name> in an
// install. Needs a QCoreApplication.
QString modulePath(const QString& name);

} // namespace rgx
