// The explorer's main window: the image view in the centre, dock panels for
// devices and variant, parameters, seeds, playback, timings and the log; menus,
// settings, sessions and exports. It talks to the engine only through EngineThread.
#pragma once

#include "EngineWorker.h"
#include "Image.h"
#include "Overlay.h"
#include "Result.h"
#include "SeedSet.h"
#include "TimingPanel.h"
#include <QCache>
#include <QElapsedTimer>
#include <QImage>
#include <QMainWindow>
#include <QMessageBox>
#include <QPixmap>
#include <QPointer>
#include <QTimer>
#include <QUndoStack>
#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QTableView;

namespace rgx::ui {

class DevicePanel;
class LabPanel;
class ImageView;
class LogPanel;
class ParametersPanel;
class PlaybackPanel;
class SeedTableModel;

struct MainWindowOptions {
    QString preferredDevice;   // --device: "P:I" or part of a name; empty: the default
    // false: start from the defaults and save no window state or choices
    // (--no-settings, tests); recent files are still recorded.
    bool restoreSettings = true;
    // The rgx-cli the race check runs under Oclgrind; empty: the one beside
    // this executable.
    QString cliPath;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // What the menus do, callable directly (command line, tests). Each one
    // reports a failure itself (log panel and a non-blocking notice) and
    // returns false; nothing else changes then.
    bool openImage(const QString& path);
    bool openSample(const QString& name);
    bool importSeeds(const QString& path);
    bool exportSeeds(const QString& path);
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool exportLabels(const QString& path);
    bool exportStamps(const QString& path);
    bool exportOverlay(const QString& path);
    bool exportChart(const QString& path, QSize size);
    bool exportTimings(const QString& path);
    bool setVariantText(const QString& text);
    bool selectDevice(const QString& id);

    bool devicesReady() const { return devicesReady_; }
    bool isRunning() const { return running_; }
    bool isCheckingRaces() const { return raceChecking_; }
    // What the last race check found, as shown in the log ("races: none" or
    // one line per race), or why it could not run.
    QString lastRaceReport() const { return lastRaceReport_; }
    GrowResultPtr result() const { return result_; }
    GrowResultPtr reference() const { return reference_; }
    std::shared_ptr<const ResultDiff> diff() const { return diff_; }
    const std::vector<Seed>& seeds() const { return seeds_.seeds(); }
    std::shared_ptr<const LumaImage> luma() const { return luma_; }
    QString imagePath() const { return imagePath_; }
    QString lastNotice() const { return lastNotice_; }
    QUndoStack* undoStack() { return &undo_; }
    SeedSet* seedSet() { return &seeds_; }
    ImageView* imageView() const { return view_; }
    DevicePanel* devicePanel() const { return devicePanel_; }
    ParametersPanel* parametersPanel() const { return parameters_; }
    // The seeds the shown result was grown from (those of a drag in progress
    // differ from seeds()).
    const std::vector<Seed>& resultSeeds() const { return resultRequest_.seeds; }
    // How many partial pictures of running runs were drawn so far.
    int partialPictures() const { return partialPictures_; }
    PlaybackPanel* playbackPanel() const { return playback_; }
    TimingPanel* timingPanel() const { return timing_; }
    LogPanel* logPanel() const { return log_; }
    LabPanel* labPanel() const { return lab_; }
    // Raises the binary-search lab tab.
    void showLab();
    // The picture the view shows now (without seed markers).
    // The picture the window shows, whole (rendered at full size on demand
    // for images the view renders part by part).
    QImage currentPicture();

public slots:
    void runNow();
    void cancelRun();
    void keepRun();
    // Runs the current variant and parameters under Oclgrind on a small part
    // of the image, on the engine thread; the answer comes by raceCheckFinished.
    void checkRaces();
    void setCorruptionView(bool on);
    // Raises the timings panel, enlarged, on one chart.
    void showTimingChart(rgx::ui::TimingPanel::Chart chart);

signals:
    void devicesListed();
    void runStarted(quint64 id);
    void runFinished(quint64 id);
    void runFailed(const QString& message);
    void referenceReady();
    void noticeShown(const QString& text);
    void raceCheckFinished(const QString& report);
    void labFinished(bool succeeded);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    OverlayStyle overlayStyle(uint32_t frame) const;
    void onSeedDragged(int index, QPoint pixel);
    void onSeedDragFinished();
    void setLiveChoice(bool on);
    void applySuggestedParameters(const QString& seedsPath);
    void createDocks();
    void createActions();
    void createMenus();
    void createStatusBar();
    void connectEngine();
    void restoreSettings();
    void saveSettings() const;

    bool openFile(const QString& path);
    void closeImage();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void notice(const QString& title, const QString& text, const QString& details = {});
    // The non-modal box of notice(), for reports that are not errors too.
    void showNoticeBox(const QString& title, const QString& text, const QString& details, QMessageBox::Icon icon);
    void onRaceCheckFinished(const RaceCheckOutcome& outcome);
    QString cliPath() const;
    void updateActions();
    void refreshPicture();
    // The layers of a frame as the display settings show it, and what keeps them alive.
    struct Frame {
        GrowResultPtr result;
        OverlayStyle style;
        ViewLayers layers;
        std::shared_ptr<const ResultDiff> differences;
        GrowResultPtr reference;
    };
    Frame frameLayers(uint32_t frame);
    QImage framePicture(uint32_t frame);
    bool renderedInView() const;
    void showInView(GrowResultPtr result, const OverlayStyle& style, ViewLayers layers, bool newImage,
                    std::shared_ptr<const void> keepAlive = {});
    // The picture the regions are drawn on: the image, or the prefilter's output.
    const QImage& baseImage();
    void updateDiffLabel();
    void updatePixelInfo(QPoint pixel, bool inside);
    void requestReferenceIfNeeded();
    QString runLabel(const RunRequest& request) const;
    QString dialogDirectory(const char* key) const;
    void rememberDirectory(const char* key, const QString& file) const;

    void onDevicesListed(const DeviceList& list);
    void onRunFinished(const RunOutcome& outcome);
    void onRunFailed(const RunFailure& failure);
    void onSeedAdd(QPoint pixel);
    void onSeedMove(int index, QPoint from, QPoint to);
    void onSeedRemove(int index);
    void removeSelectedSeed();

    void chooseOpenImage();
    void chooseImportSeeds();
    void chooseExportSeeds();
    void chooseOpenSession();
    void chooseSaveSession(bool askForName);
    void chooseExport(const QString& what);
    void chooseExportChart();

    MainWindowOptions options_;
    EngineThread engine_;
    bool devicesReady_ = false;
    bool running_ = false;
    bool pendingRun_ = false;
    // Live segmentation: the user's own choice (none: on while a run of this
    // image takes under liveLimitMs), the seeds of a drag in progress, a
    // drag run waiting for the one in flight, and when each request left.
    std::optional<bool> liveChoice_;
    std::optional<std::vector<Seed>> dragSeeds_;
    bool dragRunPending_ = false;
    bool dragRan_ = false;
    QElapsedTimer requestClock_;
    int partialPictures_ = 0; // drawn while runs were still going
    std::string pendingDeviceId_;
    std::string pendingDeviceName_;
    quint64 nextRunId_ = 0;
    quint64 activeRunId_ = 0;

    QString imagePath_;
    QString sessionPath_;
    QImage displayImage_;      // the source image: 8-bit grey, or 32-bit RGB
    QPixmap basePixmap_;       // it as a pixmap, for images drawn whole
    QImage shrunkImage_;       // it shrunk to the partial pictures of a large image
    quint64 renderSerial_ = 0; // of what the view renders itself (large images)
    QImage filteredImage_;     // the prefilter's output of result_, grey, built when first shown
    QPixmap currentPicture_;
    std::shared_ptr<const LumaImage> luma_;

    SeedSet seeds_;
    QUndoStack undo_;

    GrowResultPtr result_;
    GrowResultPtr beforePostfilter_; // result_ with the labels and stamps before the postfilter
    RunRequest resultRequest_;
    GrowResultPtr reference_;
    std::shared_ptr<const ResultDiff> diff_;
    bool referencePending_ = false;
    // Frames already drawn, keyed by result, frame and display options; cost in KiB.
    QCache<QString, QPixmap> frameCache_{256 * 1024};
    quint64 resultSerial_ = 0;

    ImageView* view_ = nullptr;
    DevicePanel* devicePanel_ = nullptr;
    ParametersPanel* parameters_ = nullptr;
    PlaybackPanel* playback_ = nullptr;
    TimingPanel* timing_ = nullptr;
    LogPanel* log_ = nullptr;
    LabPanel* lab_ = nullptr;
    quint64 nextLabId_ = 0;
    SeedTableModel* seedModel_ = nullptr;
    QTableView* seedTable_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* sampleMenu_ = nullptr;
    QLabel* pixelInfo_ = nullptr;
    QLabel* zoomLabel_ = nullptr;
    QLabel* runStatus_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPointer<QMessageBox> noticeBox_;
    QString lastNotice_;
    QTimer autoRunTimer_;
    bool raceChecking_ = false;
    quint64 nextRaceCheckId_ = 0;
    QString lastRaceReport_;

    QAction* runAction_ = nullptr;
    QAction* cancelAction_ = nullptr;
    QAction* keepAction_ = nullptr;
    QAction* corruptionAction_ = nullptr;
    QAction* raceCheckAction_ = nullptr;
    QList<QAction*> needsImage_;
    QList<QAction*> needsResult_;
};

} // namespace rgx::ui
