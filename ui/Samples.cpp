// Sample lookup: RGX_SAMPLES_DIR or the folder beside the program
// (InstallPaths.h), then the copies embedded in the program.
#include "Samples.h"
#include "InstallPaths.h"

#include <QDir>
#include <QFileInfo>

namespace rgx::ui {

namespace {

QStringList sampleFolders()
{
    // The build tree and an install have the same layout: bin/../share/rgx/samples.
    return {samplesDirectory(), QStringLiteral(":/samples")};
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
