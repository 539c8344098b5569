// Tests of FileActions on its own: a document, bare panels and a view state,
// files in a temporary folder (no engine, no main window).
#include "DevicePanel.h"
#include "Document.h"
#include "FileActions.h"
#include "GuiTestSupport.h"
#include "ImageView.h"
#include "LogPanel.h"
#include "Notices.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "TimingPanel.h"
#include "ViewState.h"
#include "io/Export.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <memory>

using namespace rgx;
using namespace rgx::ui;
using namespace rgx::ui::testing;

class FileActionsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void openingAnImageReplacesTheDocument();
    void anUnreadableImageChangesNothing();
    void aSampleOpensWithItsSeedsAndAsksForARun();
    void importedSeedsAreOneUndoStepAndMayBringParameters();
    void aSavedSessionReopensExactly();
    void aSessionWithoutSeedsReopens();
    void aBadParameterGetsTheCommandLinesMessageEverywhere();
    void exportedSeedsCarryTheirParameters();
    void exportsNeedAResult();
    void exportsWriteTheResult();
    void aFailedExportLeavesNoFile();
    void recentFilesListTheLastOpenedFirst();
    void recentFilesListEachFileOnceAndNoSettingsWritesNothing();
    void openFileChoosesByTheSuffix();

private:
    QString writeImage(const char* name, int width = 40, int height = 20);
    QString path(const char* name) const { return folder_->filePath(QLatin1String(name)); }

    std::unique_ptr<QTemporaryDir> folder_;
    std::unique_ptr<QWidget> window_;
    LogPanel* log_ = nullptr;
    Notices* notices_ = nullptr;
    Document* document_ = nullptr;
    ParametersPanel* parameters_ = nullptr;
    DevicePanel* devices_ = nullptr;
    TimingPanel* timings_ = nullptr;
    ViewState* view_ = nullptr;
    FileActions* files_ = nullptr;
};

void FileActionsTest::initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("RGX-tests")); }

void FileActionsTest::init()
{
    // Settings (the recent files) of its own for each test function.
    QCoreApplication::setApplicationName(QStringLiteral("rgx-file-actions-tests-%1").arg(QLatin1String(QTest::currentTestFunction())));
    QSettings().clear();
    folder_ = std::make_unique<QTemporaryDir>();
    QVERIFY(folder_->isValid());
    window_ = std::make_unique<QWidget>();
    log_ = new LogPanel(window_.get());
    notices_ = new Notices(log_, new QStatusBar(window_.get()), window_.get());
    document_ = new Document(notices_, window_.get());
    parameters_ = new ParametersPanel(window_.get());
    devices_ = new DevicePanel(window_.get());
    timings_ = new TimingPanel(window_.get());
    view_ = new ViewState(document_, new ImageView(window_.get()), new PlaybackPanel(window_.get()), notices_, window_.get());
    files_ = new FileActions(document_, {parameters_, devices_, timings_, view_}, notices_, window_.get());
    // As the window does: a new image is shown at once.
    connect(files_, &FileActions::imageOpened, view_, &ViewState::showImage);
}

void FileActionsTest::cleanup()
{
    window_.reset();
    folder_.reset();
}

QString FileActionsTest::writeImage(const char* name, int width, int height)
{
    const QString file = path(name);
    twoHalves(width, height).save(file);
    return file;
}

void FileActionsTest::openingAnImageReplacesTheDocument()
{
    QSignalSpy closed(files_, &FileActions::imageClosed);
    QSignalSpy opened(files_, &FileActions::imageOpened);
    QSignalSpy title(files_, &FileActions::titleChanged);
    QVERIFY(files_->openImage(writeImage("first.png")));
    document_->addSeed(QPoint(1, 1));
    QVERIFY(files_->openImage(writeImage("second.png", 30, 10)));
    QCOMPARE(closed.count(), 2);
    QCOMPARE(opened.count(), 2);
    QCOMPARE(title.last().at(0).toString(), QStringLiteral("second.png - RGX"));
    QCOMPARE(document_->imagePath(), QFileInfo(path("second.png")).absoluteFilePath());
    QCOMPARE(document_->luma()->width, 30);
    QVERIFY(document_->seeds().empty());
    QCOMPARE(document_->undoStack()->count(), 0);
    QVERIFY(log_->lastLine().contains(QStringLiteral("30 x 10, 8-bit grey")));
}

void FileActionsTest::anUnreadableImageChangesNothing()
{
    QVERIFY(files_->openImage(writeImage("good.png")));
    document_->addSeed(QPoint(1, 1));
    QSignalSpy closed(files_, &FileActions::imageClosed);
    QVERIFY(!files_->openImage(writeFile(path("bad.png"), "not a PNG at all")));
    QVERIFY(notices_->last().contains(QStringLiteral("bad.png")));
    QCOMPARE(closed.count(), 0);
    QCOMPARE(document_->imagePath(), QFileInfo(path("good.png")).absoluteFilePath());
    QCOMPARE(document_->seeds().size(), size_t(1));
}

void FileActionsTest::aSampleOpensWithItsSeedsAndAsksForARun()
{
    QSignalSpy run(files_, &FileActions::runRequested);
    QVERIFY2(files_->openSample(QStringLiteral("coins")), qPrintable(notices_->last()));
    QVERIFY(!document_->seeds().empty());
    QCOMPARE(document_->undoStack()->count(), 0); // opening is not an edit to undo
    QCOMPARE(run.count(), 1);
    // The coins' seeds file suggests its parameters.
    QVERIFY(log_->toPlainText().contains(QStringLiteral("Parameters suggested by coins.seeds")));
    QVERIFY(!files_->openSample(QStringLiteral("no-such-sample")));
    QVERIFY(notices_->last().contains(QStringLiteral("No bundled sample")));
    QCOMPARE(run.count(), 1);
}

void FileActionsTest::importedSeedsAreOneUndoStepAndMayBringParameters()
{
    const QString seeds = writeFile(path("test.seeds"), "# parameters: --mode range --lower 30 --upper 25\n1 1\n30,5\n");
    QVERIFY(!files_->importSeeds(seeds)); // no image yet
    QVERIFY(files_->openImage(writeImage("image.png")));
    QVERIFY(files_->importSeeds(seeds));
    QCOMPARE(document_->seeds().size(), size_t(2));
    QCOMPARE(document_->seeds()[1].x, 30);
    QCOMPARE(document_->undoStack()->count(), 1);
    QCOMPARE(parameters_->params().grow.mode, Mode::Range);
    QCOMPARE(parameters_->params().grow.lower, 30u);
    QCOMPARE(parameters_->params().grow.upper, 25u);
    // The log names what the file said, nothing else (issue 28).
    const QString log = log_->toPlainText();
    QVERIFY2(log.contains(QStringLiteral("Parameters suggested by test.seeds: --mode range --lower 30 --upper 25\n")),
             qPrintable(log));
    document_->undoStack()->undo();
    QVERIFY(document_->seeds().empty());
    // Undo takes back the parameters the seeds came with, too.
    QCOMPARE(parameters_->params().grow.mode, Mode::Competitive);
    QCOMPARE(parameters_->params().grow.lower, 20u);
    document_->undoStack()->redo();
    QCOMPARE(parameters_->params().grow.lower, 30u);
    document_->undoStack()->undo();
    // A seed outside the image refuses the whole file.
    QVERIFY(!files_->importSeeds(writeFile(path("outside.seeds"), "1 1\n400 1\n")));
    QVERIFY(document_->seeds().empty());
}

void FileActionsTest::aSavedSessionReopensExactly()
{
    QVERIFY(files_->openImage(writeImage("image.png")));
    document_->addSeed(QPoint(3, 4));
    document_->addSeed(QPoint(33, 14));
    PipelineParams params;
    params.grow = rangeParams();
    params.grow.lower = 17;
    parameters_->setParams(params);
    parameters_->setTimeoutSeconds(42);
    GrowVariant variant;
    variant.driver = Driver::HostSync;
    variant.collectives = Collectives::Local;
    devices_->setVariant(variant);
    QVERIFY(files_->saveSession(path("work.json")));

    QVERIFY(files_->openImage(writeImage("other.png")));
    parameters_->setParams(PipelineParams{});
    devices_->setVariant(GrowVariant{});
    QSignalSpy device(files_, &FileActions::sessionDeviceChosen);
    QSignalSpy title(files_, &FileActions::titleChanged);
    QVERIFY2(files_->openSession(path("work.json")), qPrintable(notices_->last()));
    QCOMPARE(document_->imagePath(), QFileInfo(path("image.png")).absoluteFilePath());
    QCOMPARE(document_->seeds().size(), size_t(2));
    QCOMPARE(document_->seeds()[1].y, 14);
    QCOMPARE(parameters_->params().grow.lower, 17u);
    QCOMPARE(parameters_->timeoutSeconds(), 42.0);
    QCOMPARE(devices_->variant(), variant);
    QCOMPARE(device.count(), 1);
    QCOMPARE(title.last().at(0).toString(), QStringLiteral("work.json - RGX"));
    // The session is a recent file too.
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().first(),
             QFileInfo(path("work.json")).absoluteFilePath());
}

// The monkey test found it (issue 28): a session saved with no seeds (an
// image not yet clicked, or the last session kept on quitting) was refused
// on opening with "no seeds given", after its image had been opened.
void FileActionsTest::aSessionWithoutSeedsReopens()
{
    QVERIFY(files_->openImage(writeImage("image.png")));
    QVERIFY(files_->saveSession(path("empty.rgx")));
    QVERIFY(files_->openImage(writeImage("other.png")));
    document_->addSeed(QPoint(1, 1));
    QVERIFY2(files_->openSession(path("empty.rgx")), qPrintable(notices_->last()));
    QCOMPARE(document_->imagePath(), QFileInfo(path("image.png")).absoluteFilePath());
    QVERIFY(document_->seeds().empty());
}

// Issue 28: a seeds file's "--lower -1" was read as 4294967295 and the range
// field showed "- 0". The seeds file and the session now refuse it with the
// message rgx-cli gives (tests/cli/cli_contract.sh), and change nothing.
void FileActionsTest::aBadParameterGetsTheCommandLinesMessageEverywhere()
{
    const QString message = QStringLiteral("option --lower needs a whole number from 0 to 65535, not '-1'");
    QVERIFY(files_->openImage(writeImage("image.png")));
    const PipelineParams before = parameters_->params();
    QVERIFY(!files_->importSeeds(writeFile(path("bad.seeds"), "# parameters: --mode range --lower -1\n1 1\n")));
    QVERIFY2(notices_->last().contains(message), qPrintable(notices_->last()));
    QVERIFY(document_->seeds().empty());
    QVERIFY(sameParameters(parameters_->params(), before));

    document_->addSeed(QPoint(3, 4));
    QVERIFY(files_->saveSession(path("work.rgx")));
    QFile file(path("work.rgx"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray json = file.readAll();
    file.close();
    json.replace("\"lower\": 20", "\"lower\": -1");
    QVERIFY(json.contains("\"lower\": -1"));
    writeFile(path("bad.rgx"), json);
    QVERIFY(!files_->openSession(path("bad.rgx")));
    QVERIFY2(notices_->last().contains(message), qPrintable(notices_->last()));
}

void FileActionsTest::exportedSeedsCarryTheirParameters()
{
    QVERIFY(files_->openImage(writeImage("image.png")));
    document_->addSeed(QPoint(3, 4));
    PipelineParams params;
    params.grow.mode = Mode::Adaptive;
    params.grow.tolerance = 45.125; // kept exactly by the panel
    parameters_->setParams(params);
    QVERIFY(files_->exportSeeds(path("mine.seeds")));
    parameters_->setParams(PipelineParams{});
    QVERIFY(files_->importSeeds(path("mine.seeds")));
    QCOMPARE(parameters_->params().grow.mode, Mode::Adaptive);
    QCOMPARE(parameters_->params().grow.tolerance, 45.125);
}

void FileActionsTest::exportsNeedAResult()
{
    QVERIFY(files_->openImage(writeImage("image.png")));
    QVERIFY(!files_->exportLabels(path("labels.png")));
    QVERIFY(notices_->last().contains(QStringLiteral("Nothing to export yet")));
    QVERIFY(!files_->exportStamps(path("stamps.npy")));
    QVERIFY(!files_->exportOverlay(path("overlay.png")));
    QVERIFY(!files_->exportTimings(path("timings.json")));
    QVERIFY(!files_->exportChart(path("chart.png"), QSize(400, 300)));
    QVERIFY(notices_->last().contains(QStringLiteral("No timings yet")));
    QVERIFY(QDir(folder_->path()).entryList({QStringLiteral("labels*"), QStringLiteral("stamps*"), QStringLiteral("overlay*"),
                                             QStringLiteral("timings*"), QStringLiteral("chart*")})
                .isEmpty());
}

void FileActionsTest::exportsWriteTheResult()
{
    QVERIFY(files_->openImage(writeImage("image.png")));
    const RunOutcome outcome = referenceOutcome(document_->luma(), halvesSeeds(40));
    files_->setResult(outcome.result);
    view_->showResult(outcome);

    QVERIFY(files_->exportLabels(path("labels.png")));
    const QImage labels(path("labels.png"));
    QCOMPARE(labels.size(), QSize(40, 20));
    QCOMPARE(qGray(labels.pixel(1, 1)), 1);
    QCOMPARE(qGray(labels.pixel(38, 18)), 2);
    QVERIFY(files_->exportStamps(path("stamps.npy")));
    int npyWidth = 0, npyHeight = 0;
    QCOMPARE(readNpy(path("stamps.npy"), &npyWidth, &npyHeight), outcome.result->stamps);
    QCOMPARE(QSize(npyWidth, npyHeight), QSize(40, 20));
    QVERIFY(files_->exportOverlay(path("overlay.png")));
    QCOMPARE(QImage(path("overlay.png")), view_->currentPicture().convertToFormat(QImage(path("overlay.png")).format()));
    // The log says which iteration each export shows: masks the final result, the overlay the playback frame.
    QVERIFY2(log_->toPlainText().contains(QStringLiteral("label mask of the final result")), qPrintable(log_->toPlainText()));
    QVERIFY2(log_->toPlainText().contains(QStringLiteral("overlay as the view shows it: playback iteration")),
             qPrintable(log_->toPlainText()));
    QVERIFY(files_->exportTimings(path("timings.csv")));
    QVERIFY(QFileInfo(path("timings.csv")).size() > 0);
}

void FileActionsTest::aFailedExportLeavesNoFile()
{
    QVERIFY(files_->openImage(writeImage("image.png")));
    files_->setResult(referenceOutcome(document_->luma(), halvesSeeds(40)).result);
    const QString impossible = path("no-such-folder/labels.png");
    QVERIFY(!files_->exportLabels(impossible));
    QVERIFY(notices_->last().contains(QStringLiteral("labels.png")));
    QVERIFY(!QFileInfo::exists(impossible));
    // Nor does a failed export leave its temporary file behind.
    QCOMPARE(QDir(folder_->path()).entryList(QDir::Files), QStringList{QStringLiteral("image.png")});
}

void FileActionsTest::recentFilesListTheLastOpenedFirst()
{
    QVERIFY(files_->openImage(writeImage("a.png")));
    QVERIFY(files_->openImage(writeImage("b.png")));
    QMenu menu;
    files_->attachRecentMenu(&menu);
    emit menu.aboutToShow();
    const QList<QAction*> actions = menu.actions();
    QVERIFY(actions.size() >= 2);
    QCOMPARE(actions[0]->text(), QStringLiteral("&1 b.png"));
    QCOMPARE(actions[1]->text(), QStringLiteral("&2 a.png"));
    actions[1]->trigger();
    QCOMPARE(document_->imagePath(), QFileInfo(path("a.png")).absoluteFilePath());
    // The menu is rebuilt each time it opens: a is first now.
    emit menu.aboutToShow();
    QCOMPARE(menu.actions()[0]->text(), QStringLiteral("&1 a.png"));
}

void FileActionsTest::recentFilesListEachFileOnceAndNoSettingsWritesNothing()
{
    // The same file by its absolute path, through "..", and by a relative path.
    const QString image = writeImage("a.png");
    QVERIFY(files_->openImage(image));
    QVERIFY(files_->openImage(folder_->path() + QStringLiteral("/../") + QFileInfo(folder_->path()).fileName()
                              + QStringLiteral("/a.png")));
    QVERIFY(files_->openImage(QDir::current().relativeFilePath(image)));
    QCOMPARE(files_->recentFiles(), QStringList{QFileInfo(image).canonicalFilePath()});
    // --no-settings: the list goes on for this run, and the settings stay as they were.
    const QStringList saved = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    files_->setRemembers(false);
    QVERIFY(files_->openImage(writeImage("b.png")));
    QCOMPARE(files_->recentFiles().first(), QFileInfo(path("b.png")).canonicalFilePath());
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList(), saved);
}

void FileActionsTest::openFileChoosesByTheSuffix()
{
    QVERIFY(files_->openFile(writeImage("image.png")));
    QVERIFY(document_->hasImage());
    QVERIFY(files_->openFile(writeFile(path("some.seeds"), "2 3\n")));
    QCOMPARE(document_->seeds().size(), size_t(1));
    QVERIFY(files_->saveSession(path("session.json")));
    QVERIFY(files_->openFile(writeImage("other.png")));
    QVERIFY(document_->seeds().empty());
    QVERIFY(files_->openFile(path("session.json")));
    QCOMPARE(document_->seeds().size(), size_t(1));
    // .rgx, the suffix of the session MIME type, opens as a session too.
    QVERIFY(files_->saveSession(path("session.rgx")));
    QVERIFY(files_->openFile(writeImage("third.png")));
    QVERIFY(document_->seeds().empty());
    QVERIFY(files_->openFile(path("session.rgx")));
    QCOMPARE(document_->seeds().size(), size_t(1));
}

QTEST_MAIN(FileActionsTest)
#include "FileActionsTest.moc"
