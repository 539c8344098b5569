// The explorer's main window: it only assembles. The image view in the
// centre (for a volume, the volume view's three slices), dock panels for devices and variant, parameters, seeds, playback,
// timings, the log and the lab; menus, tool bar, status bar and settings.
// The work is done by the objects it wires together: RunController (the
// engine thread), FileActions (files, sessions, exports), ViewState (what
// the view shows) and Document (the image and its seeds).
#pragma once

#include "Document.h"
#include "FileActions.h"
#include "Notices.h"
#include "RunController.h"
#include "TimingPanel.h"
#include "ViewState.h"
#include <QMainWindow>
#include <memory>

class QDockWidget;
class QLabel;
class QProgressBar;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace rgx::ui {

class DevicePanel;
class LabPanel;
class LessonTour;
class ImageView;
class LogPanel;
class ParametersPanel;
class PlaybackPanel;
class RaceList;
class SeedTableModel;
class TourCard;
class VolumeView;
class WorkGroupMap;
class WorkGroupMapPanel;

struct MainWindowOptions {
    QString preferredDevice;   // --device: "P:I" or part of a name; empty: the default
    // false: start from the defaults and write nothing (--no-settings,
    // tests): no window state, choices, recent files or last session.
    bool restoreSettings = true;
    // Ask before edited seeds go (quitting, another image or session). The
    // program asks; tests and scripts that open files one after another do not.
    bool asksBeforeDiscarding = false;
    // The rgx-cli the race check runs under Oclgrind; empty: the one beside
    // this executable.
    QString cliPath;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // The objects that do the work: runs, files, what the view shows.
    RunController* runs() const { return runs_; }
    FileActions* files() const { return files_; }
    ViewState* viewState() const { return viewState_; }
    Document* document() const { return document_; }

    // What the menus do, callable directly (command line, tests); each one
    // is the owning object's. Failures are reported there (log panel and a
    // non-blocking notice) and return false; nothing else changes then.
    bool openImage(const QString& path) { return files_->openImage(path); }
    // A volume already in memory (tests, scripts), shown under `name`.
    bool openVolume(const QString& name, std::shared_ptr<const LumaImage> volume)
    {
        return files_->openLoaded(name, QImage(), std::move(volume));
    }
    bool openSample(const QString& name) { return files_->openSample(name); }
    bool importSeeds(const QString& path) { return files_->importSeeds(path); }
    bool exportSeeds(const QString& path) { return files_->exportSeeds(path); }
    bool openSession(const QString& path) { return files_->openSession(path); }
    bool saveSession(const QString& path) { return files_->saveSession(path); }
    bool exportLabels(const QString& path) { return files_->exportLabels(path); }
    bool exportStamps(const QString& path) { return files_->exportStamps(path); }
    bool exportOverlay(const QString& path) { return files_->exportOverlay(path); }
    bool exportChart(const QString& path, QSize size) { return files_->exportChart(path, size); }
    bool exportTimings(const QString& path) { return files_->exportTimings(path); }
    bool setVariantText(const QString& text) { return runs_->setVariantText(text); }
    bool selectDevice(const QString& id) { return runs_->selectDevice(id); }

    bool devicesReady() const { return runs_->devicesReady(); }
    bool isRunning() const { return runs_->isRunning(); }
    bool isCheckingRaces() const { return runs_->isCheckingRaces(); }
    // What the last race check found, as shown in the log ("races: none" or
    // one line per race), or why it could not run.
    QString lastRaceReport() const { return runs_->lastRaceReport(); }
    GrowResultPtr result() const { return runs_->result(); }
    GrowResultPtr reference() const { return runs_->reference(); }
    std::shared_ptr<const ResultDiff> diff() const { return runs_->diff(); }
    // The seeds the shown result was grown from (those of a drag in progress
    // differ from seeds()).
    const std::vector<Seed>& resultSeeds() const { return runs_->resultRequest().seeds; }
    const std::vector<Seed>& seeds() const { return document_->seeds(); }
    std::shared_ptr<const LumaImage> luma() const { return document_->luma(); }
    QString imagePath() const { return document_->imagePath(); }
    QUndoStack* undoStack() { return document_->undoStack(); }
    SeedSet* seedSet() { return document_->seedSet(); }
    QString lastNotice() const { return notices_->last(); }
    // How many partial pictures of running runs were drawn so far.
    int partialPictures() const { return viewState_->partialPictures(); }
    // The picture the window shows, whole (rendered at full size on demand
    // for images the view renders part by part), without seed markers.
    QImage currentPicture() { return viewState_->currentPicture(); }

    ImageView* imageView() const { return view_; }
    VolumeView* volumeView() const { return volumeView_; }
    DevicePanel* devicePanel() const { return devicePanel_; }
    ParametersPanel* parametersPanel() const { return parameters_; }
    PlaybackPanel* playbackPanel() const { return playback_; }
    TimingPanel* timingPanel() const { return timing_; }
    LogPanel* logPanel() const { return log_; }
    LabPanel* labPanel() const { return lab_; }
    RaceList* raceList() const { return raceList_; }
    WorkGroupMap* workGroupMap() const { return workGroupMap_; }
    WorkGroupMapPanel* workGroupMapPanel() const { return workGroupMapPanel_; }
    // Help > Lessons: the tour of a seed lesson and its card.
    LessonTour* lessonTour() const { return lessonTour_; }
    TourCard* tourCard() const { return tourCard_; }
    // Raises the binary-search lab tab.
    void showLab();
    // Raises the dock of the work-group map and the race list.
    void showRacesDock();

public slots:
    void runNow() { runs_->runNow(); }
    void cancelRun() { runs_->cancelRun(); }
    void keepRun() { runs_->keepRun(); }
    void checkRaces() { runs_->checkRaces(); }
    void setCorruptionView(bool on) { viewState_->setCorruptionView(on); }
    // Raises the timings panel, enlarged, on one chart.
    void showTimingChart(rgx::ui::TimingPanel::Chart chart);

signals:
    void devicesListed();
    void runStarted(quint64 id);
    // A run's result is in the window (runs()->lastEdit(): where the edit's time went).
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
    void createDocks();
    void connectVolumeView();
    // The image view, or the volume view while a volume is open.
    void showImageOrVolume();
    // The view in the centre now (for repaints and zoom).
    QWidget* shownView() const;
    void createActions();
    void createMenus();
    void createStatusBar();
    void connectParts();
    void connectCorruptionLayers();
    void restoreSettings();
    void saveSettings() const;
    void updateActions();
    void removeSelectedSeed();
    void showLiveState(const QString& turnedOffBecause);

    MainWindowOptions options_;
    LogPanel* log_ = nullptr;
    Notices* notices_ = nullptr;
    Document* document_ = nullptr;
    RunController* runs_ = nullptr;
    ViewState* viewState_ = nullptr;
    FileActions* files_ = nullptr;

    QStackedWidget* centre_ = nullptr;
    ImageView* view_ = nullptr;
    VolumeView* volumeView_ = nullptr;
    DevicePanel* devicePanel_ = nullptr;
    ParametersPanel* parameters_ = nullptr;
    PlaybackPanel* playback_ = nullptr;
    TimingPanel* timing_ = nullptr;
    LabPanel* lab_ = nullptr;
    // The work-group map and the race list (issue 29): what explains a corruption.
    WorkGroupMap* workGroupMap_ = nullptr;
    WorkGroupMapPanel* workGroupMapPanel_ = nullptr;
    RaceList* raceList_ = nullptr;
    QDockWidget* racesDock_ = nullptr;
    TourCard* tourCard_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;
    LessonTour* lessonTour_ = nullptr;
    SeedTableModel* seedModel_ = nullptr;
    QTableView* seedTable_ = nullptr;
    QLabel* pixelInfo_ = nullptr;
    QLabel* zoomLabel_ = nullptr;
    QLabel* runStatus_ = nullptr;
    QToolButton* liveBadge_ = nullptr;
    QProgressBar* progress_ = nullptr;

    QAction* runAction_ = nullptr;
    QAction* cancelAction_ = nullptr;
    QAction* keepAction_ = nullptr;
    QAction* corruptionAction_ = nullptr;
    QAction* raceCheckAction_ = nullptr;
    QList<QAction*> needsImage_;
    QList<QAction*> needsResult_;
};

} // namespace rgx::ui
