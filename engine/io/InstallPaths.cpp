// Sample lookup relative to the program, never into the source tree.
#include "InstallPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace rgx {

QString samplesDirectory()
{
    const QString fromEnvironment = qEnvironmentVariable("RGX_SAMPLES_DIR");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../share/rgx/samples"));
}

QString modulePath(const QString& name)
{
    const QDir programDir(QCoreApplication::applicationDirPath());
    const QString installed = QDir::cleanPath(
        programDir.filePath(QStringLiteral("../" RGX_INSTALL_LIBDIR "/rgx/") + name));
    for (const QString& suffix : {QStringLiteral(".so"), QString()})
        if (QFileInfo::exists(installed + suffix))
            return installed;
    return programDir.filePath(name);
}

} // namespace rgx
