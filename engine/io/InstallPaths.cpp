// Sample lookup relative to the program, never into the source tree.
#include "InstallPaths.h"

#include <QCoreApplication>
#include <QDir>

namespace rgx {

QString samplesDirectory()
{
    const QString fromEnvironment = qEnvironmentVariable("RGX_SAMPLES_DIR");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/rgx/samples"));
}

} // namespace rgx
