// Sample lookup: RGX_SAMPLES_DIR, the folders an install or a build puts them
// in, the source tree, then the copies embedded in the program.
#include "Samples.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace rgx::ui {

namespace {

QStringList sampleFolders()
{
    QStringList folders;
    const QString fromEnvironment = qEnvironmentVariable("RGX_SAMPLES_DIR");
    if (!fromEnvironment.isEmpty())
        folders << fromEnvironment;
    const QString appDir = QCoreApplication::applicationDirPath();
    folders << appDir + QStringLiteral("/samples") << appDir + QStringLiteral("/../share/rgx/samples");
#ifdef RGX_SOURCE_SAMPLES_DIR
    folders << QStringLiteral(RGX_SOURCE_SAMPLES_DIR);
#endif
    folders << QStringLiteral(":/samples");
    return folders;
}

QString findFile(const QStringList& folders, const QString& fileName)
{
    for (const QString& folder : folders) {
        const QString path = QDir(folder).filePath(fileName);
        if (QFileInfo::exists(path))
            return folder.startsWith(QLatin1Char(':')) ? path : QFileInfo(path).absoluteFilePath();
    }
    return {};
}

} // namespace

std::vector<Sample> bundledSamples()
{
    const QStringList folders = sampleFolders();
    QStringList names;
    for (const QString& folder : folders) {
        const QStringList images = QDir(folder).entryList({QStringLiteral("*.png"), QStringLiteral("*.jpg"),
                                                            QStringLiteral("*.tif"), QStringLiteral("*.tiff")},
                                                           QDir::Files, QDir::Name);
        for (const QString& image : images)
            if (!names.contains(image))
                names << image;
    }
    std::vector<Sample> samples;
    for (const QString& fileName : names) {
        Sample sample;
        sample.name = QFileInfo(fileName).completeBaseName();
        sample.title = sample.name.left(1).toUpper() + sample.name.mid(1);
        sample.imagePath = findFile(folders, fileName);
        // The seed file from the same folder as the image when it has one.
        const QString seedsName = sample.name + QStringLiteral(".seeds");
        const QString besideImage = QFileInfo(sample.imagePath).dir().filePath(seedsName);
        sample.seedsPath = QFileInfo::exists(besideImage) ? besideImage : findFile(folders, seedsName);
        samples.push_back(sample);
    }
    return samples;
}

Sample findSample(const QString& name)
{
    for (const Sample& sample : bundledSamples())
        if (sample.name.compare(name, Qt::CaseInsensitive) == 0)
            return sample;
    return {};
}

} // namespace rgx::ui
