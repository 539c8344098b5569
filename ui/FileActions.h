// The file side of the explorer: open an image, a bundled sample, a seeds
// file or a session; the recent files; save the session; every export (label
// mask, stamps, overlay, timing records, chart), each written through
// QSaveFile so that a failed export leaves no file. Each action reports a
// failure itself (log and notice) and returns false; nothing else changes then.
#pragma once

#include "Image.h"
#include "PipelineParams.h"
#include "Result.h"
#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>
#include <optional>
#include <QStringList>
#include <QVariant>
#include <memory>
#include <string>

class QMenu;
class QWidget;

namespace rgx::ui {

class DevicePanel;
class Document;
class Notices;
class ParametersPanel;
struct Session;
class TimingPanel;
class ViewState;
class VolumeView;

class FileActions : public QObject {
    Q_OBJECT
public:
    struct Panels {
        ParametersPanel* parameters = nullptr;
        DevicePanel* devices = nullptr;
        TimingPanel* timings = nullptr;
        ViewState* view = nullptr; // the picture an overlay export writes
        VolumeView* volume = nullptr; // a volume's slices and window, kept in sessions
    };
    // Dialogs open over `window`, which also parents this object.
    FileActions(Document* document, const Panels& panels, Notices* notices, QWidget* window);

    // An image, or a volume (a NIfTI file, a DICOM series or a folder of
    // slices, a multi-page TIFF) where the engine reads them.
    bool openImage(const QString& path);
    // An image or volume already read (`image`: the picture of an image;
    // null for a volume), shown under the name `path`.
    bool openLoaded(const QString& path, const QImage& image, std::shared_ptr<const LumaImage> luma);
    bool openSample(const QString& name);
    // An image, a seeds file or a session, by its suffix.
    bool openFile(const QString& path);
    bool importSeeds(const QString& path);
    bool exportSeeds(const QString& path);
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool exportLabels(const QString& path);
    bool exportStamps(const QString& path);
    bool exportOverlay(const QString& path);
    bool exportChart(const QString& path, QSize size);
    bool exportTimings(const QString& path);

    // The menus' contents: one entry per bundled sample; the recent files,
    // rebuilt each time the menu opens.
    void fillSampleMenu(QMenu* menu);
    void attachRecentMenu(QMenu* menu);
    // The recent files, the last opened first, one entry per file.
    QStringList recentFiles() const;
    // False (--no-settings): recent files, folders and the chart size are
    // kept for this run only; nothing is written to the settings.
    void setRemembers(bool on) { remembers_ = on; }

public slots:
    // The result the exports write (null: none yet).
    void setResult(rgx::GrowResultPtr result)
    {
        result_ = std::move(result);
        fullResult_.reset();
    }

    // The menu entries: ask for a file, then do the action above.
    void chooseOpenImage();
    // A DICOM series or a folder of numbered slices.
    void chooseOpenVolumeFolder();
    void chooseImportSeeds();
    void chooseExportSeeds();
    void chooseOpenSession();
    // False when nothing was saved (cancelled, or the save failed).
    bool chooseSaveSession(bool askForName);
    // Asks before edited seeds go (`before`: "opening another image"):
    // save, discard or cancel; true when they may go.
    bool mayDiscardSeeds(const QString& before);
    // openFile, after asking about edited seeds (the menus and drops).
    void openFileAsked(const QString& path);
    // False (tests, scripts): edited seeds go without asking.
    void setAsksBeforeDiscarding(bool on) { asksBeforeDiscarding_ = on; }
    // The session kept on quitting, and reopening it.
    static QString lastSessionPath();
    void keepLastSession();
    bool reopenLastSession();
    // what: "labels-png", "labels-npy", "stamps-npy", "overlay-png", "timings-csv", "timings-json"
    void chooseExport(const QString& what);
    void chooseExportChart();

signals:
    // The old image is gone (its results are to be dropped)...
    void imageClosed();
    // ...and the document holds the new one.
    void imageOpened();
    void titleChanged(const QString& title);
    // A sample opened with its seeds: one click shows a result.
    void runRequested();
    // The device a session names (see RunController::chooseSessionDevice).
    void sessionDeviceChosen(const std::string& id, const std::string& name);

private:
    void closeImage();
    std::optional<PipelineParams> suggestedParameters(const QString& seedsPath);
    bool hasResultToExport();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu(QMenu* menu);
    QString dialogDirectory(const char* key) const;
    void rememberDirectory(const char* key, const QString& file);

    Document* document_;
    Panels panels_;
    Notices* notices_;
    QWidget* window_;
    QString sessionPath_;
    GrowResultPtr fullResult();
    Session currentSession() const;
    QVariant setting(const QString& key, const QVariant& fallback = {}) const;
    void setSetting(const QString& key, const QVariant& value);

    bool remembers_ = true;
    bool asksBeforeDiscarding_ = false;
    QVariantMap unsavedSettings_; // the settings of this run, when nothing is written
    GrowResultPtr result_;
    GrowResultPtr fullResult_; // result_ with full maps, once an export needed them
};

} // namespace rgx::ui
