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

} // namespace rgx
