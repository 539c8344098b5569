// File actions: reading and writing what the explorer opens and exports,
// the dialogs that ask for the files, and the recent-files list.
#include "FileActions.h"

#include "DevicePanel.h"
#include "Document.h"
#include "Errors.h"
#include "LogPanel.h"
#include "Notices.h"
#include "ParametersCommand.h"
#include "ParametersPanel.h"
#include "Samples.h"
#include "Session.h"
#include "TimingPanel.h"
#include "ViewState.h"
#include "VolumeView.h"
#include "io/Export.h"
#include "io/VolumeFile.h"
#include <QBuffer>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>

namespace rgx::ui {

namespace {

constexpr int maxRecentFiles = 10;

QString text(const std::string& value) { return QString::fromStdString(value); }

QString describeImage(const LumaImage& image)
{
    if (image.isVolume()) {
        const VolumeInfo& info = image.volume;
        QString text = QStringLiteral("%1 x %2 x %3 voxels of %4 x %5 x %6 mm, %7-bit %8")
                           .arg(image.width).arg(image.height).arg(image.depth)
                           .arg(info.spacing[0], 0, 'g', 4).arg(info.spacing[1], 0, 'g', 4).arg(info.spacing[2], 0, 'g', 4)
                           .arg(image.bitDepth)
                           .arg(image.colour ? QStringLiteral("colour") : QStringLiteral("grey"));
        if (info.valueShift != 0)
            text += QStringLiteral(", value shift %1").arg(info.valueShift);
        if (!info.format.empty())
            text += QStringLiteral(" (%1)").arg(QString::fromStdString(info.format));
        return text;
    }
    return QStringLiteral("%1 x %2, %3-bit %4")
        .arg(image.width)
        .arg(image.height)
        .arg(image.bitDepth)
        .arg(image.colour ? QStringLiteral("colour") : QStringLiteral("grey"));
}

bool isSeedsFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("seeds") || suffix == QLatin1String("txt");
}

// Asks for the size (and which chart) before the chart is exported.
class ChartExportDialog : public QDialog {
public:
    ChartExportDialog(QWidget* parent, int chart, QSize size) : QDialog(parent)
    {
        setWindowTitle(QStringLiteral("Export chart"));
        auto* form = new QFormLayout(this);
        chart_ = new QComboBox(this);
        chart_->addItems({QStringLiteral("Per iteration"), QStringLiteral("Per kernel"), QStringLiteral("Timeline")});
        chart_->setCurrentIndex(chart);
        width_ = new QSpinBox(this);
        height_ = new QSpinBox(this);
        for (QSpinBox* spin : {width_, height_}) {
            spin->setRange(100, 20000);
            spin->setSuffix(QStringLiteral(" px"));
        }
        width_->setValue(size.width());
        height_->setValue(size.height());
        form->addRow(QStringLiteral("Chart"), chart_);
        form->addRow(QStringLiteral("Width"), width_);
        form->addRow(QStringLiteral("Height"), height_);
        form->addRow(new QLabel(QStringLiteral("The file name's suffix (.png or .pdf) chooses the format."), this));
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        form->addRow(buttons);
    }
    int chart() const { return chart_->currentIndex(); }
    QSize size() const { return QSize(width_->value(), height_->value()); }

private:
    QComboBox* chart_;
    QSpinBox* width_;
    QSpinBox* height_;
};

} // namespace

FileActions::FileActions(Document* document, const Panels& panels, Notices* notices, QWidget* window)
    : QObject(window), document_(document), panels_(panels), notices_(notices), window_(window)
{
}

// ---- images, samples, sessions ------------------------------------------

bool FileActions::openImage(const QString& path)
{
    QImage image;
    std::shared_ptr<LumaImage> luma;
    try {
        if (isVolumePath(path)) {
            luma = std::make_shared<LumaImage>(loadLumaVolume(path));
            if (!luma->isVolume())
                image = lumaToQImage(*luma); // one slice: an image after all
        } else if (QFileInfo(path).isDir()) {
            throw InputError(path.toStdString() + " is a folder, not a volume RGX can read");
        } else {
            image = readImageFile(path);
            luma = std::make_shared<LumaImage>(lumaFromImage(image));
        }
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Open image"), QString::fromUtf8(error.what()));
        return false;
    }
    return openLoaded(path, image, luma);
}

bool FileActions::openLoaded(const QString& path, const QImage& image, std::shared_ptr<const LumaImage> luma)
{
    if (!luma || (!luma->isVolume() && image.isNull())) {
        notices_->warn(QStringLiteral("Open image"), QStringLiteral("%1: nothing to show").arg(path));
        return false;
    }
    closeImage();
    const QString imagePath = path.startsWith(QLatin1Char(':')) ? path : QFileInfo(path).absoluteFilePath();
    sessionPath_.clear();
    document_->setImage(imagePath, image, luma);
    emit imageOpened();
    const QString name = QFileInfo(path).fileName();
    emit titleChanged(luma->isVolume() ? QStringLiteral("%1 - %2 - RGX").arg(name, describeImage(*luma))
                                       : QStringLiteral("%1 - RGX").arg(name));
    notices_->log()->info(QStringLiteral("Opened %1: %2").arg(path, describeImage(*luma)));
    if (luma->isVolume())
        notices_->status(QStringLiteral("Opened %1: %2").arg(name, describeImage(*luma)), 10000);
    if (!path.startsWith(QLatin1Char(':')) && QFileInfo::exists(path))
        addRecentFile(imagePath);
    return true;
}

void FileActions::closeImage()
{
    // The image goes first, so that nothing drawn or run from here on uses it.
    document_->clear();
    result_.reset();
    fullResult_.reset();
    emit imageClosed();
}

bool FileActions::openSample(const QString& name)
{
    const Sample sample = findSample(name);
    if (sample.name.isEmpty()) {
        notices_->warn(QStringLiteral("Open sample"), QStringLiteral("No bundled sample named \"%1\".").arg(name));
        return false;
    }
    if (!openImage(sample.imagePath))
        return false;
    if (sample.seedsPath.isEmpty()) {
        notices_->log()->warning(QStringLiteral("Sample %1 has no seed file: click on %2 to add seeds.")
                                     .arg(sample.title, sample.volume ? QStringLiteral("a slice") : QStringLiteral("the image")));
        return true;
    }
    try {
        std::vector<Seed> seeds = readSeedsFile(sample.seedsPath);
        validateSeeds(seeds, document_->luma()->width, document_->luma()->height, document_->luma()->depth);
        if (const auto params = suggestedParameters(sample.seedsPath))
            panels_.parameters->setParams(*params);
        document_->seedSet()->replaceAll(seeds); // part of opening the sample, not an edit to undo
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Open sample"), QString::fromUtf8(error.what()));
        return true;
    }
    notices_->log()->info(QStringLiteral("Seeds of the sample: %1 from %2").arg(document_->seeds().size()).arg(sample.seedsPath));
    emit runRequested();
    return true;
}

bool FileActions::openFile(const QString& path)
{
    if (isSessionFile(path))
        return openSession(path);
    if (isSeedsFile(path))
        return importSeeds(path);
    return openImage(path);
}

// A seeds file may name the parameters its seeds were placed for
// ("# parameters: ..."): the panel's parameters with those, and the log says
// which. nullopt when it names none; InputError for a line that cannot be read.
std::optional<PipelineParams> FileActions::suggestedParameters(const QString& seedsPath)
{
    const auto suggested = readSuggestedParameters(seedsPath);
    if (!suggested || suggested->empty())
        return std::nullopt;
    QStringList words;
    for (const ParameterAssignment& assignment : *suggested)
        words << text(std::string(assignment.field->option) + ' ' + assignment.text);
    notices_->log()->info(QStringLiteral("Parameters suggested by %1: %2")
                              .arg(QFileInfo(seedsPath).fileName(), words.join(QLatin1Char(' '))));
    return applyParameters(panels_.parameters->params(), *suggested);
}

bool FileActions::importSeeds(const QString& path)
{
    if (!document_->hasImage()) {
        notices_->warn(QStringLiteral("Import seeds"), QStringLiteral("Open an image before importing seeds."));
        return false;
    }
    std::vector<Seed> seeds;
    std::optional<PipelineParams> params;
    try {
        seeds = readSeedsFile(path);
        validateSeeds(seeds, document_->luma()->width, document_->luma()->height, document_->luma()->depth);
        params = suggestedParameters(path);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Import seeds"), QString::fromUtf8(error.what()));
        return false;
    }
    // One step of undo: the seeds and the parameters they came with.
    QUndoStack* undo = document_->undoStack();
    undo->beginMacro(QStringLiteral("import seeds from %1").arg(QFileInfo(path).fileName()));
    if (params) {
        undo->push(new ParametersCommand(panels_.parameters, panels_.parameters->params(), *params,
                                         ParametersCommand::Shown::Before));
    }
    undo->push(new ReplaceSeedsCommand(document_->seedSet(), seeds, QString()));
    undo->endMacro();
    document_->markSeedsSaved(); // they are in a file
    notices_->log()->info(QStringLiteral("Imported %1 seeds from %2").arg(seeds.size()).arg(path));
    return true;
}

bool FileActions::exportSeeds(const QString& path)
{
    try {
        saveFileAtomically(path, QByteArray::fromStdString(formatSeedsText(document_->seeds(), panels_.parameters->params())));
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Export seeds"), QString::fromUtf8(error.what()));
        return false;
    }
    document_->markSeedsSaved();
    notices_->log()->info(QStringLiteral("Wrote %1 seeds to %2").arg(document_->seeds().size()).arg(path));
    return true;
}

bool FileActions::openSession(const QString& path)
{
    Session session;
    GrowVariant variant;
    try {
        session = readSessionFile(path);
        variant = parseVariant(session.variant);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Open session"), QString::fromUtf8(error.what()));
        return false;
    }
    if (!openImage(session.imagePath))
        return false;
    try {
        // No seeds is a state a session records (an image opened and not yet
        // clicked, kept on quitting); only seeds there are must be valid.
        const LumaImage& luma = *document_->luma();
        if (!session.seeds.empty())
            validateSeeds(session.seeds, luma.width, luma.height, luma.depth);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Open session"), QStringLiteral("session %1: %2").arg(path, QString::fromUtf8(error.what())));
        return false;
    }
    ParametersPanel* parameters = panels_.parameters;
    const bool autoRun = session.autoRun;
    parameters->setAutoRun(false); // not triggered by the session's own seeds
    parameters->setParams(session.params);
    parameters->setTimeoutSeconds(session.timeoutSeconds);
    document_->seedSet()->replaceAll(session.seeds);
    document_->markSeedsSaved();
    parameters->setAutoRun(autoRun);
    if (session.volumeView && document_->isVolume() && panels_.volume) {
        panels_.volume->setCrosshair(session.volumeView->crosshair);
        panels_.volume->setWindowLevel(WindowLevel{session.volumeView->windowCentre, session.volumeView->windowWidth});
    }
    panels_.devices->setVariant(variant);
    emit sessionDeviceChosen(session.deviceId, session.deviceName);
    sessionPath_ = QFileInfo(path).absoluteFilePath();
    addRecentFile(sessionPath_);
    emit titleChanged(QStringLiteral("%1 - RGX").arg(QFileInfo(path).fileName()));
    notices_->log()->info(QStringLiteral("Opened session %1").arg(path));
    return true;
}

// The image, seeds and choices of now, as a session file records them.
Session FileActions::currentSession() const
{
    Session session;
    session.imagePath = document_->imagePath();
    session.seeds = document_->seeds();
    session.params = panels_.parameters->params();
    session.timeoutSeconds = panels_.parameters->timeoutSeconds();
    session.autoRun = panels_.parameters->autoRun();
    session.deviceId = panels_.devices->currentDeviceId();
    if (const DeviceInfo* device = panels_.devices->currentDevice())
        session.deviceName = device->name;
    session.variant = panels_.devices->variant().text();
    if (document_->isVolume()) {
        VolumeViewSettings view;
        if (panels_.volume && panels_.volume->hasVolume()) {
            view.crosshair = panels_.volume->crosshair();
            view.windowCentre = panels_.volume->windowLevel().centre;
            view.windowWidth = panels_.volume->windowLevel().width;
        }
        session.volumeView = view;
    }
    return session;
}

bool FileActions::saveSession(const QString& path)
{
    if (!document_->hasImage()) {
        notices_->warn(QStringLiteral("Save session"), QStringLiteral("Open an image first: a session records an image and its seeds."));
        return false;
    }
    try {
        saveFileAtomically(path, sessionToJson(currentSession(), QFileInfo(path).absolutePath()));
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Save session"), QString::fromUtf8(error.what()));
        return false;
    }
    document_->markSeedsSaved();
    sessionPath_ = QFileInfo(path).absoluteFilePath();
    addRecentFile(sessionPath_);
    notices_->log()->info(QStringLiteral("Saved session %1").arg(path));
    return true;
}

// ---- exports --------------------------------------------------------------

bool FileActions::hasResultToExport()
{
    if (result_)
        return true;
    notices_->warn(QStringLiteral("Export"), QStringLiteral("Nothing to export yet: run the pipeline first."));
    return false;
}

// The shown result with full maps, made once for all its exports (the
// explorer's results hold the box of the classified pixels only).
GrowResultPtr FileActions::fullResult()
{
    if (!fullResult_)
        fullResult_ = withFullMaps(result_);
    return fullResult_;
}

bool FileActions::exportLabels(const QString& path)
{
    if (!hasResultToExport())
        return false;
    try {
        const GrowResultPtr full = fullResult();
        // A volume's labels as a volume (NIfTI with its spacing, TIFF or .npy (D, H, W), by the suffix).
        if (full->depth > 1)
            writeVolumeFile(path, full->width, full->height, full->depth, full->labels, document_->luma()->volume);
        else
            writeLabels(path, *full);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Export label mask"), QString::fromUtf8(error.what()));
        return false;
    }
    notices_->log()->info(QStringLiteral("Wrote the label mask of the final result (iteration %1, whatever playback "
                                         "shows) to %2").arg(result_->iterations).arg(path));
    return true;
}

bool FileActions::exportStamps(const QString& path)
{
    if (!hasResultToExport())
        return false;
    try {
        const GrowResultPtr full = fullResult();
        if (full->depth > 1)
            writeVolumeFile(path, full->width, full->height, full->depth, full->stamps, document_->luma()->volume);
        else
            writeStampsNpy(path, *full);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Export stamps"), QString::fromUtf8(error.what()));
        return false;
    }
    notices_->log()->info(QStringLiteral("Wrote the stamps of the final result (iteration %1) to %2")
                              .arg(result_->iterations).arg(path));
    return true;
}

bool FileActions::exportOverlay(const QString& path)
{
    if (!hasResultToExport())
        return false;
    try {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!panels_.view->currentPicture().save(&buffer, "PNG"))
            throw InputError("overlay " + path.toStdString() + ": the picture could not be encoded as PNG");
        saveFileAtomically(path, bytes);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Export overlay"), QString::fromUtf8(error.what()));
        return false;
    }
    if (document_->isVolume() && panels_.volume) {
        notices_->log()->info(QStringLiteral("Wrote the overlay of the axial slice z %1 as the view shows it: playback "
                                             "iteration %2 of %3 (the masks are of the whole volume) to %4")
                                  .arg(panels_.volume->slice(Plane::Axial)).arg(panels_.view->frame())
                                  .arg(result_->iterations).arg(path));
        return true;
    }
    notices_->log()->info(QStringLiteral("Wrote the overlay as the view shows it: playback iteration %1 of %2 "
                                         "(the masks are of the final result) to %3")
                              .arg(panels_.view->frame()).arg(result_->iterations).arg(path));
    return true;
}

bool FileActions::exportChart(const QString& path, QSize size)
{
    if (panels_.timings->shownRuns().empty()) {
        notices_->warn(QStringLiteral("Export chart"), QStringLiteral("No timings yet: run the pipeline first."));
        return false;
    }
    try {
        panels_.timings->exportChart(path, size);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Export chart"), QString::fromUtf8(error.what()));
        return false;
    }
    notices_->log()->info(QStringLiteral("Wrote the chart (%1 x %2) to %3").arg(size.width()).arg(size.height()).arg(path));
    return true;
}

bool FileActions::exportTimings(const QString& path)
{
    if (!hasResultToExport())
        return false;
    try {
        writeTimings(path, *result_);
    } catch (const std::exception& error) {
        notices_->warn(QStringLiteral("Export timings"), QString::fromUtf8(error.what()));
        return false;
    }
    notices_->log()->info(QStringLiteral("Wrote %1 timing records to %2").arg(result_->timings.size()).arg(path));
    return true;
}

// ---- dialogs --------------------------------------------------------------

QString FileActions::dialogDirectory(const char* key) const
{
    return setting(QStringLiteral("directories/") + QLatin1String(key)).toString();
}

void FileActions::rememberDirectory(const char* key, const QString& file)
{
    setSetting(QStringLiteral("directories/") + QLatin1String(key), QFileInfo(file).absolutePath());
}

// Before the seeds of the open image go (another image, a session, quitting):
// true when they may go, after saving them if the user asked to.
bool FileActions::mayDiscardSeeds(const QString& before)
{
    if (!asksBeforeDiscarding_ || !document_->hasUnsavedSeeds())
        return true;
    QMessageBox box(QMessageBox::Question, QStringLiteral("Unsaved seeds"),
                    QStringLiteral("The %1 seeds on %2 have changed since they were last saved. Save them as a session "
                                   "before %3?")
                        .arg(document_->seeds().size())
                        .arg(QFileInfo(document_->imagePath()).fileName(), before),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
    box.setObjectName(QStringLiteral("unsavedSeedsBox"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return chooseSaveSession(false);
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

void FileActions::openFileAsked(const QString& path)
{
    if (mayDiscardSeeds(QStringLiteral("opening %1").arg(QFileInfo(path).fileName())))
        openFile(path);
}

// The session of the last run of the explorer, kept on quitting so that
// nothing is lost between starts (File > Reopen Last Session).
QString FileActions::lastSessionPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/last-session.rgx");
}

void FileActions::keepLastSession()
{
    if (!remembers_ || !document_->hasImage() || document_->imagePath().startsWith(QLatin1Char(':')))
        return;
    QDir().mkpath(QFileInfo(lastSessionPath()).path());
    try {
        saveFileAtomically(lastSessionPath(), sessionToJson(currentSession(), QFileInfo(lastSessionPath()).absolutePath()));
    } catch (const std::exception& error) {
        notices_->log()->warning(QStringLiteral("Could not keep the last session: %1").arg(QString::fromUtf8(error.what())));
    }
}

bool FileActions::reopenLastSession()
{
    if (!QFileInfo::exists(lastSessionPath())) {
        notices_->warn(QStringLiteral("Reopen last session"), QStringLiteral("No last session is kept yet: it is kept when "
                                                                             "RGX quits with an image open."));
        return false;
    }
    if (!mayDiscardSeeds(QStringLiteral("reopening the last session")))
        return false;
    return openSession(lastSessionPath());
}

void FileActions::chooseOpenImage()
{
    if (!mayDiscardSeeds(QStringLiteral("opening another image")))
        return;
    const QString path = QFileDialog::getOpenFileName(
        window_, QStringLiteral("Open image or volume"), dialogDirectory("open"),
        QStringLiteral("Images and volumes (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.pgm *.ppm *.nii *.nii.gz *.dcm);;"
                       "Volumes (*.nii *.nii.gz *.tif *.tiff *.dcm);;Sessions (*.rgx *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory("open", path);
    openFile(path);
}

void FileActions::chooseOpenVolumeFolder()
{
    if (!mayDiscardSeeds(QStringLiteral("opening another volume")))
        return;
    const QString path = QFileDialog::getExistingDirectory(window_, QStringLiteral("Open a DICOM series or a folder of slices"),
                                                           dialogDirectory("open"));
    if (path.isEmpty())
        return;
    setSetting(QStringLiteral("directories/open"), path);
    openImage(path);
}

void FileActions::chooseImportSeeds()
{
    const QString path = QFileDialog::getOpenFileName(window_, QStringLiteral("Import seeds"), dialogDirectory("seeds"),
                                                      QStringLiteral("Seed files (*.seeds *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory("seeds", path);
    importSeeds(path);
}

void FileActions::chooseExportSeeds()
{
    const QString path = QFileDialog::getSaveFileName(window_, QStringLiteral("Export seeds"), dialogDirectory("seeds"),
                                                      QStringLiteral("Seed files (*.seeds *.txt)"));
    if (path.isEmpty())
        return;
    rememberDirectory("seeds", path);
    exportSeeds(path);
}

void FileActions::chooseOpenSession()
{
    if (!mayDiscardSeeds(QStringLiteral("opening a session")))
        return;
    const QString path = QFileDialog::getOpenFileName(window_, QStringLiteral("Open session"), dialogDirectory("session"),
                                                      QStringLiteral("RGX sessions (*.rgx *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory("session", path);
    openSession(path);
}

bool FileActions::chooseSaveSession(bool askForName)
{
    QString path = sessionPath_;
    if (askForName || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(window_, QStringLiteral("Save session"), dialogDirectory("session"),
                                            QStringLiteral("RGX sessions (*.rgx)"));
        if (path.isEmpty())
            return false;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".rgx");
        rememberDirectory("session", path);
    }
    return saveSession(path);
}

void FileActions::chooseExport(const QString& what)
{
    QString suffix = what.section(QLatin1Char('-'), 1);
    const QString kind = what.section(QLatin1Char('-'), 0, 0);
    QString filter = QStringLiteral("%1 files (*.%2)").arg(suffix.toUpper(), suffix);
    // A volume's maps are volumes: NIfTI first, TIFF stacks and .npy (D, H, W) too.
    const bool volumeMaps = document_->isVolume() && (kind == QLatin1String("labels") || kind == QLatin1String("stamps"));
    if (volumeMaps) {
        suffix = QStringLiteral("nii.gz");
        filter = QStringLiteral("NIfTI (*.nii.gz *.nii);;TIFF stack (*.tif *.tiff);;NumPy (*.npy)");
    }
    QString base = QFileInfo(document_->imagePath()).completeBaseName();
    if (document_->isVolume())
        base = base.section(QLatin1Char('.'), 0, 0); // "ct.nii.gz": "ct"
    const QString suggested = QDir(dialogDirectory("export")).filePath(QStringLiteral("%1-%2.%3").arg(base, kind, suffix));
    QString path = QFileDialog::getSaveFileName(window_, QStringLiteral("Export %1").arg(kind), suggested, filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    rememberDirectory("export", path);
    if (kind == QLatin1String("labels"))
        exportLabels(path);
    else if (kind == QLatin1String("stamps"))
        exportStamps(path);
    else if (kind == QLatin1String("overlay"))
        exportOverlay(path);
    else if (kind == QLatin1String("timings"))
        exportTimings(path);
}

void FileActions::chooseExportChart()
{
    const QSize lastSize = setting(QStringLiteral("chart/size"), QSize(1600, 900)).toSize();
    ChartExportDialog dialog(window_, int(panels_.timings->currentChart()), lastSize);
    if (dialog.exec() != QDialog::Accepted)
        return;
    setSetting(QStringLiteral("chart/size"), dialog.size());
    panels_.timings->showChart(TimingPanel::Chart(dialog.chart()));
    const QString suggested = QDir(dialogDirectory("export")).filePath(QStringLiteral("timings.png"));
    QString path = QFileDialog::getSaveFileName(window_, QStringLiteral("Export chart"), suggested,
                                                QStringLiteral("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    rememberDirectory("export", path);
    exportChart(path, dialog.size());
}

// ---- samples and recent files ------------------------------------------------

void FileActions::fillSampleMenu(QMenu* menu)
{
    bool volumes = false;
    for (const Sample& sample : bundledSamples()) {
        if (sample.volume && !volumes && !menu->isEmpty())
            menu->addSeparator(); // the images above, the volumes below
        volumes = volumes || sample.volume;
        QAction* action = menu->addAction(sample.title, this, [this, name = sample.name] {
            if (mayDiscardSeeds(QStringLiteral("opening the sample")))
                openSample(name);
        });
        action->setObjectName(QStringLiteral("sample_") + sample.name);
        action->setToolTip(sample.seedsPath.isEmpty() ? sample.imagePath
                                                      : sample.imagePath + QStringLiteral(" with ") + sample.seedsPath);
    }
    if (menu->isEmpty())
        menu->addAction(QStringLiteral("(no samples found)"))->setEnabled(false);
}

void FileActions::attachRecentMenu(QMenu* menu)
{
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { rebuildRecentMenu(menu); });
}

// What the explorer remembers between starts: in the settings, or (with
// --no-settings) for this run only, so that nothing is written.
QVariant FileActions::setting(const QString& key, const QVariant& fallback) const
{
    if (!remembers_)
        return unsavedSettings_.value(key, fallback);
    return QSettings().value(key, fallback);
}

void FileActions::setSetting(const QString& key, const QVariant& value)
{
    if (!remembers_)
        unsavedSettings_.insert(key, value);
    else
        QSettings().setValue(key, value);
}

QStringList FileActions::recentFiles() const
{
    return setting(QStringLiteral("recentFiles")).toStringList();
}

void FileActions::addRecentFile(const QString& path)
{
    // One entry per file, however it was named (relative, through links).
    const QFileInfo info(path);
    const QString file = info.exists() ? info.canonicalFilePath() : info.absoluteFilePath();
    QStringList files;
    for (const QString& listed : recentFiles()) {
        const QFileInfo other(listed);
        const QString same = other.exists() ? other.canonicalFilePath() : other.absoluteFilePath();
        if (same != file && !files.contains(same))
            files << same;
    }
    files.prepend(file);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    setSetting(QStringLiteral("recentFiles"), files);
}

void FileActions::rebuildRecentMenu(QMenu* menu)
{
    menu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* action = menu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()),
                                          this, [this, path] { openFileAsked(path); });
        action->setToolTip(path);
        action->setEnabled(QFileInfo::exists(path));
    }
    if (files.isEmpty())
        menu->addAction(QStringLiteral("(none)"))->setEnabled(false);
    menu->addSeparator();
    menu->addAction(QStringLiteral("Clear List"), this, [this] { setSetting(QStringLiteral("recentFiles"), QStringList()); });
}

} // namespace rgx::ui
