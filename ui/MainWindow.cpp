// Main window: wiring of the view, panels, menus and engine thread, plus the
// file operations (open, sessions, seeds, exports) with their error reporting.
#include "MainWindow.h"
#include <utility>

#include "DevicePanel.h"
#include "Errors.h"
#include "Format.h"
#include "ImageView.h"
#include "LabPanel.h"
#include "LogPanel.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "Samples.h"
#include "SeedTableModel.h"
#include "Session.h"
#include "TimingPanel.h"
#include "io/Export.h"
#include "io/Overlay.h"
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <charconv>

// Resources must be initialised from the global namespace (static library).
static void initRgxResources() { Q_INIT_RESOURCE(rgx); }

namespace rgx::ui {

namespace {

// Live segmentation turns itself on while a run (request to overlay drawn)
// takes less than this.
constexpr double liveLimitMs = 100.0;

// Images larger than this are not drawn whole at full size: the view
// renders each frame for what it shows, at its own resolution.
constexpr uint64_t renderedInViewAbove = uint64_t(2048) * 2048;

constexpr int maxRecentFiles = 10;

QString text(const std::string& value) { return QString::fromStdString(value); }

QString describeImage(const LumaImage& image)
{
    return QStringLiteral("%1 x %2, %3-bit %4")
        .arg(image.width)
        .arg(image.height)
        .arg(image.bitDepth)
        .arg(image.colour ? QStringLiteral("colour") : QStringLiteral("grey"));
}

// The current choices as rgx-cli segment options, so that the race check
// runs exactly what the explorer runs.
std::vector<std::string> segmentOptionsFor(const PipelineParams& params, const GrowVariant& variant)
{
    char tolerance[64];
    const auto written = std::to_chars(tolerance, tolerance + sizeof(tolerance), params.grow.tolerance);
    return {"--mode", modeName(params.grow.mode),
            "--tolerance", std::string(tolerance, written.ptr),
            "--lower", std::to_string(params.grow.lower),
            "--upper", std::to_string(params.grow.upper),
            "--rule", ruleName(params.grow.rule),
            "--connectivity", std::to_string(params.grow.connectivity),
            "--max-iterations", std::to_string(params.grow.maxIterations),
            "--prefilter", prefilterText(params.prefilter),
            "--postfilter", postfilterText(params.postfilter),
            "--variant", variant.text()};
}

bool isSessionFile(const QString& path) { return QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0; }

bool isSeedsFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("seeds") || suffix == QLatin1String("txt");
}

QWidget* scrollable(QWidget* panel)
{
    auto* area = new QScrollArea;
    area->setWidget(panel);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
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

    view_ = new ImageView(this);
    setCentralWidget(view_);
    createDocks();
    createActions();
    createMenus();
    createStatusBar();
    connectEngine();

    // Live runs: a seed edit runs at once (the timer coalesces the edits of
    // one event), a parameter edit after a short pause for typing.
    autoRunTimer_.setSingleShot(true);
    connect(&autoRunTimer_, &QTimer::timeout, this, &MainWindow::runNow);

    connect(view_, &ImageView::seedAddRequested, this, &MainWindow::onSeedAdd);
    connect(view_, &ImageView::seedMoveRequested, this, &MainWindow::onSeedMove);
    connect(view_, &ImageView::seedRemoveRequested, this, &MainWindow::onSeedRemove);
    connect(view_, &ImageView::seedDragged, this, &MainWindow::onSeedDragged);
    connect(view_, &ImageView::seedDragFinished, this, &MainWindow::onSeedDragFinished);
    connect(view_, &ImageView::hoverPixel, this, &MainWindow::updatePixelInfo);
    connect(view_, &ImageView::zoomChanged, this, [this](double zoom) {
        zoomLabel_->setText(QStringLiteral("%1 %").arg(zoom * 100.0, 0, 'f', zoom < 0.1 ? 1 : 0));
    });
    connect(view_, &ImageView::seedSelected, this, [this](int index) { seedTable_->selectRow(index); });
    connect(&seeds_, &SeedSet::changed, this, [this] {
        view_->setSeeds(seeds_.seeds());
        updateActions();
        if (parameters_->autoRun() && luma_ && !seeds_.isEmpty())
            autoRunTimer_.start(0);
    });
    connect(seedModel_, &SeedTableModel::moveRequested, this, [this](int index, rgx::Seed to) {
        // After the table's editor has finished: the move resets the model.
        QTimer::singleShot(0, this, [this, index, to] {
            if (index >= seeds_.size())
                return;
            const Seed from = seeds_.at(index);
            onSeedMove(index, QPoint(from.x, from.y), QPoint(to.x, to.y));
        });
    });
    connect(playback_, &PlaybackPanel::frameChanged, this, &MainWindow::refreshPicture);
    connect(playback_, &PlaybackPanel::displayChanged, this, &MainWindow::refreshPicture);
    connect(parameters_, &ParametersPanel::changed, this, [this] {
        if (parameters_->autoRun() && luma_ && !seeds_.isEmpty() && result_)
            autoRunTimer_.start(150);
    });
    connect(devicePanel_, &DevicePanel::variantChanged, this, &MainWindow::updateActions);
    connect(devicePanel_, &DevicePanel::deviceChanged, this, &MainWindow::updateActions);
    connect(timing_, &TimingPanel::keptRunsChanged, this, &MainWindow::updateActions);

    if (options_.restoreSettings)
        restoreSettings();
    updateActions();
    updateDiffLabel();
    // Listing touches OpenCL, so it runs on the engine thread like everything else.
    log_->info(QStringLiteral("Looking for OpenCL devices..."));
    engine_.listDevices(options_.preferredDevice);
}

MainWindow::~MainWindow() = default;

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
    devicesDock->raise();

    auto* seedsWidget = new QWidget;
    auto* seedsLayout = new QVBoxLayout(seedsWidget);
    seedsLayout->setContentsMargins(4, 4, 4, 4);
    seedModel_ = new SeedTableModel(&seeds_, this);
    seedTable_ = new QTableView(seedsWidget);
    seedTable_->setObjectName(QStringLiteral("seedTable"));
    seedTable_->setModel(seedModel_);
    seedTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    seedTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    seedTable_->verticalHeader()->setVisible(false);
    seedTable_->horizontalHeader()->setStretchLastSection(true);
    seedTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    seedTable_->horizontalHeader()->setSectionResizeMode(SeedTableModel::RegionSize, QHeaderView::Stretch);
    seedTable_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    connect(seedTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { view_->setSelectedSeed(current.isValid() ? current.row() : -1); });
    seedsLayout->addWidget(seedTable_);
    auto* seedButtons = new QHBoxLayout;
    auto addButton = [&](const char* name, const QString& label, auto slot) {
        auto* button = new QPushButton(label, seedsWidget);
        button->setObjectName(QString::fromLatin1(name));
        connect(button, &QPushButton::clicked, this, slot);
        seedButtons->addWidget(button);
        return button;
    };
    addButton("importSeedsButton", QStringLiteral("Import..."), &MainWindow::chooseImportSeeds);
    addButton("exportSeedsButton", QStringLiteral("Export..."), &MainWindow::chooseExportSeeds);
    addButton("removeSeedButton", QStringLiteral("Remove"), &MainWindow::removeSelectedSeed);
    addButton("clearSeedsButton", QStringLiteral("Clear"), [this] {
        if (!seeds_.isEmpty())
            undo_.push(new ReplaceSeedsCommand(&seeds_, {}, QStringLiteral("clear seeds")));
    });
    seedsLayout->addLayout(seedButtons);
    auto* seedsDock = addDock("seedsDock", QStringLiteral("Seeds"), seedsWidget, Qt::RightDockWidgetArea);

    playback_ = new PlaybackPanel;
    auto* playbackDock = addDock("playbackDock", QStringLiteral("Playback and display"), scrollable(playback_), Qt::RightDockWidgetArea);
    splitDockWidget(seedsDock, playbackDock, Qt::Vertical);

    timing_ = new TimingPanel;
    log_ = new LogPanel;
    auto* timingsDock = addDock("timingsDock", QStringLiteral("Timings"), timing_, Qt::BottomDockWidgetArea);
    auto* logDock = addDock("logDock", QStringLiteral("Log"), log_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(timingsDock, logDock);
    lab_ = new LabPanel;
    auto* labDock = addDock("labDock", QStringLiteral("Binary-search lab"), lab_, Qt::BottomDockWidgetArea);
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
    connect(runAction_, &QAction::triggered, this, &MainWindow::runNow);
    cancelAction_ = make("cancelAction", QStringLiteral("&Cancel Run"), QKeySequence(Qt::Key_Escape));
    cancelAction_->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
    connect(cancelAction_, &QAction::triggered, this, &MainWindow::cancelRun);
    keepAction_ = make("keepAction", QStringLiteral("&Keep Run for Comparison"), QKeySequence(Qt::CTRL | Qt::Key_K));
    keepAction_->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    connect(keepAction_, &QAction::triggered, this, &MainWindow::keepRun);
    corruptionAction_ = make("corruptionAction", QStringLiteral("Show &Differences from the CPU Reference"),
                             QKeySequence(Qt::CTRL | Qt::Key_D));
    corruptionAction_->setCheckable(true);
    corruptionAction_->setToolTip(QStringLiteral("Corruption view: pixels that differ from the CPU reference in magenta (Ctrl+D)"));
    connect(corruptionAction_, &QAction::toggled, this, &MainWindow::setCorruptionView);
    playback_->setCorruptionAction(corruptionAction_);
    raceCheckAction_ = make("raceCheckAction", QStringLiteral("Check for R&aces"));
    raceCheckAction_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    raceCheckAction_->setToolTip(QStringLiteral("Run the current variant under Oclgrind on a small part of the image "
                                                "and report data races and barrier divergence (takes up to a minute)"));
    connect(raceCheckAction_, &QAction::triggered, this, &MainWindow::checkRaces);
    devicePanel_->setRaceCheckAction(raceCheckAction_);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), QStringLiteral("&Open Image..."),
                                    this, &MainWindow::chooseOpenImage);
    open->setObjectName(QStringLiteral("openAction"));
    open->setShortcut(QKeySequence::Open);
    sampleMenu_ = file->addMenu(QStringLiteral("Open &Sample"));
    sampleMenu_->setObjectName(QStringLiteral("sampleMenu"));
    for (const Sample& sample : bundledSamples()) {
        QAction* action = sampleMenu_->addAction(sample.title, this, [this, name = sample.name] { openSample(name); });
        action->setObjectName(QStringLiteral("sample_") + sample.name);
        action->setToolTip(sample.seedsPath.isEmpty() ? sample.imagePath
                                                      : sample.imagePath + QStringLiteral(" with ") + sample.seedsPath);
    }
    if (sampleMenu_->isEmpty())
        sampleMenu_->addAction(QStringLiteral("(no samples found)"))->setEnabled(false);
    recentMenu_ = file->addMenu(QStringLiteral("Open &Recent"));
    recentMenu_->setObjectName(QStringLiteral("recentMenu"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    QAction* openSessionAction = file->addAction(QStringLiteral("Open Sess&ion..."), this, &MainWindow::chooseOpenSession);
    openSessionAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction* save = file->addAction(QStringLiteral("&Save Session"), this, [this] { chooseSaveSession(false); });
    save->setShortcut(QKeySequence::Save);
    save->setObjectName(QStringLiteral("saveSessionAction"));
    QAction* saveAs = file->addAction(QStringLiteral("Save Session &As..."), this, [this] { chooseSaveSession(true); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    needsImage_ << save << saveAs;
    file->addSeparator();
    QAction* importAction = file->addAction(QStringLiteral("&Import Seeds..."), this, &MainWindow::chooseImportSeeds);
    QAction* exportSeedsAction = file->addAction(QStringLiteral("E&xport Seeds..."), this, &MainWindow::chooseExportSeeds);
    needsImage_ << importAction << exportSeedsAction;
    QMenu* exportMenu = file->addMenu(QStringLiteral("&Export"));
    exportMenu->setObjectName(QStringLiteral("exportMenu"));
    const std::pair<const char*, QString> exports[] = {
        {"labels-png", QStringLiteral("Label Mask (PNG)...")},  {"labels-npy", QStringLiteral("Label Mask (.npy)...")},
        {"stamps-npy", QStringLiteral("Stamps (.npy)...")},     {"overlay-png", QStringLiteral("Overlay Image (PNG)...")},
        {"timings-csv", QStringLiteral("Timing Records (CSV)...")}, {"timings-json", QStringLiteral("Timing Records (JSON)...")},
    };
    for (const auto& [what, label] : exports) {
        QAction* action = exportMenu->addAction(label, this, [this, what = QString::fromLatin1(what)] { chooseExport(what); });
        action->setObjectName(QStringLiteral("export_") + QString::fromLatin1(what));
        needsResult_ << action;
    }
    QAction* chart = exportMenu->addAction(QStringLiteral("Timing Chart (PNG or PDF)..."), this, &MainWindow::chooseExportChart);
    chart->setObjectName(QStringLiteral("export_chart"));
    needsResult_ << chart;
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    QAction* undo = undo_.createUndoAction(this, QStringLiteral("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = undo_.createRedoAction(this, QStringLiteral("&Redo"));
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
    QAction* clear = edit->addAction(QStringLiteral("Clear Seeds"), this, [this] {
        if (!seeds_.isEmpty())
            undo_.push(new ReplaceSeedsCommand(&seeds_, {}, QStringLiteral("clear seeds")));
    });
    needsImage_ << remove << clear;

    QMenu* viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
    QAction* zoomIn = viewMenu->addAction(QStringLiteral("Zoom &In"), view_, &ImageView::zoomIn);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    QAction* zoomOut = viewMenu->addAction(QStringLiteral("Zoom &Out"), view_, &ImageView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    QAction* fit = viewMenu->addAction(QStringLiteral("&Fit to Window"), view_, &ImageView::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    fit->setObjectName(QStringLiteral("zoomFitAction"));
    QAction* actual = viewMenu->addAction(QStringLiteral("&Actual Size (1:1)"), view_, &ImageView::zoomActualSize);
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    actual->setObjectName(QStringLiteral("zoomActualAction"));
    needsImage_ << zoomIn << zoomOut << fit << actual;
    viewMenu->addSeparator();
    viewMenu->addAction(corruptionAction_);
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
    connect(autoRun, &QAction::triggered, this, &MainWindow::setLiveChoice);
    connect(parameters_, &ParametersPanel::autoRunChosen, this, &MainWindow::setLiveChoice);
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
    help->addAction(QStringLiteral("&Mouse and Keys"), this, [this] {
        QMessageBox::information(this, QStringLiteral("Mouse and keys"),
                                 QStringLiteral("Click on the image: add a seed.\n"
                                                "Drag a seed: move it. Right-click a seed, or select it and press Delete: remove it.\n"
                                                "Drag elsewhere or with the middle button: pan. Wheel: zoom around the cursor.\n"
                                                "Ctrl+0: fit, Ctrl+1: 1:1, Ctrl++ / Ctrl+-: zoom.\n"
                                                "F5: run, Esc: cancel, Ctrl+K: keep the run for comparison,\n"
                                                "Ctrl+D: differences from the CPU reference.\n"
                                                "Ctrl+Space: play / pause, '.' and ',': step, Ctrl+Z / Ctrl+Shift+Z: undo / redo."));
    });
    help->addAction(QStringLiteral("&About RGX"), this, [this] {
        QMessageBox::about(this, QStringLiteral("About RGX"),
                           QStringLiteral("<b>RGX %1</b> - Region Growing eXplorer<br>"
                                          "Watch OpenCL kernels segment images by seeded region growing, "
                                          "and see what barriers, async copies, work-group collectives and "
                                          "device-side enqueue do.")
                               .arg(QApplication::applicationVersion()));
    });
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
    statusBar()->addPermanentWidget(runStatus_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(pixelInfo_);
    statusBar()->addPermanentWidget(zoomLabel_);
}

void MainWindow::connectEngine()
{
    EngineWorker* worker = engine_.worker();
    connect(worker, &EngineWorker::devicesListed, this, &MainWindow::onDevicesListed);
    connect(worker, &EngineWorker::runStarted, this, [this](quint64 id) {
        if (id == activeRunId_) {
            runStatus_->setText(QStringLiteral("Running #%1...").arg(id));
            emit runStarted(id);
        }
    });
    connect(worker, &EngineWorker::runProgress, this, [this](quint64 id, quint32 iteration, quint64 frontier) {
        if (id == activeRunId_ && running_)
            runStatus_->setText(QStringLiteral("Running #%1: iteration %2, frontier %3")
                                    .arg(id)
                                    .arg(iteration)
                                    .arg(formatCount(frontier)));
    });
    connect(worker, &EngineWorker::runPartial, this, [this](quint64 id, rgx::GrowResultPtr partial) {
        if (id != activeRunId_ || !running_ || !luma_ || partial->width <= 0)
            return;
        // The regions so far, over the image: the run streams its growth.
        OverlayStyle style = overlayStyle(partial->iterations);
        style.frontier = false;
        if (partial->width != luma_->width) {
            // Every step-th pixel of a large image: drawn over the image
            // shrunk as much, the view's coordinates scaled to it.
            const double step = double(luma_->width) / double(partial->width);
            if (shrunkImage_.width() != partial->width || shrunkImage_.height() != partial->height)
                shrunkImage_ = displayImage_.scaled(partial->width, partial->height, Qt::IgnoreAspectRatio,
                                                    Qt::FastTransformation);
            const QImage base = shrunkImage_;
            auto renderer = [base, partial, style, step](const QRectF& source, QImage& out) {
                renderOverlayView(base, partial.get(), style, ViewLayers(),
                                  QRectF(source.topLeft() / step, source.size() / step), out);
            };
            view_->setRenderedPicture(displayImage_.size(), renderer, ++renderSerial_, false);
        } else if (renderedInView()) {
            showInView(partial, style, ViewLayers(), false);
        } else {
            QImage picture(displayImage_.size(), QImage::Format_RGB32);
            renderOverlayView(baseImage(), partial.get(), style, ViewLayers(),
                              QRectF(QPointF(0, 0), QSizeF(displayImage_.size())), picture);
            currentPicture_ = QPixmap::fromImage(picture);
            view_->setPicture(currentPicture_, false);
        }
        ++partialPictures_;
    });
    connect(worker, &EngineWorker::runFinished, this, &MainWindow::onRunFinished);
    connect(worker, &EngineWorker::runFailed, this, &MainWindow::onRunFailed);
    connect(worker, &EngineWorker::referenceReady, this,
            [this](quint64 runId, rgx::GrowResultPtr reference, std::shared_ptr<const rgx::ResultDiff> diff) {
                if (!result_ || runId != resultRequest_.id)
                    return;
                referencePending_ = false;
                reference_ = std::move(reference);
                diff_ = std::move(diff);
                frameCache_.clear();
                log_->info(QStringLiteral("verify: %1 pixels differ").arg(diff_->differingPixels));
                updateDiffLabel();
                refreshPicture();
                emit referenceReady();
            });
    connect(worker, &EngineWorker::message, log_, &LogPanel::info);
    connect(worker, &EngineWorker::raceCheckStarted, this, [this] {
        runStatus_->setText(QStringLiteral("Checking for races under Oclgrind..."));
    });
    connect(worker, &EngineWorker::raceCheckFinished, this, &MainWindow::onRaceCheckFinished);
    connect(lab_, &LabPanel::runRequested, this, [this](quint64 size, quint64 keys, rgx::Driver driver) {
        if (!devicesReady_) {
            notice(QStringLiteral("Binary-search lab"), QStringLiteral("No OpenCL device yet: wait for the device list."));
            return;
        }
        LabRequest request;
        request.id = ++nextLabId_;
        request.deviceId = devicePanel_->currentDeviceId();
        request.size = size_t(size);
        request.keys = size_t(keys);
        request.driver = driver;
        lab_->setBusy(true);
        log_->info(QStringLiteral("Binary-search lab #%1: %2 values, %3 keys, driver=%4 on %5")
                       .arg(request.id)
                       .arg(formatCount(size), formatCount(keys), text(driverName(driver)), text(request.deviceId)));
        engine_.runLab(request);
    });
    connect(worker, &EngineWorker::labFinished, this, [this](const rgx::ui::LabOutcome& outcome) {
        lab_->showOutcome(outcome);
        if (!outcome.result) {
            notice(QStringLiteral("Binary-search lab"), QStringLiteral("The lab could not run: %1").arg(outcome.error));
            emit labFinished(false);
            return;
        }
        const TimelineSummary summary = summarizeTimeline(outcome.result->timings);
        log_->info(QStringLiteral("Binary-search lab #%1: %2 rounds, host %3, device busy %4, idle gaps %5; "
                                  "verify: %6 keys differ from std::lower_bound")
                       .arg(outcome.request.id)
                       .arg(outcome.result->rounds)
                       .arg(formatDuration(outcome.result->hostMilliseconds * 1e6), formatDuration(double(summary.busyNs)),
                            formatDuration(double(summary.gapNs)))
                       .arg(outcome.differingKeys));
        emit labFinished(true);
    });
    connect(devicePanel_, &DevicePanel::deviceChanged, this, [this] { lab_->setDevice(devicePanel_->currentDevice()); });
}

void MainWindow::showLab()
{
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("labDock"))) {
        dock->show();
        dock->raise();
        resizeDocks({dock}, {int(height() * 0.4)}, Qt::Vertical);
    }
}

void MainWindow::onDevicesListed(const DeviceList& list)
{
    if (!list.problem.isEmpty()) {
        if (list.devices.empty())
            notice(QStringLiteral("No OpenCL device"), list.problem);
        else
            log_->warning(list.problem);
    }
    std::string chosen = list.defaultId;
    if (options_.preferredDevice.isEmpty()) {
        // A session opened before the list came wins; then the last device used.
        std::string wanted = pendingDeviceId_;
        if (wanted.empty() && options_.restoreSettings)
            wanted = QSettings().value(QStringLiteral("device")).toString().toStdString();
        for (const DeviceInfo& device : list.devices)
            if (device.id() == wanted && (pendingDeviceName_.empty() || device.name == pendingDeviceName_))
                chosen = wanted;
    }
    devicePanel_->setDevices(list.devices, chosen);
    lab_->setDevice(devicePanel_->currentDevice());
    pendingDeviceId_.clear();
    pendingDeviceName_.clear();
    devicesReady_ = !list.devices.empty();
    for (const DeviceInfo& device : list.devices)
        log_->info(QStringLiteral("Device %1: %2 (%3, %4)")
                       .arg(text(device.id()), text(device.name), text(device.type), text(device.openClCVersion)));
    updateActions();
    emit devicesListed();
    if (pendingRun_ && devicesReady_) {
        pendingRun_ = false;
        runNow();
    }
}

bool MainWindow::selectDevice(const QString& id)
{
    if (!devicesReady_) {
        pendingDeviceId_ = id.toStdString();
        return true;
    }
    if (devicePanel_->selectDevice(id.toStdString()))
        return true;
    notice(QStringLiteral("Device"), QStringLiteral("No OpenCL device with id %1.").arg(id));
    return false;
}

bool MainWindow::setVariantText(const QString& variantText)
{
    try {
        devicePanel_->setVariant(parseVariant(variantText.toStdString()));
        return true;
    } catch (const InputError& error) {
        notice(QStringLiteral("Variant"), QString::fromUtf8(error.what()));
        return false;
    }
}

void MainWindow::notice(const QString& title, const QString& message, const QString& details)
{
    log_->error(message, details);
    showNoticeBox(title, message, details, QMessageBox::Warning);
}

void MainWindow::showNoticeBox(const QString& title, const QString& message, const QString& details, QMessageBox::Icon icon)
{
    lastNotice_ = message;
    statusBar()->showMessage(message, 15000);
    // One non-modal box, reused: the program keeps running while it is shown.
    if (!noticeBox_) {
        noticeBox_ = new QMessageBox(this);
        noticeBox_->setObjectName(QStringLiteral("noticeBox"));
        noticeBox_->setStandardButtons(QMessageBox::Close);
        noticeBox_->setModal(false);
        noticeBox_->setWindowModality(Qt::NonModal);
    }
    noticeBox_->setIcon(icon);
    noticeBox_->setWindowTitle(QStringLiteral("RGX: %1").arg(title));
    noticeBox_->setText(message);
    noticeBox_->setDetailedText(details);
    noticeBox_->show();
    noticeBox_->raise();
    emit noticeShown(message);
}

void MainWindow::updateActions()
{
    const bool hasImage = luma_ != nullptr;
    const bool hasResult = result_ != nullptr;
    for (QAction* action : std::as_const(needsImage_))
        action->setEnabled(hasImage);
    for (QAction* action : std::as_const(needsResult_))
        action->setEnabled(hasResult);
    runAction_->setEnabled(hasImage && !seeds_.isEmpty() && devicesReady_);
    const auto problem = devicePanel_->currentProblem();
    runAction_->setToolTip(problem && devicesReady_
                               ? QStringLiteral("Run (F5). Note: %1").arg(text(*problem))
                               : QStringLiteral("Run the pipeline on the chosen device (F5)"));
    cancelAction_->setEnabled(running_);
    keepAction_->setEnabled(hasResult);
    raceCheckAction_->setEnabled(hasImage && !seeds_.isEmpty() && !raceChecking_);
    progress_->setVisible(running_ || raceChecking_);
}

// ---- images, samples, sessions ------------------------------------------

bool MainWindow::openImage(const QString& path)
{
    QImage image;
    std::shared_ptr<LumaImage> luma;
    try {
        image = readImageFile(path);
        luma = std::make_shared<LumaImage>(lumaFromImage(image));
    } catch (const std::exception& error) {
        notice(QStringLiteral("Open image"), QString::fromUtf8(error.what()));
        return false;
    }
    closeImage();
    imagePath_ = path.startsWith(QLatin1Char(':')) ? path : QFileInfo(path).absoluteFilePath();
    sessionPath_.clear();
    luma_ = luma;
    // Grey images stay one byte a pixel; the corruption view darkens as it draws.
    displayImage_ = image.convertToFormat(image.isGrayscale() ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
    shrunkImage_ = QImage();
    if (renderedInView()) {
        basePixmap_ = QPixmap();
        currentPicture_ = QPixmap();
        showInView(nullptr, OverlayStyle(), ViewLayers(), true);
    } else {
        basePixmap_ = QPixmap::fromImage(displayImage_);
        currentPicture_ = basePixmap_;
        view_->setPicture(basePixmap_, true);
    }
    view_->setSeeds({});
    seedModel_->setImage(luma_);
    setWindowTitle(QStringLiteral("%1 - RGX").arg(QFileInfo(path).fileName()));
    log_->info(QStringLiteral("Opened %1: %2").arg(path, describeImage(*luma_)));
    if (!path.startsWith(QLatin1Char(':')))
        addRecentFile(imagePath_);
    updateActions();
    return true;
}

void MainWindow::closeImage()
{
    // Results of the old image are dropped; a run still going is stopped and
    // its answer ignored.
    if (running_)
        engine_.cancel();
    running_ = false;
    pendingRun_ = false;
    activeRunId_ = 0;
    autoRunTimer_.stop();
    luma_.reset();
    result_.reset();
    reference_.reset();
    diff_.reset();
    referencePending_ = false;
    frameCache_.clear();
    filteredImage_ = QImage();
    playback_->setFilteredAvailable(false);
    beforePostfilter_.reset();
    playback_->setBeforePostfilterAvailable(false);
    undo_.clear();
    seeds_.replaceAll({});
    seedModel_->setResult(nullptr, {});
    playback_->clearFrames();
    timing_->clearCurrentRun();
    runStatus_->setText(QStringLiteral("Ready"));
    updateDiffLabel();
}

bool MainWindow::openSample(const QString& name)
{
    const Sample sample = findSample(name);
    if (sample.name.isEmpty()) {
        notice(QStringLiteral("Open sample"), QStringLiteral("No bundled sample named \"%1\".").arg(name));
        return false;
    }
    if (!openImage(sample.imagePath))
        return false;
    if (sample.seedsPath.isEmpty()) {
        log_->warning(QStringLiteral("Sample %1 has no seed file: click on the image to add seeds.").arg(sample.title));
        return true;
    }
    try {
        std::vector<Seed> seeds = readSeedsFile(sample.seedsPath);
        validateSeeds(seeds, luma_->width, luma_->height);
        applySuggestedParameters(sample.seedsPath);
        seeds_.replaceAll(seeds); // part of opening the sample, not an edit to undo
    } catch (const std::exception& error) {
        notice(QStringLiteral("Open sample"), QString::fromUtf8(error.what()));
        return true;
    }
    log_->info(QStringLiteral("Seeds of the sample: %1 from %2").arg(seeds_.size()).arg(sample.seedsPath));
    // One click shows a result.
    runNow();
    return true;
}

bool MainWindow::openFile(const QString& path)
{
    if (isSessionFile(path))
        return openSession(path);
    if (isSeedsFile(path))
        return importSeeds(path);
    return openImage(path);
}

// A seeds file may name the growing parameters its seeds were placed for
// ("# parameters: ..."): they replace the panel's growing parameters, and
// the log says so. Throws InputError for a line that cannot be read.
void MainWindow::applySuggestedParameters(const QString& seedsPath)
{
    PipelineParams params = parameters_->params();
    const std::optional<GrowParams> suggested = readSuggestedParameters(seedsPath, params.grow);
    if (!suggested)
        return;
    params.grow = *suggested;
    parameters_->setParams(params);
    QString what = QStringLiteral("mode %1").arg(text(modeName(params.grow.mode)));
    if (params.grow.mode == Mode::Adaptive)
        what += QStringLiteral(", tolerance %1").arg(params.grow.tolerance);
    if (params.grow.mode == Mode::Range)
        what += QStringLiteral(", range -%1/+%2").arg(params.grow.lower).arg(params.grow.upper);
    log_->info(QStringLiteral("Parameters suggested by %1: %2").arg(QFileInfo(seedsPath).fileName(), what));
}

bool MainWindow::importSeeds(const QString& path)
{
    if (!luma_) {
        notice(QStringLiteral("Import seeds"), QStringLiteral("Open an image before importing seeds."));
        return false;
    }
    std::vector<Seed> seeds;
    try {
        seeds = readSeedsFile(path);
        validateSeeds(seeds, luma_->width, luma_->height);
        applySuggestedParameters(path);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Import seeds"), QString::fromUtf8(error.what()));
        return false;
    }
    undo_.push(new ReplaceSeedsCommand(&seeds_, seeds, QStringLiteral("import seeds from %1").arg(QFileInfo(path).fileName())));
    log_->info(QStringLiteral("Imported %1 seeds from %2").arg(seeds.size()).arg(path));
    return true;
}

bool MainWindow::exportSeeds(const QString& path)
{
    try {
        saveFileAtomically(path, QByteArray::fromStdString(formatSeedsText(seeds_.seeds())));
    } catch (const std::exception& error) {
        notice(QStringLiteral("Export seeds"), QString::fromUtf8(error.what()));
        return false;
    }
    log_->info(QStringLiteral("Wrote %1 seeds to %2").arg(seeds_.size()).arg(path));
    return true;
}

bool MainWindow::openSession(const QString& path)
{
    Session session;
    GrowVariant variant;
    try {
        session = readSessionFile(path);
        variant = parseVariant(session.variant);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Open session"), QString::fromUtf8(error.what()));
        return false;
    }
    if (!openImage(session.imagePath))
        return false;
    try {
        validateSeeds(session.seeds, luma_->width, luma_->height);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Open session"), QStringLiteral("session %1: %2").arg(path, QString::fromUtf8(error.what())));
        return false;
    }
    const bool autoRun = session.autoRun;
    parameters_->setAutoRun(false); // not triggered by the session's own seeds
    parameters_->setParams(session.params);
    parameters_->setTimeoutSeconds(session.timeoutSeconds);
    seeds_.replaceAll(session.seeds);
    parameters_->setAutoRun(autoRun);
    devicePanel_->setVariant(variant);
    if (!session.deviceId.empty()) {
        if (devicesReady_) {
            bool found = false;
            for (const DeviceInfo& device : devicePanel_->devices())
                found = found || (device.id() == session.deviceId);
            if (found)
                devicePanel_->selectDevice(session.deviceId);
            else
                log_->warning(QStringLiteral("The session's device %1 (%2) is not here; using %3.")
                                  .arg(text(session.deviceId), text(session.deviceName), text(devicePanel_->currentDeviceId())));
        } else {
            pendingDeviceId_ = session.deviceId;
            pendingDeviceName_ = session.deviceName;
        }
    }
    sessionPath_ = QFileInfo(path).absoluteFilePath();
    addRecentFile(sessionPath_);
    setWindowTitle(QStringLiteral("%1 - RGX").arg(QFileInfo(path).fileName()));
    log_->info(QStringLiteral("Opened session %1").arg(path));
    return true;
}

bool MainWindow::saveSession(const QString& path)
{
    if (!luma_) {
        notice(QStringLiteral("Save session"), QStringLiteral("Open an image first: a session records an image and its seeds."));
        return false;
    }
    Session session;
    session.imagePath = imagePath_;
    session.seeds = seeds_.seeds();
    session.params = parameters_->params();
    session.timeoutSeconds = parameters_->timeoutSeconds();
    session.autoRun = parameters_->autoRun();
    session.deviceId = devicePanel_->currentDeviceId();
    if (const DeviceInfo* device = devicePanel_->currentDevice())
        session.deviceName = device->name;
    session.variant = devicePanel_->variant().text();
    try {
        saveFileAtomically(path, sessionToJson(session, QFileInfo(path).absolutePath()));
    } catch (const std::exception& error) {
        notice(QStringLiteral("Save session"), QString::fromUtf8(error.what()));
        return false;
    }
    sessionPath_ = QFileInfo(path).absoluteFilePath();
    addRecentFile(sessionPath_);
    log_->info(QStringLiteral("Saved session %1").arg(path));
    return true;
}

// ---- exports --------------------------------------------------------------

bool MainWindow::exportLabels(const QString& path)
{
    if (!result_) {
        notice(QStringLiteral("Export"), QStringLiteral("Nothing to export yet: run the pipeline first."));
        return false;
    }
    try {
        writeLabels(path, *result_);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Export label mask"), QString::fromUtf8(error.what()));
        return false;
    }
    log_->info(QStringLiteral("Wrote the label mask to %1").arg(path));
    return true;
}

bool MainWindow::exportStamps(const QString& path)
{
    if (!result_) {
        notice(QStringLiteral("Export"), QStringLiteral("Nothing to export yet: run the pipeline first."));
        return false;
    }
    try {
        writeStampsNpy(path, *result_);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Export stamps"), QString::fromUtf8(error.what()));
        return false;
    }
    log_->info(QStringLiteral("Wrote the stamps to %1").arg(path));
    return true;
}

bool MainWindow::exportOverlay(const QString& path)
{
    if (!result_) {
        notice(QStringLiteral("Export"), QStringLiteral("Nothing to export yet: run the pipeline first."));
        return false;
    }
    try {
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        const QImage picture = currentPicture_.isNull() ? framePicture(playback_->frame()) : currentPicture_.toImage();
        if (!picture.save(&buffer, "PNG"))
            throw InputError("overlay " + path.toStdString() + ": the picture could not be encoded as PNG");
        saveFileAtomically(path, bytes);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Export overlay"), QString::fromUtf8(error.what()));
        return false;
    }
    log_->info(QStringLiteral("Wrote the overlay (iteration %1) to %2").arg(playback_->frame()).arg(path));
    return true;
}

bool MainWindow::exportChart(const QString& path, QSize size)
{
    if (timing_->shownRuns().empty()) {
        notice(QStringLiteral("Export chart"), QStringLiteral("No timings yet: run the pipeline first."));
        return false;
    }
    try {
        timing_->exportChart(path, size);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Export chart"), QString::fromUtf8(error.what()));
        return false;
    }
    log_->info(QStringLiteral("Wrote the chart (%1 x %2) to %3").arg(size.width()).arg(size.height()).arg(path));
    return true;
}

bool MainWindow::exportTimings(const QString& path)
{
    if (!result_) {
        notice(QStringLiteral("Export"), QStringLiteral("Nothing to export yet: run the pipeline first."));
        return false;
    }
    try {
        writeTimings(path, *result_);
    } catch (const std::exception& error) {
        notice(QStringLiteral("Export timings"), QString::fromUtf8(error.what()));
        return false;
    }
    log_->info(QStringLiteral("Wrote %1 timing records to %2").arg(result_->timings.size()).arg(path));
    return true;
}

// ---- runs -----------------------------------------------------------------

QString MainWindow::runLabel(const RunRequest& request) const
{
    QString variant = text(request.variant.shortText());
    if (request.variant.wrongOnPurpose())
        variant += QStringLiteral(" (wrong on purpose)");
    QString device = text(request.deviceId);
    for (const DeviceInfo& info : devicePanel_->devices())
        if (info.id() == request.deviceId)
            device = text(info.name).section(QLatin1Char(' '), 0, 1);
    return QStringLiteral("%1 on %2").arg(variant, device);
}

void MainWindow::runNow()
{
    autoRunTimer_.stop();
    if (!luma_) {
        notice(QStringLiteral("Run"), QStringLiteral("Open an image first (File > Open Image or Open Sample)."));
        return;
    }
    if (seeds_.isEmpty()) {
        notice(QStringLiteral("Run"), QStringLiteral("Add at least one seed: click on the image."));
        return;
    }
    if (!devicesReady_) {
        // Runs as soon as the device list arrives.
        pendingRun_ = true;
        runStatus_->setText(QStringLiteral("Waiting for the device list..."));
        return;
    }
    RunRequest request;
    request.id = ++nextRunId_;
    request.image = luma_;
    request.seeds = dragSeeds_ ? *dragSeeds_ : seeds_.seeds();
    request.params = parameters_->params();
    request.deviceId = devicePanel_->currentDeviceId();
    request.variant = devicePanel_->variant();
    request.timeoutSeconds = parameters_->timeoutSeconds();
    request.withReference = corruptionAction_->isChecked();
    activeRunId_ = request.id;
    running_ = true;
    requestClock_.start();
    engine_.submit(request);
    log_->info(QStringLiteral("Run #%1: %2, %3 seeds, %4").arg(request.id).arg(runLabel(request)).arg(request.seeds.size())
                   .arg(text(request.variant.text())));
    runStatus_->setText(QStringLiteral("Starting run #%1...").arg(request.id));
    saveSettings();
    updateActions();
}

void MainWindow::cancelRun()
{
    autoRunTimer_.stop();
    pendingRun_ = false;
    if (!running_)
        return;
    engine_.cancel();
    runStatus_->setText(QStringLiteral("Cancelling run #%1...").arg(activeRunId_));
}

void MainWindow::onRunFinished(const RunOutcome& outcome)
{
    if (outcome.request.id != activeRunId_ || !running_)
        return; // superseded by a newer request, or the image changed
    running_ = false;
    result_ = outcome.result;
    resultRequest_ = outcome.request;
    reference_ = outcome.reference;
    diff_ = outcome.diff;
    referencePending_ = false;
    ++resultSerial_;
    frameCache_.clear();
    filteredImage_ = QImage();
    playback_->setFilteredAvailable(!result_->filteredLuma.empty());
    beforePostfilter_.reset();
    if (!result_->labelsBeforePostfilter.empty()) {
        auto before = std::make_shared<GrowResult>(*result_);
        before->labels = result_->labelsBeforePostfilter;
        before->stamps = result_->stampsBeforePostfilter;
        beforePostfilter_ = std::move(before);
    }
    playback_->setBeforePostfilterAvailable(beforePostfilter_ != nullptr);
    seedModel_->setResult(result_, outcome.request.seeds);
    timing_->setCurrentRun(RunEntry{int(outcome.request.id), runLabel(outcome.request), result_});
    playback_->setFrameCount(result_->iterations);

    const TimelineSummary summary = summarizeTimeline(result_->timings);
    int regionsGrown = 0;
    for (const RegionStats& region : result_->regions)
        regionsGrown += region.count > 1 ? 1 : 0;
    const QString line = QStringLiteral("Run #%1 done: %2 iterations, %3 of %4 regions grew; device busy %5, span %6, host %7")
                             .arg(outcome.request.id)
                             .arg(result_->iterations)
                             .arg(regionsGrown)
                             .arg(result_->regions.size())
                             .arg(formatDuration(double(summary.busyNs)), formatDuration(double(summary.spanNs)),
                                  formatDuration(result_->hostMilliseconds * 1e6));
    log_->info(line);
    if (!result_->note.empty())
        log_->warning(QStringLiteral("Run #%1: %2").arg(outcome.request.id).arg(text(result_->note)));
    for (const KernelReport& kernel : result_->kernels)
        if (kernel.registers >= 0)
            log_->info(QStringLiteral("  %1: %2 registers, %3 spill stores, %4 spill loads")
                           .arg(text(kernel.kernel)).arg(kernel.registers).arg(kernel.spillStores).arg(kernel.spillLoads));
    if (diff_)
        log_->info(QStringLiteral("verify: %1 pixels differ").arg(diff_->differingPixels));
    if (result_->stoppedAtCap)
        notice(QStringLiteral("Iteration cap"),
               QStringLiteral("Run #%1 stopped at the iteration cap (%2 iterations); the regions may not be complete.")
                   .arg(outcome.request.id)
                   .arg(result_->iterations));
    requestReferenceIfNeeded();
    updateDiffLabel();
    refreshPicture();
    // Request to overlay drawn: what an edit costs the user.
    const double latencyMs = double(requestClock_.nsecsElapsed()) / 1e6;
    runStatus_->setText(QStringLiteral("Run #%1: %2 iterations, %3; request to overlay %4")
                            .arg(outcome.request.id).arg(result_->iterations)
                            .arg(formatDuration(result_->hostMilliseconds * 1e6), formatDuration(latencyMs * 1e6)));
    if (!liveChoice_ && parameters_->autoRun() != (latencyMs < liveLimitMs)) {
        parameters_->setAutoRun(latencyMs < liveLimitMs);
        log_->info(latencyMs < liveLimitMs
                       ? QStringLiteral("Live segmentation on: this image runs in %1, so every edit runs at once "
                                        "(Run > Live to choose)").arg(formatDuration(latencyMs * 1e6))
                       : QStringLiteral("Live segmentation off: this image took %1 (Run > Live to choose)")
                             .arg(formatDuration(latencyMs * 1e6)));
    }
    updateActions();
    emit runFinished(outcome.request.id);
    if (dragRunPending_) {
        dragRunPending_ = false;
        runNow();
    }
}

void MainWindow::setLiveChoice(bool on)
{
    liveChoice_ = on;
}

// A seed dragged in live mode runs while it moves. A run in flight is left
// to finish (cancelling it at every mouse move would never show anything);
// the next starts with the latest position when it ends.
void MainWindow::onSeedDragged(int index, QPoint pixel)
{
    if (!parameters_->autoRun() || !luma_ || index < 0 || index >= seeds_.size())
        return;
    const int other = seeds_.indexOf(pixel.x(), pixel.y());
    if (other >= 0 && other != index)
        return;
    std::vector<Seed> seeds = seeds_.seeds();
    seeds[size_t(index)] = Seed{pixel.x(), pixel.y()};
    dragSeeds_ = std::move(seeds);
    dragRan_ = true;
    if (running_)
        dragRunPending_ = true;
    else
        runNow();
}

void MainWindow::onSeedDragFinished()
{
    dragSeeds_.reset();
    dragRunPending_ = false;
    // A drag that ran and came back to where it started moved nothing: the
    // picture shows the last position, so run the real seeds once more.
    if (std::exchange(dragRan_, false) && parameters_->autoRun())
        autoRunTimer_.start(0);
}

void MainWindow::onRunFailed(const RunFailure& failure)
{
    if (failure.id != activeRunId_)
        return;
    if (!running_) {
        // The CPU reference of a finished run failed.
        referencePending_ = false;
        notice(QStringLiteral("CPU reference"), failure.message);
        updateDiffLabel();
        return;
    }
    running_ = false;
    updateActions();
    if (dragRunPending_) {
        dragRunPending_ = false;
        runNow();
    }
    if (failure.kind == FailureKind::Cancelled) {
        log_->warning(QStringLiteral("Run #%1 cancelled: %2").arg(failure.id).arg(failure.message));
        runStatus_->setText(QStringLiteral("Run #%1 cancelled").arg(failure.id));
    } else {
        const QString message = QStringLiteral("Run #%1 failed (%2): %3").arg(failure.id).arg(failureKindName(failure.kind), failure.message);
        runStatus_->setText(QStringLiteral("Run #%1 failed").arg(failure.id));
        notice(failure.kind == FailureKind::TimedOut ? QStringLiteral("Run timed out") : QStringLiteral("Run failed"),
               message, failure.buildLog);
    }
    emit runFailed(failure.message);
}

void MainWindow::keepRun()
{
    if (timing_->keepCurrentRun())
        log_->info(QStringLiteral("Kept run #%1 for comparison").arg(resultRequest_.id));
}

QString MainWindow::cliPath() const
{
    if (!options_.cliPath.isEmpty())
        return options_.cliPath;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/rgx-cli");
}

void MainWindow::checkRaces()
{
    if (raceChecking_)
        return;
    if (!luma_ || seeds_.isEmpty()) {
        notice(QStringLiteral("Check for races"), QStringLiteral("Open an image and add at least one seed first."));
        return;
    }
    const QString cli = cliPath();
    if (!QFileInfo(cli).isExecutable()) {
        notice(QStringLiteral("Check for races"),
               QStringLiteral("The race check runs rgx-cli under Oclgrind, but there is no rgx-cli at %1. "
                              "Build the rgx-cli target; it must sit beside rgx.")
                   .arg(cli));
        return;
    }
    RaceCheckRequest request;
    request.id = ++nextRaceCheckId_;
    request.image = luma_;
    request.seeds = seeds_.seeds();
    request.segmentOptions = segmentOptionsFor(parameters_->params(), devicePanel_->variant());
    request.variantText = text(devicePanel_->variant().text());
    request.cliPath = cli;
    raceChecking_ = true;
    engine_.checkRaces(request);
    log_->info(QStringLiteral("Race check #%1: %2 under Oclgrind (this can take a minute)...")
                   .arg(request.id)
                   .arg(request.variantText));
    devicePanel_->setRaceCheckStatus(QStringLiteral("Checking %1 under Oclgrind...").arg(request.variantText));
    if (!running_)
        runStatus_->setText(QStringLiteral("Race check queued..."));
    updateActions();
}

void MainWindow::onRaceCheckFinished(const RaceCheckOutcome& outcome)
{
    raceChecking_ = false;
    updateActions();
    if (!running_)
        runStatus_->setText(QStringLiteral("Ready"));
    if (!outcome.error.isEmpty()) {
        lastRaceReport_ = QStringLiteral("race check failed: %1").arg(outcome.error);
        devicePanel_->setRaceCheckStatus(QStringLiteral("The last check could not run (see the log)."));
        notice(QStringLiteral("Check for races"), QStringLiteral("Race check #%1 could not run: %2").arg(outcome.id).arg(outcome.error));
        emit raceCheckFinished(lastRaceReport_);
        return;
    }
    const QString part = QStringLiteral("the %1 x %2 part at (%3, %4), %5 seed(s) inside")
                             .arg(outcome.width)
                             .arg(outcome.height)
                             .arg(outcome.left)
                             .arg(outcome.top)
                             .arg(outcome.seedCount);
    QStringList lines;
    for (const RaceReport& race : outcome.races)
        lines << QStringLiteral("race: %1 %2 %3").arg(text(race.kernel), text(race.location), text(race.kind));
    if (lines.isEmpty())
        lines << QStringLiteral("races: none");
    lastRaceReport_ = lines.join(QLatin1Char('\n'));
    const QString heading = QStringLiteral("Race check #%1 of %2 on %3 (%4 s):")
                                .arg(outcome.id)
                                .arg(outcome.variantText, part)
                                .arg(outcome.seconds, 0, 'f', 1);
    log_->info(heading);
    for (const QString& line : std::as_const(lines)) {
        if (outcome.races.empty())
            log_->info(QStringLiteral("  ") + line);
        else
            log_->warning(QStringLiteral("  ") + line);
    }
    const QString summary = outcome.races.empty()
                                ? QStringLiteral("races: none")
                                : QStringLiteral("%1 race(s) found").arg(outcome.races.size());
    devicePanel_->setRaceCheckStatus(QStringLiteral("%1 (%2, checked on %3)").arg(summary, outcome.variantText, part));
    showNoticeBox(QStringLiteral("Race check"),
                  QStringLiteral("%1\n\n%2").arg(heading, lastRaceReport_),
                  QString(), outcome.races.empty() ? QMessageBox::Information : QMessageBox::Warning);
    emit raceCheckFinished(lastRaceReport_);
}

void MainWindow::setCorruptionView(bool on)
{
    if (corruptionAction_->isChecked() != on) {
        corruptionAction_->setChecked(on); // comes back here through toggled
        return;
    }
    requestReferenceIfNeeded();
    updateDiffLabel();
    refreshPicture();
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

void MainWindow::requestReferenceIfNeeded()
{
    if (!corruptionAction_->isChecked() || !result_ || diff_ || referencePending_)
        return;
    referencePending_ = true;
    engine_.requestReference(resultRequest_, result_);
}

void MainWindow::updateDiffLabel()
{
    QString label;
    if (!corruptionAction_->isChecked())
        label = QStringLiteral("Corruption view off (Ctrl+D shows the pixels that differ from the CPU reference).");
    else if (!result_)
        label = QStringLiteral("Run the pipeline to compare it with the CPU reference.");
    else if (!diff_)
        label = QStringLiteral("Computing the CPU reference...");
    else if (diff_->differingPixels == 0)
        label = QStringLiteral("Identical to the CPU reference: no pixel differs.");
    else {
        const double share = 100.0 * double(diff_->differingPixels) / double(std::max<size_t>(1, diff_->mask.size()));
        label = QStringLiteral("%1 pixels differ from the CPU reference (%2 % of the image); first at iteration %3.")
                    .arg(formatCount(diff_->differingPixels))
                    .arg(share, 0, 'f', share < 0.01 ? 4 : 2)
                    .arg(diff_->firstDifferingIteration);
    }
    playback_->setDiffText(label);
    if (corruptionAction_->isChecked() && diff_)
        statusBar()->showMessage(label, 10000);
}

// ---- pictures -------------------------------------------------------------

// What the display settings show of frame `frame`: the result drawn over
// (the filtered) image, or under the corruption view the regions over the
// darkened image with the differences on top.
MainWindow::Frame MainWindow::frameLayers(uint32_t frame)
{
    Frame shown;
    shown.style = overlayStyle(frame);
    if (!result_ || (!playback_->overlayShown() && !corruptionAction_->isChecked())) {
        shown.layers.regions = false;
        shown.result = result_;
        return shown;
    }
    if (corruptionAction_->isChecked()) {
        shown.result = result_;
        shown.layers.baseDivisor = 3;
        if (diff_) {
            shown.differences = diff_;
            shown.layers.differences = &diff_->mask;
            shown.reference = reference_;
            shown.layers.referenceStamps = reference_ ? &reference_->stamps : nullptr;
            shown.layers.allDifferences = frame >= playback_->lastFrame();
        }
        return shown;
    }
    shown.result = playback_->showBeforePostfilter() && beforePostfilter_ ? beforePostfilter_ : result_;
    return shown;
}

QImage MainWindow::framePicture(uint32_t frame)
{
    const Frame shown = frameLayers(frame);
    const QImage& base = shown.layers.baseDivisor > 1 ? displayImage_ : baseImage();
    QImage picture(base.size(), QImage::Format_RGB32);
    renderOverlayView(base, shown.result.get(), shown.style, shown.layers, QRectF(QPointF(0, 0), QSizeF(base.size())),
                      picture);
    return picture;
}

QImage MainWindow::currentPicture()
{
    return currentPicture_.isNull() && luma_ ? framePicture(playback_->frame()) : currentPicture_.toImage();
}

bool MainWindow::renderedInView() const
{
    return luma_ && luma_->pixelCount() > renderedInViewAbove;
}

// Above renderedInViewAbove pixels the view renders what it shows itself:
// the frame's layers, kept alive by the renderer, drawn at screen size.
void MainWindow::showInView(GrowResultPtr result, const OverlayStyle& style, ViewLayers layers, bool newImage,
                            std::shared_ptr<const void> keepAlive)
{
    const QImage base = layers.baseDivisor > 1 ? displayImage_ : baseImage();
    auto renderer = [base, result, style, layers, keepAlive](const QRectF& source, QImage& out) {
        renderOverlayView(base, result.get(), style, layers, source, out);
    };
    view_->setRenderedPicture(base.size(), renderer, ++renderSerial_, newImage);
}

OverlayStyle MainWindow::overlayStyle(uint32_t frame) const
{
    OverlayStyle style;
    style.opacity = playback_->opacity();
    style.outlines = playback_->outlines();
    style.frontier = playback_->frontier();
    style.frame = frame;
    return style;
}

const QImage& MainWindow::baseImage()
{
    if (!playback_->showFiltered() || !result_ || result_->filteredLuma.size() != size_t(displayImage_.width()) * size_t(displayImage_.height()))
        return displayImage_;
    if (filteredImage_.isNull()) {
        // 16-bit luma is shown by its high byte, as lumaToQImage does.
        QImage grey(displayImage_.width(), displayImage_.height(), QImage::Format_Grayscale8);
        const int shift = luma_->bitDepth > 8 ? 8 : 0;
        for (int y = 0; y < grey.height(); ++y) {
            uchar* line = grey.scanLine(y);
            for (int x = 0; x < grey.width(); ++x)
                line[x] = uchar(result_->filteredLuma[size_t(y) * size_t(grey.width()) + size_t(x)] >> shift);
        }
        filteredImage_ = grey;
    }
    return filteredImage_;
}

void MainWindow::refreshPicture()
{
    if (!luma_) {
        view_->clear();
        return;
    }
    const uint32_t frame = playback_->frame();
    if (renderedInView()) {
        const Frame shown = frameLayers(frame);
        auto keep = std::make_shared<std::pair<std::shared_ptr<const ResultDiff>, GrowResultPtr>>(shown.differences,
                                                                                                  shown.reference);
        showInView(shown.result, shown.style, shown.layers, false, keep);
        return;
    }
    const bool corruption = corruptionAction_->isChecked();
    QPixmap picture;
    if (!result_ || (!playback_->overlayShown() && !corruption)) {
        picture = playback_->showFiltered() && result_ ? QPixmap::fromImage(baseImage()) : basePixmap_;
    } else {
        const QString key = QStringLiteral("%1/%2/%3/%4/%5/%6/%7")
                                .arg(resultSerial_)
                                .arg(frame)
                                .arg(corruption ? (diff_ ? 2 : 1) : 0)
                                .arg(playback_->opacity())
                                .arg(playback_->outlines())
                                .arg(playback_->frontier())
                                .arg(frame >= playback_->lastFrame())
                                + (playback_->showFiltered() ? QStringLiteral("/filtered") : QString())
                                + (playback_->showBeforePostfilter() ? QStringLiteral("/before") : QString());
        if (QPixmap* cached = frameCache_.object(key)) {
            picture = *cached;
        } else {
            picture = QPixmap::fromImage(framePicture(frame));
            frameCache_.insert(key, new QPixmap(picture), std::max<qsizetype>(1, qsizetype(picture.width()) * picture.height() * 4 / 1024));
        }
    }
    currentPicture_ = picture;
    view_->setPicture(picture, false);
}

void MainWindow::updatePixelInfo(QPoint pixel, bool inside)
{
    if (!inside || !luma_ || !luma_->width) {
        pixelInfo_->clear();
        return;
    }
    QString info = QStringLiteral("x %1  y %2  luma %3").arg(pixel.x()).arg(pixel.y()).arg(luma_->at(pixel.x(), pixel.y()));
    if (result_ && result_->width == luma_->width) {
        const size_t p = size_t(pixel.y()) * size_t(luma_->width) + size_t(pixel.x());
        const uint32_t stamp = result_->stamps[p];
        if (result_->filteredLuma.size() == result_->labels.size())
            info += QStringLiteral(" (filtered %1)").arg(result_->filteredLuma[p]);
        info += QStringLiteral("  label %1  stamp %2")
                    .arg(result_->labels[p])
                    .arg(stamp == unclassifiedStamp ? QStringLiteral("-") : QString::number(stamp));
    }
    pixelInfo_->setText(info);
}

// ---- seed edits -----------------------------------------------------------

void MainWindow::onSeedAdd(QPoint pixel)
{
    if (!luma_ || pixel.x() < 0 || pixel.y() < 0 || pixel.x() >= luma_->width || pixel.y() >= luma_->height)
        return;
    if (seeds_.indexOf(pixel.x(), pixel.y()) >= 0)
        return;
    if (seeds_.size() >= maxSeeds) {
        notice(QStringLiteral("Seeds"), QStringLiteral("At most %1 seeds: one region per seed, labels are 16-bit.").arg(maxSeeds));
        return;
    }
    undo_.push(new AddSeedCommand(&seeds_, Seed{pixel.x(), pixel.y()}));
    view_->setSelectedSeed(seeds_.size() - 1);
}

void MainWindow::onSeedMove(int index, QPoint from, QPoint to)
{
    if (!luma_ || index < 0 || index >= seeds_.size())
        return;
    const bool inside = to.x() >= 0 && to.y() >= 0 && to.x() < luma_->width && to.y() < luma_->height;
    const int other = seeds_.indexOf(to.x(), to.y());
    if (!inside || (other >= 0 && other != index)) {
        statusBar()->showMessage(inside ? QStringLiteral("Seed %1 is already on (%2, %3).").arg(other + 1).arg(to.x()).arg(to.y())
                                        : QStringLiteral("Seeds must stay inside the image."),
                                 5000);
        view_->setSeeds(seeds_.seeds()); // the marker goes back
        seedModel_->setImage(luma_);     // and the table forgets the typed value
        return;
    }
    undo_.push(new MoveSeedCommand(&seeds_, index, Seed{from.x(), from.y()}, Seed{to.x(), to.y()}));
}

void MainWindow::onSeedRemove(int index)
{
    if (index < 0 || index >= seeds_.size())
        return;
    undo_.push(new RemoveSeedCommand(&seeds_, index));
}

void MainWindow::removeSelectedSeed()
{
    int index = view_->selectedSeed();
    if (index < 0 && seedTable_->currentIndex().isValid())
        index = seedTable_->currentIndex().row();
    if (index < 0) {
        statusBar()->showMessage(QStringLiteral("Select a seed first (click it, or its row in the table)."), 4000);
        return;
    }
    onSeedRemove(index);
}

// ---- dialogs --------------------------------------------------------------

QString MainWindow::dialogDirectory(const char* key) const
{
    return QSettings().value(QStringLiteral("directories/") + QLatin1String(key)).toString();
}

void MainWindow::rememberDirectory(const char* key, const QString& file) const
{
    QSettings().setValue(QStringLiteral("directories/") + QLatin1String(key), QFileInfo(file).absolutePath());
}

void MainWindow::chooseOpenImage()
{
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open image"), dialogDirectory("open"),
        QStringLiteral("Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.pgm *.ppm);;Sessions (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory("open", path);
    openFile(path);
}

void MainWindow::chooseImportSeeds()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Import seeds"), dialogDirectory("seeds"),
                                                      QStringLiteral("Seed files (*.seeds *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory("seeds", path);
    importSeeds(path);
}

void MainWindow::chooseExportSeeds()
{
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export seeds"), dialogDirectory("seeds"),
                                                      QStringLiteral("Seed files (*.seeds *.txt)"));
    if (path.isEmpty())
        return;
    rememberDirectory("seeds", path);
    exportSeeds(path);
}

void MainWindow::chooseOpenSession()
{
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open session"), dialogDirectory("session"),
                                                      QStringLiteral("RGX sessions (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory("session", path);
    openSession(path);
}

void MainWindow::chooseSaveSession(bool askForName)
{
    QString path = sessionPath_;
    if (askForName || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, QStringLiteral("Save session"), dialogDirectory("session"),
                                            QStringLiteral("RGX sessions (*.json)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".json");
        rememberDirectory("session", path);
    }
    saveSession(path);
}

void MainWindow::chooseExport(const QString& what)
{
    const QString suffix = what.section(QLatin1Char('-'), 1);
    const QString kind = what.section(QLatin1Char('-'), 0, 0);
    const QString base = QFileInfo(imagePath_).completeBaseName();
    const QString suggested = QDir(dialogDirectory("export")).filePath(QStringLiteral("%1-%2.%3").arg(base, kind, suffix));
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export %1").arg(kind), suggested,
                                                QStringLiteral("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
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

void MainWindow::chooseExportChart()
{
    QSettings settings;
    const QSize lastSize = settings.value(QStringLiteral("chart/size"), QSize(1600, 900)).toSize();
    ChartExportDialog dialog(this, int(timing_->currentChart()), lastSize);
    if (dialog.exec() != QDialog::Accepted)
        return;
    settings.setValue(QStringLiteral("chart/size"), dialog.size());
    timing_->showChart(TimingPanel::Chart(dialog.chart()));
    const QString suggested = QDir(dialogDirectory("export")).filePath(QStringLiteral("timings.png"));
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export chart"), suggested,
                                                QStringLiteral("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    rememberDirectory("export", path);
    exportChart(path, dialog.size());
}

// ---- recent files, drag and drop, settings -----------------------------------

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
}

void MainWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction* action = recentMenu_->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()),
                                                 this, [this, path] { openFile(path); });
        action->setToolTip(path);
        action->setEnabled(QFileInfo::exists(path));
    }
    if (files.isEmpty())
        recentMenu_->addAction(QStringLiteral("(none)"))->setEnabled(false);
    recentMenu_->addSeparator();
    recentMenu_->addAction(QStringLiteral("Clear List"), this, [] { QSettings().remove(QStringLiteral("recentFiles")); });
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
    QTimer::singleShot(0, this, [this, path] { openFile(path); });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    engine_.cancel();
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
    settings.setValue(QStringLiteral("display/opacity"), playback_->opacity());
    settings.setValue(QStringLiteral("display/outlines"), playback_->outlines());
    settings.setValue(QStringLiteral("display/frontier"), playback_->frontier());
    settings.setValue(QStringLiteral("playback/speed"), playback_->speed());
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
            devicePanel_->setVariant(variant.correctTwin());
            if (variant.wrongOnPurpose())
                log_->warning(QStringLiteral("The last session used %1, which is wrong on purpose; starting from "
                                             "its correct twin %2 (choose it again in the variant panel).")
                                  .arg(text(variant.text()), text(variant.correctTwin().text())));
        } catch (const std::exception& error) {
            // Settings from another version: start from the defaults.
            log_->warning(QStringLiteral("Ignored the saved choices: %1").arg(QString::fromUtf8(error.what())));
        }
    }
    playback_->setOpacity(settings.value(QStringLiteral("display/opacity"), 0.5).toDouble());
    playback_->setOutlines(settings.value(QStringLiteral("display/outlines"), true).toBool());
    playback_->setFrontier(settings.value(QStringLiteral("display/frontier"), true).toBool());
    // The corruption view is not restored: a correct run under it shows no
    // differences, which looks like nothing happened. --show-differences asks for it.
    playback_->setSpeed(settings.value(QStringLiteral("playback/speed"), 15).toInt());
}

} // namespace rgx::ui
