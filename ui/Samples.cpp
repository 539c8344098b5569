// Sample lookup: RGX_SAMPLES_DIR or the folder beside the program
// (InstallPaths.h), then the copies embedded in the program (images only:
// the volume readers take files from disk).
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

// Menu titles of the bundled volumes, whose file names say little;
// another volume put in the folder is listed under its own name.
QString volumeTitle(const QString& name)
{
    if (name == QLatin1String("mni_icbm152_t1_tal_nlin_sym_09a_converted"))
        return QStringLiteral("MNI brain template, 197 x 233 x 189 (NIfTI volume)");
    if (name == QLatin1String("dicom-ct-series"))
        return QStringLiteral("CT series, 16 x 16 x 5 (DICOM volume)");
    return name + QStringLiteral(" (volume)");
}

// The sample of an image or volume path, with the seed file of the same
// name beside it or in another sample folder.
Sample sampleOf(const QString& path, const QString& name, bool volume, const QStringList& folders)
{
    Sample sample;
    sample.name = name;
    sample.volume = volume;
    sample.title = volume ? volumeTitle(name) : name.left(1).toUpper() + name.mid(1);
    sample.imagePath = path;
    const QString seedsName = name + QStringLiteral(".seeds");
    const QString besidePath = QFileInfo(path).dir().filePath(seedsName);
    sample.seedsPath = QFileInfo::exists(besidePath) ? besidePath : findFile(folders, seedsName);
    return sample;
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
    for (const QString& fileName : names)
        samples.push_back(sampleOf(findFile(folders, fileName), QFileInfo(fileName).completeBaseName(), false, folders));

    // Volumes from the folder on disk: NIfTI files and folders (a DICOM
    // series or numbered slices), opened as File > Open opens them.
    const QDir disk(samplesDirectory());
    for (const QString& fileName : disk.entryList({QStringLiteral("*.nii"), QStringLiteral("*.nii.gz")}, QDir::Files,
                                                  QDir::Name)) {
        const QString name = fileName.left(fileName.indexOf(QStringLiteral(".nii")));
        samples.push_back(sampleOf(disk.absoluteFilePath(fileName), name, true, folders));
    }
    for (const QString& folderName : disk.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        samples.push_back(sampleOf(disk.absoluteFilePath(folderName), folderName, true, folders));
    return samples;
}

Sample findSample(const QString& name)
{
    const std::vector<Sample> samples = bundledSamples();
    for (const Sample& sample : samples)
        if (sample.name.compare(name, Qt::CaseInsensitive) == 0)
            return sample;
    const Sample* starting = nullptr;
    for (const Sample& sample : samples) {
        if (name.isEmpty() || !sample.name.startsWith(name, Qt::CaseInsensitive))
            continue;
        if (starting)
            return {}; // more than one: the name says too little
        starting = &sample;
    }
    return starting ? *starting : Sample{};
}

} // namespace rgx::ui
