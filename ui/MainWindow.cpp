// Main window: it creates the view, the panels, the docks, the menus and the
// working objects (Document, RunController, ViewState, FileActions), and
// wires them together; settings are saved and restored here.
#include "MainWindow.h"

#include "AboutText.h"
#include "DevicePanel.h"
#include "ImageView.h"
#include "LabPanel.h"
#include "LessonTour.h"
#include "LogPanel.h"
#include "ParametersCommand.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "SeedTableModel.h"
#include "Session.h"
#include "TimingPanel.h"
#include "TourCard.h"
#include "VolumeView.h"
#include "RaceList.h"
#include "WorkGroupMap.h"
#include "WorkGroupMapPanel.h"
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

// Resources must be initialised from the global namespace (static library).
static void initRgxResources() { Q_INIT_RESOURCE(rgx); }

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

// A panel in a dock scrolls up and down only: the dock is at least as wide
// as the panel's narrowest layout with the vertical scroll bar beside it.
QWidget* scrollable(QWidget* panel)
{
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    area->setMinimumWidth(panel->minimumSizeHint().width() + area->verticalScrollBar()->sizeHint().width() + 2);
    return area;
}

} // namespace

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options)
{
    initRgxResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("RGX - Region Growing eXplorer"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/rgx.png")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    resize(1500, 950);

    // An image in the image view; a volume in the volume view's three slices.
    centre_ = new QStackedWidget(this);
    centre_->setObjectName(QStringLiteral("centralViews"));
    view_ = new ImageView(centre_);
    volumeView_ = new VolumeView(centre_);
    centre_->addWidget(view_);
    centre_->addWidget(volumeView_);
    setCentralWidget(centre_);
    log_ = new LogPanel;
    notices_ = new Notices(log_, statusBar(), this);
    document_ = new Document(notices_, this);
    createDocks();
    runs_ = new RunController(document_, {devicePanel_, parameters_, timing_, lab_}, notices_,
                              {options_.preferredDevice, options_.restoreSettings, options_.cliPath}, this);
    viewState_ = new ViewState(document_, view_, playback_, notices_, this);
    viewState_->setVolumeView(volumeView_);
    files_ = new FileActions(document_, {parameters_, devicePanel_, timing_, viewState_, volumeView_}, notices_, this);
    files_->setRemembers(options_.restoreSettings); // --no-settings writes nothing
    files_->setAsksBeforeDiscarding(options_.asksBeforeDiscarding);
    createActions();
    createMenus();
    createStatusBar();
    connectParts();

    if (options_.restoreSettings)
        restoreSettings();
    updateActions();
    runs_->listDevices();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectParts()
{
    // The view's and the table's seed edits go to the document.
    connect(view_, &ImageView::seedAddRequested, this, [this](QPoint pixel) {
        const int index = document_->addSeed(pixel);
        if (index >= 0)
            view_->setSelectedSeed(index);
    });
    connect(view_, &ImageView::seedMoveRequested, document_, qOverload<int, QPoint, QPoint>(&Document::moveSeed));
    connect(view_, &ImageView::seedRemoveRequested, document_, &Document::removeSeed);
    connect(document_, &Document::moveRefused, this, [this](const QString& reason) {
        statusBar()->showMessage(reason, 5000);
        view_->setSeeds(document_->isVolume() ? std::vector<Seed>() : document_->seeds()); // the marker goes back
        if (document_->isVolume())
            volumeView_->setSeeds(document_->seeds());
        seedModel_->setImage(document_->luma()); // and the table forgets the typed value
    });
    connect(seedModel_, &SeedTableModel::moveRequested, this, [this](int index, rgx::Seed to) {
        // After the table's editor has finished: the move resets the model.
        QTimer::singleShot(0, this, [this, index, to] {
            if (index >= int(document_->seeds().size()))
                return;
            const Seed from = document_->seeds()[size_t(index)];
            document_->moveSeed(index, from, to);
        });
    });
    connect(document_->seedSet(), &SeedSet::changed, this, [this] {
        if (document_->isVolume())
            volumeView_->setSeeds(document_->seeds());
        else
            view_->setSeeds(document_->seeds());
        updateActions();
    });
    connect(view_, &ImageView::seedDragged, runs_, &RunController::seedDragged);
    connect(view_, &ImageView::seedDragFinished, runs_, &RunController::seedDragFinished);
    connect(view_, &ImageView::seedDragged, seedModel_, &SeedTableModel::setDragged);
    connect(view_, &ImageView::seedDragFinished, seedModel_, &SeedTableModel::clearDragged);
    connect(view_, &ImageView::hoverPixel, workGroupMap_, &WorkGroupMap::setHover);
    connect(view_, &ImageView::hoverPixel, this, [this](QPoint pixel, bool inside) {
        QString info = viewState_->pixelInfo(pixel, inside);
        // The work-group that handled the pixel, and the races marked on it.
        for (const QString& more : {workGroupMap_->hoverText(viewState_->corruptionView()), raceList_->racesAt(pixel)})
            if (!info.isEmpty() && !more.isEmpty())
                info += QStringLiteral("  |  ") + more;
        pixelInfo_->setText(info);
    });
    connectCorruptionLayers();
    connect(view_, &ImageView::zoomChanged, this, [this](double zoom) {
        zoomLabel_->setText(QStringLiteral("%1 %").arg(zoom * 100.0, 0, 'f', zoom < 0.1 ? 1 : 0));
    });
    connect(view_, &ImageView::seedSelected, this, [this](int index) { seedTable_->selectRow(index); });
    connectVolumeView();

    // Files: a new image drops the old one's results.
    connect(files_, &FileActions::imageClosed, runs_, &RunController::reset);
    connect(files_, &FileActions::imageOpened, this, [this] {
        showImageOrVolume();
        viewState_->showImage();
        view_->setSeeds({});
        seedModel_->setImage(document_->luma());
        updateActions();
        runs_->imageOpened();
    });
    connect(files_, &FileActions::titleChanged, this, &QWidget::setWindowTitle);
    connect(files_, &FileActions::runRequested, runs_, &RunController::runNow);
    connect(files_, &FileActions::sessionDeviceChosen, runs_, &RunController::chooseSessionDevice);

    // Runs: their results are shown, exported and listed in the seed table.
    // The work-group map takes the result's grids first: the view draws it next.
    connect(runs_, &RunController::resultChanged, workGroupMap_, &WorkGroupMap::showOutcome);
    connect(runs_, &RunController::resultChanged, viewState_, &ViewState::showResult);
    connect(runs_, &RunController::resultChanged, this, [this](const rgx::ui::RunOutcome& outcome) {
        seedModel_->setResult(outcome.result, outcome.request.seeds, outcome.labelCounts);
        files_->setResult(outcome.result);
    });
    connect(runs_, &RunController::referenceChanged, viewState_, &ViewState::showReference);
    connect(runs_, &RunController::staleChanged, viewState_, &ViewState::setStale);
    connect(runs_, &RunController::partialResult, viewState_, &ViewState::showPartial);
    connect(viewState_, &ViewState::corruptionViewChanged, runs_, &RunController::setWantsReference);
    connect(runs_, &RunController::statusChanged, runStatus_, &QLabel::setText);
    connect(runs_, &RunController::stateChanged, this, &MainWindow::updateActions);
    connect(runs_, &RunController::runSubmitted, this, &MainWindow::saveSettings);
    connect(devicePanel_, &DevicePanel::variantChanged, this, &MainWindow::updateActions);
    connect(devicePanel_, &DevicePanel::deviceChanged, this, &MainWindow::updateActions);
    connect(devicePanel_, &DevicePanel::deviceChanged, this, [this] { lab_->setDevice(devicePanel_->currentDevice()); });
    connect(timing_, &TimingPanel::keptRunsChanged, this, &MainWindow::updateActions);
    // The frame shown is marked on the per-iteration chart.
    connect(playback_, &PlaybackPanel::frameChanged, timing_, [this](uint32_t frame) { timing_->setPlaybackIteration(int(frame)); });

    // The window's own signals, for the command line and tests.
    connect(runs_, &RunController::devicesListed, this, &MainWindow::devicesListed);
    connect(runs_, &RunController::runStarted, this, &MainWindow::runStarted);
    // An edit ends when its overlay is drawn (the status bar's latency).
    runs_->setDrawReports(true);
    connect(view_, &ImageView::painted, this, [this] {
        runs_->overlayDrawn(view_->lastPaint().renderMs, view_->lastPaint().totalMs - view_->lastPaint().renderMs);
    });
    connect(volumeView_, &VolumeView::painted, this,
            [this](double renderMs, double totalMs) { runs_->overlayDrawn(renderMs, totalMs - renderMs); });
    connect(runs_, &RunController::resultChanged, this, [this] {
        // A new result is painted at once rather than at the next display
        // frame: live segmentation answers an edit as soon as it can.
        QWidget* shown = shownView();
        if (shown->isVisible())
            shown->repaint();
        else
            runs_->overlayDrawn(0, 0); // nothing will paint
    });
    connect(runs_, &RunController::runFinished, this, &MainWindow::runFinished);
    connect(runs_, &RunController::runFailed, this, &MainWindow::runFailed);
    connect(runs_, &RunController::referenceReady, this, &MainWindow::referenceReady);
    connect(runs_, &RunController::raceCheckFinished, this, &MainWindow::raceCheckFinished);
    connect(runs_, &RunController::labFinished, this, &MainWindow::labFinished);
    connect(notices_, &Notices::shown, this, &MainWindow::noticeShown);
}

void MainWindow::connectCorruptionLayers()
{
    // The view asks for the layers whenever it draws a new picture of an image.
    viewState_->setPictureLayers([this]() -> PictureLayersPtr {
        auto layers = std::make_shared<PictureLayers>();
        layers->grid = workGroupMap_->shownGrid(viewState_->corruptionView());
        layers->hover = workGroupMap_->hover();
        layers->hoverVoxel = workGroupMap_->hoverVoxel();
        layers->races = raceList_->markers();
        layers->selectedReport = raceList_->selectedReport();
        layers->selectedMarker = raceList_->selectedMarker();
        return layers;
    });
    connect(workGroupMap_, &WorkGroupMap::changed, viewState_, &ViewState::refreshPicture);
    connect(raceList_, &RaceList::changed, viewState_, &ViewState::refreshPicture);
    connect(runs_, &RunController::racesChecked, raceList_, &RaceList::showOutcome);
    connect(raceList_, &RaceList::uniformWritesChanged, runs_, &RunController::setRaceCheckUniformWrites);
    connect(runs_, &RunController::racesChecked, this, [this](const rgx::ui::RaceCheckOutcome& outcome) {
        if (!outcome.races.empty())
            racesDock_->raise();
    });
    // A marker's pixel is brought to the view's centre, a few screen pixels wide.
    connect(raceList_, &RaceList::markerSelected, this,
            [this](QPoint pixel) { view_->centreOn(QPointF(pixel.x() + 0.5, pixel.y() + 0.5), 6.0); });
    connect(files_, &FileActions::imageOpened, raceList_, &RaceList::clear);
}

void MainWindow::showRacesDock() { racesDock_->raise(); }

void MainWindow::updateActions()
{
    const bool hasImage = document_->hasImage();
    const bool hasSeeds = !document_->seeds().empty();
    const bool hasResult = runs_->result() != nullptr;
    for (QAction* action : std::as_const(needsImage_))
        action->setEnabled(hasImage);
    for (QAction* action : std::as_const(needsResult_))
        action->setEnabled(hasResult);
    runAction_->setEnabled(hasImage && hasSeeds && runs_->devicesReady());
    const auto problem = devicePanel_->currentProblem();
    runAction_->setToolTip(problem && runs_->devicesReady()
                               ? QStringLiteral("Run (F5). Note: %1").arg(text(*problem))
                               : QStringLiteral("Run the pipeline on the chosen device (F5)"));
    cancelAction_->setEnabled(runs_->isRunning());
    keepAction_->setEnabled(hasResult);
    raceCheckAction_->setEnabled(hasImage && hasSeeds && !runs_->isCheckingRaces());
    progress_->setVisible(runs_->isRunning() || runs_->isCheckingRaces());
}

void MainWindow::createDocks()
{
    auto addDock = [this](const char* name, const QString& title, QWidget* content, Qt::DockWidgetArea area) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(QString::fromLatin1(name));
        dock->setWidget(content);
        addDockWidget(area, dock);
        return dock;
    };

    devicePanel_ = new DevicePanel;
    parameters_ = new ParametersPanel;
    auto* devicesDock = addDock("devicesDock", QStringLiteral("Device and variant"), scrollable(devicePanel_), Qt::LeftDockWidgetArea);
    auto* parametersDock = addDock("parametersDock", QStringLiteral("Parameters"), scrollable(parameters_), Qt::LeftDockWidgetArea);
    // Tabs, so that each panel gets the full height and nothing needs scrolling.
    tabifyDockWidget(devicesDock, parametersDock);
    // A lesson's card (Help > Lessons), a tab beside them at full height; hidden until a tour starts.
    tourCard_ = new TourCard;
    lessonDock_ = addDock("lessonDock", QStringLiteral("Lesson"), scrollable(tourCard_), Qt::LeftDockWidgetArea);
    tabifyDockWidget(parametersDock, lessonDock_);
    lessonDock_->hide();
    devicesDock->raise();

    auto* seedsWidget = new QWidget;
    auto* seedsLayout = new QVBoxLayout(seedsWidget);
    seedsLayout->setContentsMargins(4, 4, 4, 4);
    seedModel_ = new SeedTableModel(document_->seedSet(), this);
    seedTable_ = new QTableView(seedsWidget);
    seedTable_->setObjectName(QStringLiteral("seedTable"));
    seedTable_->setModel(seedModel_);
    seedTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    seedTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    seedTable_->verticalHeader()->setVisible(false);
    seedTable_->horizontalHeader()->setStretchLastSection(true);
    seedTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    seedTable_->horizontalHeader()->setSectionResizeMode(SeedTableModel::RegionSize, QHeaderView::Stretch);
    for (SeedTableModel::Column column : SeedTableModel::volumeColumns)
        seedTable_->setColumnHidden(column, true);
    seedTable_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    // Selecting a volume's seed in the table also brings its slices into view.
    connect(seedTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        const int row = current.isValid() ? current.row() : -1;
        if (document_->isVolume() && row != volumeView_->selectedSeed())
            volumeView_->showSeed(row);
        else if (!document_->isVolume())
            view_->setSelectedSeed(row);
    });
    seedsLayout->addWidget(seedTable_);
    auto* seedButtons = new QHBoxLayout;
    // The working objects come after the docks: the buttons find them when clicked.
    auto addButton = [&](const char* name, const QString& label, auto slot) {
        auto* button = new QPushButton(label, seedsWidget);
        button->setObjectName(QString::fromLatin1(name));
        connect(button, &QPushButton::clicked, this, slot);
        seedButtons->addWidget(button);
        return button;
    };
    addButton("importSeedsButton", QStringLiteral("Import..."), [this] { files_->chooseImportSeeds(); });
    addButton("exportSeedsButton", QStringLiteral("Export..."), [this] { files_->chooseExportSeeds(); });
    addButton("removeSeedButton", QStringLiteral("Remove"), &MainWindow::removeSelectedSeed);
    addButton("clearSeedsButton", QStringLiteral("Clear"), [this] { document_->clearSeeds(); });
    seedsLayout->addLayout(seedButtons);
    auto* seedsDock = addDock("seedsDock", QStringLiteral("Seeds"), seedsWidget, Qt::RightDockWidgetArea);

    // What explains a corruption: the work-group map's controls and the race list.
    workGroupMap_ = new WorkGroupMap(this);
    auto* racesWidget = new QWidget;
    auto* racesLayout = new QVBoxLayout(racesWidget);
    racesLayout->setContentsMargins(0, 0, 0, 0);
    workGroupMapPanel_ = new WorkGroupMapPanel(workGroupMap_, racesWidget);
    raceList_ = new RaceList(racesWidget);
    racesLayout->addWidget(workGroupMapPanel_);
    racesLayout->addWidget(raceList_, 1);
    racesDock_ = addDock("racesDock", QStringLiteral("Work-groups and races"), racesWidget, Qt::RightDockWidgetArea);
    tabifyDockWidget(seedsDock, racesDock_);
    seedsDock->raise();

    playback_ = new PlaybackPanel;
    auto* playbackDock = addDock("playbackDock", QStringLiteral("Playback and display"), scrollable(playback_), Qt::RightDockWidgetArea);
    splitDockWidget(seedsDock, playbackDock, Qt::Vertical);

    timing_ = new TimingPanel;
    auto* timingsDock = addDock("timingsDock", QStringLiteral("Timings"), timing_, Qt::BottomDockWidgetArea);
    auto* logDock = addDock("logDock", QStringLiteral("Log"), log_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(timingsDock, logDock);
    lab_ = new LabPanel;
    auto* labDock = addDock("labDock", QStringLiteral("Labs"), lab_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(logDock, labDock);
    timingsDock->raise();
    resizeDocks({devicesDock, seedsDock}, {400, 330}, Qt::Horizontal);
    resizeDocks({timingsDock}, {340}, Qt::Vertical);
    // The playback panel's diff line matters more than a tall seeds table.
    resizeDocks({seedsDock, playbackDock}, {200, 400}, Qt::Vertical);
}

void MainWindow::createActions()
{
    auto make = [this](const char* name, const QString& label, const QKeySequence& shortcut = {}) {
        auto* action = new QAction(label, this);
        action->setObjectName(QString::fromLatin1(name));
        if (!shortcut.isEmpty())
            action->setShortcut(shortcut);
        addAction(action); // shortcuts work even when the menu bar is hidden
        return action;
    };
    runAction_ = make("runAction", QStringLiteral("&Run"), QKeySequence(Qt::Key_F5));
    runAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    runAction_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    runAction_->setToolTip(QStringLiteral("Run the pipeline on the chosen device (F5)"));
    connect(runAction_, &QAction::triggered, runs_, &RunController::runNow);
    cancelAction_ = make("cancelAction", QStringLiteral("&Cancel Run"), QKeySequence(Qt::Key_Escape));
    cancelAction_->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
    connect(cancelAction_, &QAction::triggered, runs_, &RunController::cancelRun);
    keepAction_ = make("keepAction", QStringLiteral("&Keep Run for Comparison"), QKeySequence(Qt::CTRL | Qt::Key_K));
    keepAction_->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    connect(keepAction_, &QAction::triggered, runs_, &RunController::keepRun);
    corruptionAction_ = make("corruptionAction", QStringLiteral("Show &Differences from the CPU Reference"),
                             QKeySequence(Qt::CTRL | Qt::Key_D));
    corruptionAction_->setCheckable(true);
    corruptionAction_->setToolTip(QStringLiteral("Corruption view: pixels that differ from the CPU reference in magenta (Ctrl+D)"));
    connect(corruptionAction_, &QAction::toggled, viewState_, &ViewState::setCorruptionView);
    connect(viewState_, &ViewState::corruptionViewChanged, corruptionAction_, &QAction::setChecked);
    playback_->setCorruptionAction(corruptionAction_);
    raceCheckAction_ = make("raceCheckAction", QStringLiteral("Check for R&aces"));
    raceCheckAction_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    raceCheckAction_->setToolTip(QStringLiteral("Run the current variant under Oclgrind on a small part of the image "
                                                "and report data races and barrier divergence (takes up to a minute)"));
    connect(raceCheckAction_, &QAction::triggered, runs_, &RunController::checkRaces);
    devicePanel_->setRaceCheckAction(raceCheckAction_);
    raceList_->setCheckAction(raceCheckAction_);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), QStringLiteral("&Open Image..."),
                                    files_, &FileActions::chooseOpenImage);
    open->setObjectName(QStringLiteral("openAction"));
    open->setShortcut(QKeySequence::Open);
    QAction* openFolder = file->addAction(QStringLiteral("Open &Volume Folder..."), files_,
                                          &FileActions::chooseOpenVolumeFolder);
    openFolder->setObjectName(QStringLiteral("openVolumeFolderAction"));
    openFolder->setToolTip(QStringLiteral("A DICOM series, or a folder of numbered slices"));
    QMenu* sampleMenu = file->addMenu(QStringLiteral("Open &Sample"));
    sampleMenu->setObjectName(QStringLiteral("sampleMenu"));
    files_->fillSampleMenu(sampleMenu);
    QMenu* recentMenu = file->addMenu(QStringLiteral("Open &Recent"));
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    files_->attachRecentMenu(recentMenu);
    file->addSeparator();
    QAction* openSessionAction = file->addAction(QStringLiteral("Open Sess&ion..."), files_, &FileActions::chooseOpenSession);
    QAction* reopenAction = file->addAction(QStringLiteral("Reopen &Last Session"), files_, [this] { files_->reopenLastSession(); });
    reopenAction->setObjectName(QStringLiteral("reopenLastSessionAction"));
    reopenAction->setToolTip(QStringLiteral("The image, seeds and choices RGX had when it last quit"));
    openSessionAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* save = file->addAction(QStringLiteral("&Save Session"), files_, [this] { files_->chooseSaveSession(false); });
    save->setShortcut(QKeySequence::Save);
    save->setObjectName(QStringLiteral("saveSessionAction"));
    QAction* saveAs = file->addAction(QStringLiteral("Save Session &As..."), files_, [this] { files_->chooseSaveSession(true); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    needsImage_ << save << saveAs;
    file->addSeparator();
    QAction* importAction = file->addAction(QStringLiteral("&Import Seeds..."), files_, &FileActions::chooseImportSeeds);
    QAction* exportSeedsAction = file->addAction(QStringLiteral("E&xport Seeds..."), files_, &FileActions::chooseExportSeeds);
    needsImage_ << importAction << exportSeedsAction;
    QMenu* exportMenu = file->addMenu(QStringLiteral("&Export"));
    exportMenu->setObjectName(QStringLiteral("exportMenu"));
    const std::pair<const char*, QString> exports[] = {
        {"labels-png", QStringLiteral("Label Mask (PNG)...")},  {"labels-npy", QStringLiteral("Label Mask (.npy)...")},
        {"stamps-npy", QStringLiteral("Stamps (.npy)...")},     {"overlay-png", QStringLiteral("Overlay Image (PNG)...")},
        {"timings-csv", QStringLiteral("Timing Records (CSV)...")}, {"timings-json", QStringLiteral("Timing Records (JSON)...")},
    };
    for (const auto& [what, label] : exports) {
        QAction* action = exportMenu->addAction(label, files_, [this, what = QString::fromLatin1(what)] { files_->chooseExport(what); });
        action->setObjectName(QStringLiteral("export_") + QString::fromLatin1(what));
        needsResult_ << action;
    }
    QAction* chart = exportMenu->addAction(QStringLiteral("Timing Chart (PNG or PDF)..."), files_, &FileActions::chooseExportChart);
    chart->setObjectName(QStringLiteral("export_chart"));
    needsResult_ << chart;
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    QAction* undo = document_->undoStack()->createUndoAction(this, QStringLiteral("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = document_->undoStack()->createRedoAction(this, QStringLiteral("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    // Both common redo keys, whatever the platform's standard binding is.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    for (const QKeySequence& key : {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)})
        if (!redoKeys.contains(key))
            redoKeys << key;
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* remove = edit->addAction(QStringLiteral("Remove Selected Seed"), this, &MainWindow::removeSelectedSeed);
    remove->setObjectName(QStringLiteral("removeSeedAction"));
    remove->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    QAction* clear = edit->addAction(QStringLiteral("Clear Seeds"), document_, &Document::clearSeeds);
    needsImage_ << remove << clear;

    QMenu* viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
    // Zoom acts on the image, or on the volume's three slices.
    QAction* zoomIn = viewMenu->addAction(QStringLiteral("Zoom &In"), this,
                                          [this] { document_->isVolume() ? volumeView_->zoomIn() : view_->zoomIn(); });
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    QAction* zoomOut = viewMenu->addAction(QStringLiteral("Zoom &Out"), this,
                                           [this] { document_->isVolume() ? volumeView_->zoomOut() : view_->zoomOut(); });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    QAction* fit = viewMenu->addAction(QStringLiteral("&Fit to Window"), this,
                                       [this] { document_->isVolume() ? volumeView_->zoomToFit() : view_->zoomToFit(); });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    fit->setObjectName(QStringLiteral("zoomFitAction"));
    QAction* actual = viewMenu->addAction(QStringLiteral("&Actual Size (1:1)"), this, [this] {
        document_->isVolume() ? volumeView_->zoomActualSize() : view_->zoomActualSize();
    });
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    actual->setObjectName(QStringLiteral("zoomActualAction"));
    needsImage_ << zoomIn << zoomOut << fit << actual;
    viewMenu->addSeparator();
    viewMenu->addAction(corruptionAction_);
    viewMenu->addAction(workGroupMap_->action());
    needsImage_ << workGroupMap_->action();
    viewMenu->addAction(volumeView_->neurologicalAction()); // volumes: patient's left on the left
    viewMenu->addSeparator();
    QMenu* panels = viewMenu->addMenu(QStringLiteral("&Panels"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());

    QMenu* run = menuBar()->addMenu(QStringLiteral("&Run"));
    run->addAction(runAction_);
    run->addAction(cancelAction_);
    run->addAction(keepAction_);
    run->addSeparator();
    run->addAction(raceCheckAction_);
    run->addSeparator();
    QAction* autoRun = run->addAction(QStringLiteral("&Live: Run on Every Edit"));
    autoRun->setObjectName(QStringLiteral("autoRunAction"));
    autoRun->setCheckable(true);
    connect(autoRun, &QAction::toggled, parameters_, &ParametersPanel::setAutoRun);
    connect(parameters_, &ParametersPanel::autoRunChanged, autoRun, &QAction::setChecked);
    // A choice by hand holds; until then live follows the last run's latency.
    connect(autoRun, &QAction::triggered, runs_, &RunController::setLiveChoice);
    run->addSeparator();
    QAction* play = run->addAction(QStringLiteral("&Play / Pause"), playback_, &PlaybackPanel::togglePlay);
    play->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Space));
    QAction* forward = run->addAction(QStringLiteral("Step &Forward"), playback_, &PlaybackPanel::stepForward);
    forward->setShortcut(QKeySequence(Qt::Key_Period));
    QAction* back = run->addAction(QStringLiteral("Step &Back"), playback_, &PlaybackPanel::stepBack);
    back->setShortcut(QKeySequence(Qt::Key_Comma));
    QAction* first = run->addAction(QStringLiteral("First Iteration"), playback_, &PlaybackPanel::firstFrame);
    first->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Home));
    QAction* last = run->addAction(QStringLiteral("Last Iteration"), playback_, &PlaybackPanel::lastFrameSlot);
    last->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_End));
    needsResult_ << play << forward << back << first << last;

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    QMenu* lessons = help->addMenu(QStringLiteral("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessonsMenu"));
    lessonTour_ = new LessonTour(this, tourCard_, lessonDock_);
    lessonTour_->fillMenu(lessons);
    help->addSeparator();
    help->addAction(QStringLiteral("&Mouse and Keys"), this, [this] {
        QMessageBox::information(this, QStringLiteral("Mouse and keys"),
                                 QStringLiteral("Click on the image: add a seed.\n"
                                                "Drag a seed: move it. Right-click a seed, or select it and press Delete: remove it.\n"
                                                "Drag elsewhere or with the middle button: pan. Wheel: zoom around the cursor.\n"
                                                "Ctrl+0: fit, Ctrl+1: 1:1, Ctrl++ / Ctrl+-: zoom.\n"
                                                "F5: run, Esc: cancel, Ctrl+K: keep the run for comparison,\n"
                                                "Ctrl+D: differences from the CPU reference.\n"
                                                "Ctrl+Space: play / pause, '.' and ',': step, Ctrl+Z / Ctrl+Shift+Z: undo / redo.\n\n"
                                                "A volume: three slices through the crosshair. Wheel, Page Up/Down or the\n"
                                                "sliders: next slice (Shift: 10); Ctrl+wheel: zoom; Shift+click: move the\n"
                                                "crosshair; right-drag: window (left-right) and level (up-down);\n"
                                                "select a seed's row: go to its slices."));
    });
    QAction* about = help->addAction(QStringLiteral("&About RGX"), this,
                                     [this] { QMessageBox::about(this, QStringLiteral("About RGX"), aboutText()); });
    about->setObjectName(QStringLiteral("aboutAction"));
    help->addAction(QStringLiteral("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* tools = addToolBar(QStringLiteral("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(open);
    tools->addSeparator();
    tools->addAction(runAction_);
    tools->addAction(cancelAction_);
    tools->addAction(keepAction_);
    tools->addSeparator();
    tools->addAction(fit);
    tools->addAction(actual);
    tools->addAction(corruptionAction_);
}

void MainWindow::createStatusBar()
{
    pixelInfo_ = new QLabel(this);
    pixelInfo_->setObjectName(QStringLiteral("pixelInfo"));
    pixelInfo_->setMinimumWidth(pixelInfo_->fontMetrics().horizontalAdvance(
        QStringLiteral("x 0000  y 0000  luma 00000  label 00000  stamp 0000000")));
    zoomLabel_ = new QLabel(this);
    zoomLabel_->setObjectName(QStringLiteral("zoomLabel"));
    zoomLabel_->setMinimumWidth(zoomLabel_->fontMetrics().horizontalAdvance(QStringLiteral("6400 %")));
    runStatus_ = new QLabel(QStringLiteral("Ready"), this);
    runStatus_->setObjectName(QStringLiteral("runStatus"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("runProgress"));
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(120);
    progress_->setVisible(false);
    // Live segmentation as a state the user sees and owns: a badge that
    // says whether every edit runs at once, and turns it on or off.
    liveBadge_ = new QToolButton(this);
    liveBadge_->setObjectName(QStringLiteral("liveBadge"));
    liveBadge_->setAutoRaise(true);
    liveBadge_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(liveBadge_, &QToolButton::clicked, this,
            [this] { findChild<QAction*>(QStringLiteral("autoRunAction"))->trigger(); });
    connect(parameters_, &ParametersPanel::autoRunChanged, this, [this] { showLiveState(QString()); });
    // Parameter edits are steps of undo, as seed edits are.
    connect(parameters_, &ParametersPanel::edited, this, [this](const PipelineParams& before, const PipelineParams& after) {
        document_->undoStack()->push(new ParametersCommand(parameters_, before, after, ParametersCommand::Shown::After));
    });
    connect(runs_, &RunController::liveTurnedOff, this, &MainWindow::showLiveState);
    showLiveState(QString());
    statusBar()->addPermanentWidget(liveBadge_);
    statusBar()->addPermanentWidget(runStatus_, 1); // the widest: it takes what is left
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(pixelInfo_);
    statusBar()->addPermanentWidget(zoomLabel_);
}

// The live badge: on (green), off, or turned off by itself (amber, with why).
void MainWindow::showLiveState(const QString& turnedOffBecause)
{
    const bool on = parameters_->autoRun();
    if (on) {
        liveBadge_->setText(QStringLiteral("\u25CF Live"));
        liveBadge_->setStyleSheet(QStringLiteral("color: #1b7a1b; font-weight: bold;"));
        liveBadge_->setToolTip(QStringLiteral("Live segmentation is on: every seed or parameter edit runs at once. "
                                              "Click to turn it off."));
    } else if (!turnedOffBecause.isEmpty()) {
        liveBadge_->setText(QStringLiteral("\u25CB Live off (click to turn on)"));
        liveBadge_->setStyleSheet(QStringLiteral("color: #a05a00; font-weight: bold;"));
        liveBadge_->setToolTip(QStringLiteral("Live segmentation turned itself off: %1. Click to turn it on and "
                                              "keep it on.").arg(turnedOffBecause));
    } else {
        liveBadge_->setText(QStringLiteral("\u25CB Live off"));
        liveBadge_->setStyleSheet(QString());
        liveBadge_->setToolTip(QStringLiteral("Live segmentation is off: edits wait for Run (F5). Click to run every "
                                              "edit at once."));
    }
}

void MainWindow::showLab()
{
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("labDock"))) {
        dock->show();
        dock->raise();
        resizeDocks({dock}, {int(height() * 0.4)}, Qt::Vertical);
    }
}

void MainWindow::showTimingChart(TimingPanel::Chart chart)
{
    timing_->showChart(chart);
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("timingsDock"))) {
        dock->show();
        dock->raise();
        resizeDocks({dock}, {int(height() * 0.45)}, Qt::Vertical);
    }
}

// ---- volumes ------------------------------------------------------------------

// The volume view's seed edits go the way of the image view's, as voxels.
void MainWindow::connectVolumeView()
{
    // A live run follows each seed click: the crosshair moves with its region.
    volumeView_->setRegionsFollowSeedClicks(parameters_->autoRun());
    connect(parameters_, &ParametersPanel::autoRunChanged, volumeView_, &VolumeView::setRegionsFollowSeedClicks);
    connect(volumeView_, &VolumeView::seedAddRequested, this, [this](rgx::Seed voxel) {
        const int index = document_->addSeed(voxel);
        if (index >= 0)
            volumeView_->setSelectedSeed(index);
    });
    connect(volumeView_, &VolumeView::seedMoveRequested, document_,
            qOverload<int, const Seed&, const Seed&>(&Document::moveSeed));
    connect(volumeView_, &VolumeView::seedRemoveRequested, document_, &Document::removeSeed);
    connect(volumeView_, &VolumeView::seedDragged, runs_, &RunController::seedDraggedTo);
    connect(volumeView_, &VolumeView::seedDragFinished, runs_, &RunController::seedDragFinished);
    connect(volumeView_, &VolumeView::seedDragged, seedModel_, &SeedTableModel::setDraggedVoxel);
    connect(volumeView_, &VolumeView::seedDragFinished, seedModel_, &SeedTableModel::clearDragged);
    connect(volumeView_, &VolumeView::seedSelected, this, [this](int index) { seedTable_->selectRow(index); });
    connect(volumeView_, &VolumeView::hoverVoxel, workGroupMap_, &WorkGroupMap::setHoverVoxel);
    connect(volumeView_, &VolumeView::hoverVoxel, this, [this](rgx::Seed voxel, bool inside) {
        QString info = viewState_->voxelInfo(voxel, inside);
        // The work-group that handled the voxel, as for an image's pixel.
        const QString cell = workGroupMap_->hoverText(viewState_->corruptionView());
        if (!info.isEmpty() && !cell.isEmpty())
            info += QStringLiteral("  |  ") + cell;
        pixelInfo_->setText(info);
    });
    connect(volumeView_, &VolumeView::zoomChanged, this, [this](double zoom) {
        zoomLabel_->setText(QStringLiteral("%1 %").arg(zoom * 100.0, 0, 'f', zoom < 0.1 ? 1 : 0));
    });
}

void MainWindow::showImageOrVolume()
{
    const bool volume = document_->isVolume();
    centre_->setCurrentWidget(volume ? static_cast<QWidget*>(volumeView_) : view_);
    parameters_->setVolume(volume);
    volumeView_->neurologicalAction()->setEnabled(volume);
    for (SeedTableModel::Column column : SeedTableModel::volumeColumns)
        seedTable_->setColumnHidden(column, !volume);
}

QWidget* MainWindow::shownView() const
{
    return document_->isVolume() ? static_cast<QWidget*>(volumeView_) : view_;
}

// ---- seeds, drag and drop, settings ------------------------------------------

void MainWindow::removeSelectedSeed()
{
    int index = document_->isVolume() ? volumeView_->selectedSeed() : view_->selectedSeed();
    if (index < 0 && seedTable_->currentIndex().isValid())
        index = seedTable_->currentIndex().row();
    if (index < 0) {
        statusBar()->showMessage(QStringLiteral("Select a seed first (click it, or its row in the table)."), 4000);
        return;
    }
    document_->removeSeed(index);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    // Open after the drop returns, so that a notice does not block the drag source.
    const QString path = urls.first().toLocalFile();
    QTimer::singleShot(0, this, [this, path] { files_->openFileAsked(path); });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!files_->mayDiscardSeeds(QStringLiteral("quitting"))) {
        event->ignore();
        return;
    }
    files_->keepLastSession();
    saveSettings();
    runs_->stopEngine();
    QMainWindow::closeEvent(event);
}

void MainWindow::saveSettings() const
{
    if (!options_.restoreSettings)
        return;
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    if (!devicePanel_->currentDeviceId().empty())
        settings.setValue(QStringLiteral("device"), text(devicePanel_->currentDeviceId()));
    Session choices;
    choices.params = parameters_->params();
    choices.timeoutSeconds = parameters_->timeoutSeconds();
    choices.autoRun = parameters_->autoRun();
    choices.variant = devicePanel_->variant().text();
    settings.setValue(QStringLiteral("choices"), sessionToJson(choices, QString()));
    // A variant chosen by hand comes back; otherwise the next start follows the device.
    settings.setValue(QStringLiteral("variantChosen"), devicePanel_->variantChosen());
    settings.setValue(QStringLiteral("display/opacity"), playback_->opacity());
    settings.setValue(QStringLiteral("display/outlines"), playback_->outlines());
    settings.setValue(QStringLiteral("display/frontier"), playback_->frontier());
    settings.setValue(QStringLiteral("playback/speed"), playback_->speed());
    settings.setValue(QStringLiteral("volume/neurological"),
                      volumeView_->convention() == DisplayConvention::Neurological);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    const QByteArray choices = settings.value(QStringLiteral("choices")).toByteArray();
    if (!choices.isEmpty()) {
        try {
            const Session last = sessionFromJson(choices, QString(), QStringLiteral("(settings)"));
            parameters_->setParams(last.params);
            parameters_->setTimeoutSeconds(last.timeoutSeconds);
            parameters_->setAutoRun(last.autoRun);
            // A wrong-on-purpose variant is never restored silently: the
            // window starts from its correct twin and the log says so.
            const GrowVariant variant = parseVariant(last.variant);
            const bool chosen = settings.value(QStringLiteral("variantChosen"), false).toBool();
            if (chosen)
                devicePanel_->setVariant(variant.correctTwin());
            if (chosen && variant.wrongOnPurpose())
                log_->warning(QStringLiteral("The last session used %1, which is wrong on purpose; starting from "
                                             "its correct twin %2 (choose it again in the variant panel).")
                                  .arg(text(variant.text()), text(variant.correctTwin().text())));
        } catch (const std::exception& error) {
            // Settings from another version: start from the defaults.
            log_->warning(QStringLiteral("Ignored the saved choices: %1").arg(QString::fromUtf8(error.what())));
        }
    }
    // A reader's convention is a habit: it stays from one session to the next.
    if (settings.value(QStringLiteral("volume/neurological"), false).toBool())
        volumeView_->setConvention(DisplayConvention::Neurological);
    playback_->setOpacity(settings.value(QStringLiteral("display/opacity"), 0.5).toDouble());
    playback_->setOutlines(settings.value(QStringLiteral("display/outlines"), true).toBool());
    playback_->setFrontier(settings.value(QStringLiteral("display/frontier"), true).toBool());
    // The corruption view is not restored: a correct run under it shows no
    // differences, which looks like nothing happened. --show-differences asks for it.
    playback_->setSpeed(settings.value(QStringLiteral("playback/speed"), 15).toInt());
}

} // namespace rgx::ui
