// The monkey test (issue 28): a scripted user who, for a while, clicks,
// drags and removes seeds, switches devices, variants, parameters, live
// mode, playback, the corruption view, keeps and compares runs, exports and
// reopens sessions, in an order drawn from a seeded std::mt19937, on the
// whole main window (offscreen). It must end with no crash, no hang, no
// warning from Qt, and memory back within 5 % after each round.
//
// RGX_MONKEY_SECONDS (default 20: the CI run), RGX_MONKEY_SEED (default 28),
// RGX_MONKEY_ACTIONS (actions per round, default 40), RGX_MONKEY_ONLY (only
// the actions whose names contain one of these comma-separated words),
// RGX_MONKEY_MEMORY_PERCENT (default 5), RGX_MONKEY_HANG_SECONDS (default
// 200); scripts/monkey.sh MINUTES [SEED] runs it longer. docs/TESTING.md
// says what it found.
#include "DevicePanel.h"
#include "ImageView.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "PlaybackPanel.h"
#include "ParametersPanel.h"
#include "TimingPanel.h"
#include "Variant.h"
#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QListWidget>
#include <QMutex>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// AddressSanitizer keeps freed memory in quarantine and holds its own
// pools: resident memory says nothing about leaks there (LeakSanitizer does).
#if defined(__SANITIZE_ADDRESS__)
#define RGX_MONKEY_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RGX_MONKEY_UNDER_ASAN 1
#endif
#endif
#ifndef RGX_MONKEY_UNDER_ASAN
#define RGX_MONKEY_UNDER_ASAN 0
#endif

#if RGX_MONKEY_UNDER_ASAN
// Whole stacks for every allocation (slower; ASAN_OPTIONS still adds to
// this): the OpenCL runtimes have no frame pointers, and a leak's stack that
// stops in one says neither who allocated nor which suppression applies
// (tests/sanitizers/lsan.supp names PoCL's kernel compiler by function).
extern "C" const char* __asan_default_options() { return "fast_unwind_on_malloc=0"; }
#endif

using namespace rgx;
using namespace rgx::ui;

namespace {

// The longest a run may take: the parameters panel's default timeout
// (120 s) stops any run before it, so a longer wait is a hang.
constexpr int waitLimitMs = 130000;

int environmentNumber(const char* name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok ? value : fallback;
}

// Resident memory of this process, in MiB (/proc/self/statm's second field).
double residentMiB()
{
    FILE* file = std::fopen("/proc/self/statm", "r");
    if (!file)
        return 0;
    unsigned long size = 0, resident = 0;
    const int read = std::fscanf(file, "%lu %lu", &size, &resident);
    std::fclose(file);
    return read == 2 ? double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : 0;
}

// Bytes malloc has handed out and not had back, in MiB (glibc): tells a
// growing heap from other resident memory (mapped device buffers, code).
double heapInUseMiB()
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 info = mallinfo2();
    return double(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
#else
    return 0;
#endif
}

// Every warning, critical or fatal message from Qt (or from RGX through
// qWarning), from any thread; passed on to Qt Test's handler as well.
struct MessageTrap {
    QMutex mutex;
    QStringList messages;
    QtMessageHandler previous = nullptr;
};
MessageTrap& trap()
{
    static MessageTrap instance;
    return instance;
}

// Warnings of the test's own platform, not of RGX: the offscreen QPA
// plugin says it cannot do what a window manager does (qplatformwindow.cpp),
// when a window is shown and when the notice box is raised.
bool isOffscreenPlatformNote(const QString& message)
{
    return message == QLatin1String("This plugin does not support propagateSizeHints()")
           || message == QLatin1String("This plugin does not support raise()");
}

void recordMessage(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if ((type == QtWarningMsg || type == QtCriticalMsg || type == QtFatalMsg) && !isOffscreenPlatformNote(message)) {
        QMutexLocker lock(&trap().mutex);
        trap().messages << message;
    }
    if (trap().previous)
        trap().previous(type, context, message);
}

// Aborts the process when the GUI thread stops reaching the next action: a
// deadlock or a wait that never ends, which no wait of the test itself can
// see. It prints the last actions first, so the abort's stack has a story.
class HangWatch {
public:
    HangWatch(int seconds, std::function<QString()> story) : seconds_(seconds), story_(std::move(story))
    {
        thread_ = std::thread([this] { watch(); });
    }
    ~HangWatch()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    void beat() { beats_.fetch_add(1, std::memory_order_relaxed); }

private:
    void watch()
    {
        std::unique_lock<std::mutex> lock(mutex_);
        unsigned long seen = beats_.load();
        while (!stopping_) {
            if (wake_.wait_for(lock, std::chrono::seconds(seconds_), [this] { return stopping_; }))
                return;
            const unsigned long now = beats_.load();
            if (now == seen) {
                std::fprintf(stderr, "monkey: no action finished for %d s (a hang); the last actions:\n%s\n", seconds_,
                             qPrintable(story_()));
                std::fflush(stderr);
                std::abort();
            }
            seen = now;
        }
    }

    int seconds_;
    std::function<QString()> story_;
    std::atomic<unsigned long> beats_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace

class MonkeyTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void aRandomUserFindsNoCrashHangWarningOrLeak();

private:
    using Action = std::function<void()>;
    struct Choice {
        const char* name;
        int weight;
        Action act;
    };
    std::vector<Choice> actions();
    void note(const QString& line);
    QString story() const;
    void checkNoWarnings(const char* when);
    bool waitIdle(int milliseconds);
    bool runToTheEnd();
    void endRound();
    void warmUp();
    void noteProgramsOfRun();
    QString startSession() const { return folder_->filePath(QStringLiteral("start.rgx")); }

    // Draws for the action under way (see actionRandom_).
    int draw(int low, int high) { return std::uniform_int_distribution<int>(low, high)(actionRandom_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(actionRandom_); }

    template <typename T>
    T* find(const char* name) const
    {
        return window_->findChild<T*>(QString::fromLatin1(name));
    }
    void trigger(const char* actionName);
    void clickButton(QAbstractButton* button);
    void raiseDock(const char* name);
    QPoint widgetPointOf(int x, int y) const;
    int randomSeed() { return window_->seeds().empty() ? -1 : draw(0, int(window_->seeds().size()) - 1); }
    void chooseInCombo(const char* name);

    // The actions, each as a user does it.
    void clickOnImage();
    void dragSeed();
    void pan();
    void rightClickSeed();
    void selectSeedAndDelete();
    void undoOrRedo();
    void clearSeeds();
    void run();
    void runAndCancel();
    void switchDevice();
    void chooseVariant();
    void useFastestVariant();
    void changeParameter();
    void toggleLive();
    void playback();
    void changeDisplay();
    void toggleCorruptionView();
    void keepRun();
    void compareKeptRuns();
    void exportSomething();
    void saveAndReopenSession();
    void exportAndImportSeeds();
    void openSample();
    void zoom();
    void waitForTheEngine();

    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<QTemporaryDir> folder_;
    // The seed's generator draws two numbers per action: which action, and
    // the seed of actionRandom_, from which the action draws what it needs
    // (how many draws depends on the window's state, which depends on
    // timing). So a seed gives the same actions in the same order on any
    // machine; their details agree as long as the window's state does.
    std::mt19937 random_;
    std::mt19937 actionRandom_;
    unsigned seed_ = 28;
    std::deque<QString> lastActions_;
    mutable std::mutex storyMutex_;
    std::map<QString, int> counts_;
    std::unique_ptr<HangWatch> hangWatch_;
    int actionCount_ = 0;
    size_t notesTaken_ = 0;
    std::set<QString> programsBuilt_; // "device program", see noteProgramsOfRun
    QStringList newPrograms_; // since the last round's end
    int exportCount_ = 0;
};

void MonkeyTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("RGX-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("rgx-gui-monkey-tests"));
    trap().previous = qInstallMessageHandler(recordMessage);
}

void MonkeyTest::cleanupTestCase()
{
    // Still watched: closing the window waits for the engine's run (a
    // kernel that never returns would hold it forever).
    note(QStringLiteral("close the window"));
    window_.reset();
    hangWatch_.reset();
    qInstallMessageHandler(trap().previous);
}

void MonkeyTest::note(const QString& line)
{
    std::lock_guard<std::mutex> lock(storyMutex_);
    lastActions_.push_back(QStringLiteral("%1 %2").arg(actionCount_).arg(line));
    ++notesTaken_;
    while (lastActions_.size() > 20)
        lastActions_.pop_front();
}

QString MonkeyTest::story() const
{
    std::lock_guard<std::mutex> lock(storyMutex_);
    QStringList lines;
    lines << QStringLiteral("seed %1 (RGX_MONKEY_SEED), last %2 actions:").arg(seed_).arg(lastActions_.size());
    for (const QString& line : lastActions_)
        lines << QStringLiteral("  ") + line;
    return lines.join(QLatin1Char('\n'));
}

void MonkeyTest::checkNoWarnings(const char* when)
{
    QStringList messages;
    {
        QMutexLocker lock(&trap().mutex);
        messages.swap(trap().messages);
    }
    if (!messages.isEmpty())
        QFAIL(qPrintable(QStringLiteral("Qt warned %1:\n  %2\n%3")
                             .arg(QLatin1String(when), messages.join(QStringLiteral("\n  ")), story())));
}

// Idle: no run, no race check, and still none after a few more events (a
// live edit starts its run from a zero-time timer).
bool MonkeyTest::waitIdle(int milliseconds)
{
    int quiet = 0;
    const bool idle = QTest::qWaitFor(
        [&] {
            quiet = (window_->isRunning() || window_->isCheckingRaces()) ? 0 : quiet + 1;
            return quiet >= 5;
        },
        milliseconds);
    if (hangWatch_)
        hangWatch_->beat();
    return idle;
}

void MonkeyTest::trigger(const char* actionName)
{
    QAction* action = find<QAction>(actionName);
    if (action && action->isEnabled())
        action->trigger();
}

void MonkeyTest::clickButton(QAbstractButton* button)
{
    if (!button || !button->isEnabled())
        return;
    if (button->isVisible())
        QTest::mouseClick(button, Qt::LeftButton);
    else
        button->click();
}

void MonkeyTest::raiseDock(const char* name)
{
    if (auto* dock = find<QDockWidget>(name))
        dock->raise();
}

QPoint MonkeyTest::widgetPointOf(int x, int y) const { return window_->imageView()->pixelCentre(x, y).toPoint(); }

// ---- the actions ------------------------------------------------------------------

void MonkeyTest::clickOnImage()
{
    ImageView* view = window_->imageView();
    if (!window_->luma())
        return;
    // Mostly on the image; now and then on the grey margin around it.
    QPoint at = chance(0.9) ? widgetPointOf(draw(0, window_->luma()->width - 1), draw(0, window_->luma()->height - 1))
                            : QPoint(draw(0, view->width() - 1), draw(0, view->height() - 1));
    if (!view->rect().contains(at))
        at = QPoint(draw(0, view->width() - 1), draw(0, view->height() - 1));
    const QPoint pixel = view->pixelAt(at);
    note(QStringLiteral("click at pixel (%1, %2)").arg(pixel.x()).arg(pixel.y()));
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
}

void MonkeyTest::dragSeed()
{
    const int index = randomSeed();
    if (index < 0)
        return;
    ImageView* view = window_->imageView();
    const Seed seed = window_->seeds()[size_t(index)];
    QPoint at = widgetPointOf(seed.x, seed.y);
    if (!view->rect().contains(at))
        return;
    const int steps = draw(1, 12);
    note(QStringLiteral("drag seed %1 from (%2, %3) in %4 steps").arg(index + 1).arg(seed.x).arg(seed.y).arg(steps));
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, at);
    for (int step = 0; step < steps; ++step) {
        // Small moves, now and then a jump, sometimes past the view's edge.
        at += QPoint(draw(-25, 25), draw(-25, 25));
        if (chance(0.1))
            at = QPoint(draw(-20, view->width() + 20), draw(-20, view->height() + 20));
        QTest::mouseMove(view, at);
        QTest::qWait(draw(0, 30)); // a live drag runs while it moves
    }
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, at);
}

void MonkeyTest::pan()
{
    ImageView* view = window_->imageView();
    QPoint at(draw(0, view->width() - 1), draw(0, view->height() - 1));
    const Qt::MouseButton button = chance(0.5) ? Qt::MiddleButton : Qt::LeftButton;
    note(QStringLiteral("pan from (%1, %2) with the %3 button").arg(at.x()).arg(at.y())
             .arg(button == Qt::LeftButton ? QStringLiteral("left") : QStringLiteral("middle")));
    QTest::mousePress(view, button, Qt::NoModifier, at);
    for (int step = 0, steps = draw(2, 6); step < steps; ++step) {
        at += QPoint(draw(-40, 40), draw(-40, 40));
        QTest::mouseMove(view, at);
    }
    QTest::mouseRelease(view, button, Qt::NoModifier, at);
}

void MonkeyTest::rightClickSeed()
{
    const int index = randomSeed();
    if (index < 0)
        return;
    const Seed seed = window_->seeds()[size_t(index)];
    const QPoint at = widgetPointOf(seed.x, seed.y);
    if (!window_->imageView()->rect().contains(at))
        return;
    note(QStringLiteral("right-click seed %1 at (%2, %3)").arg(index + 1).arg(seed.x).arg(seed.y));
    QTest::mouseClick(window_->imageView(), Qt::RightButton, Qt::NoModifier, at);
}

void MonkeyTest::selectSeedAndDelete()
{
    const int index = randomSeed();
    if (index < 0)
        return;
    const Seed seed = window_->seeds()[size_t(index)];
    const QPoint at = widgetPointOf(seed.x, seed.y);
    if (!window_->imageView()->rect().contains(at))
        return;
    note(QStringLiteral("select seed %1 and press Delete").arg(index + 1));
    QTest::mouseClick(window_->imageView(), Qt::LeftButton, Qt::NoModifier, at);
    QTest::keyClick(window_->imageView(), Qt::Key_Delete);
}

void MonkeyTest::undoOrRedo()
{
    const bool undo = chance(0.6);
    note(undo ? QStringLiteral("undo") : QStringLiteral("redo"));
    trigger(undo ? "undoAction" : "redoAction");
}

void MonkeyTest::clearSeeds()
{
    note(QStringLiteral("clear the seeds"));
    clickButton(find<QAbstractButton>("clearSeedsButton"));
}

void MonkeyTest::run()
{
    note(QStringLiteral("run (F5)"));
    trigger("runAction");
}

void MonkeyTest::runAndCancel()
{
    const int wait = draw(0, 40);
    note(QStringLiteral("run, then cancel after %1 ms").arg(wait));
    trigger("runAction");
    QTest::qWait(wait);
    trigger("cancelAction");
}

void MonkeyTest::switchDevice()
{
    auto* list = find<QTreeWidget>("deviceList");
    if (!list || list->topLevelItemCount() == 0)
        return;
    // The CPU runtimes (PoCL, Intel's); a simulator such as Oclgrind would
    // turn each run into minutes.
    std::vector<QTreeWidgetItem*> devices;
    for (int row = 0; row < list->topLevelItemCount(); ++row) {
        QTreeWidgetItem* item = list->topLevelItem(row);
        if (!item->text(0).contains(QLatin1String("Oclgrind"), Qt::CaseInsensitive) && !item->isDisabled())
            devices.push_back(item);
    }
    if (devices.empty())
        return;
    QTreeWidgetItem* item = devices[size_t(draw(0, int(devices.size()) - 1))];
    note(QStringLiteral("device: %1").arg(item->text(0)));
    raiseDock("devicesDock");
    list->scrollToItem(item);
    const QRect rect = list->visualItemRect(item);
    if (list->isVisible() && list->viewport()->rect().contains(rect.center()))
        QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    else
        list->setCurrentItem(item);
}

void MonkeyTest::chooseInCombo(const char* name)
{
    auto* combo = find<QComboBox>(name);
    if (!combo || !combo->isEnabled() || combo->count() == 0)
        return;
    // Only the entries a user can pick (the panel disables what the device cannot run).
    std::vector<int> enabled;
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    for (int row = 0; row < combo->count(); ++row)
        if (!model || !model->item(row) || model->item(row)->isEnabled())
            enabled.push_back(row);
    if (enabled.empty())
        return;
    const int row = enabled[size_t(draw(0, int(enabled.size()) - 1))];
    note(QStringLiteral("%1: %2").arg(QLatin1String(name), combo->itemText(row)));
    combo->setCurrentIndex(row);
}

void MonkeyTest::chooseVariant()
{
    raiseDock("devicesDock");
    static const char* const combos[] = {"driverCombo", "frontierCombo", "collectivesCombo", "tileCombo", "fusionCombo"};
    chooseInCombo(combos[draw(0, 4)]);
}

void MonkeyTest::useFastestVariant()
{
    note(QStringLiteral("use the fastest variant here"));
    raiseDock("devicesDock");
    clickButton(find<QAbstractButton>("fastestVariantButton"));
}

void MonkeyTest::changeParameter()
{
    raiseDock("parametersDock");
    auto setSpin = [&](const char* name, int low, int high) {
        auto* spin = find<QSpinBox>(name);
        if (!spin || !spin->isEnabled())
            return;
        const int value = std::clamp(draw(low, high), spin->minimum(), spin->maximum());
        note(QStringLiteral("%1: %2").arg(QLatin1String(name)).arg(value));
        spin->setValue(value);
    };
    switch (draw(0, 8)) {
    case 0: chooseInCombo("modeCombo"); break;
    case 1: {
        auto* tolerance = find<QDoubleSpinBox>("toleranceSpin");
        if (tolerance && tolerance->isEnabled()) {
            const double value = draw(0, 80);
            note(QStringLiteral("toleranceSpin: %1").arg(value));
            tolerance->setValue(value);
        }
        break;
    }
    case 2: setSpin("lowerSpin", 0, 60); break;
    case 3: setSpin("upperSpin", 0, 60); break;
    case 4: chooseInCombo(chance(0.5) ? "ruleCombo" : "connectivityCombo"); break;
    case 5:
        chooseInCombo("prefilterCombo");
        setSpin("prefilterSizeSpin", 1, 9);
        break;
    case 6: chooseInCombo("prefilterVariantCombo"); break;
    case 7: {
        auto* postfilter = find<QCheckBox>("postfilterCheck");
        if (postfilter && postfilter->isEnabled()) {
            note(QStringLiteral("postfilter %1").arg(postfilter->isChecked() ? "off" : "on"));
            clickButton(postfilter);
        }
        break;
    }
    case 8:
        if (chance(0.5))
            setSpin("postfilterWindowSpin", 1, 15);
        else
            setSpin("postfilterMinimumSpin", 0, 60);
        break;
    }
}

void MonkeyTest::toggleLive()
{
    if (chance(0.5)) {
        note(QStringLiteral("click the Live badge"));
        clickButton(find<QAbstractButton>("liveBadge"));
    } else {
        note(QStringLiteral("Run > Live"));
        trigger("autoRunAction");
    }
}

void MonkeyTest::playback()
{
    static const char* const buttons[] = {"playButton", "stepBackButton", "stepForwardButton", "firstFrameButton",
                                          "lastFrameButton"};
    switch (draw(0, 6)) {
    case 5: {
        auto* slider = find<QSlider>("frameSlider");
        if (slider && slider->isEnabled()) {
            const int value = draw(slider->minimum(), slider->maximum());
            note(QStringLiteral("scrub to iteration %1").arg(value));
            slider->setValue(value);
        }
        break;
    }
    case 6: {
        auto* speed = find<QSpinBox>("speedSpin");
        if (speed) {
            const int value = draw(1, 240);
            note(QStringLiteral("speed %1 it/s").arg(value));
            speed->setValue(value);
        }
        break;
    }
    default: {
        const char* name = buttons[draw(0, 4)];
        note(QLatin1String(name));
        clickButton(find<QAbstractButton>(name));
        if (name == buttons[0])
            QTest::qWait(draw(0, 300)); // let it play a little
    }
    }
}

void MonkeyTest::changeDisplay()
{
    static const char* const checks[] = {"overlayCheck", "outlinesCheck", "frontierCheck", "filteredCheck",
                                         "beforePostfilterCheck"};
    if (chance(0.2)) {
        auto* opacity = find<QSlider>("opacitySlider");
        if (opacity) {
            const int value = draw(opacity->minimum(), opacity->maximum());
            note(QStringLiteral("opacity %1").arg(value));
            opacity->setValue(value);
        }
        return;
    }
    const char* name = checks[draw(0, 4)];
    note(QStringLiteral("toggle %1").arg(QLatin1String(name)));
    clickButton(find<QAbstractButton>(name));
}

void MonkeyTest::toggleCorruptionView()
{
    note(QStringLiteral("corruption view (Ctrl+D)"));
    if (chance(0.5))
        trigger("corruptionAction");
    else
        clickButton(find<QAbstractButton>("corruptionButton"));
}

void MonkeyTest::keepRun()
{
    note(QStringLiteral("keep the run (Ctrl+K)"));
    if (chance(0.5))
        trigger("keepAction");
    else
        clickButton(find<QAbstractButton>("keepRunButton"));
}

void MonkeyTest::compareKeptRuns()
{
    auto* list = find<QListWidget>("keptRunsList");
    auto* tabs = find<QTabWidget>("timingTabs");
    if (tabs && chance(0.4)) {
        const int tab = draw(0, tabs->count() - 1);
        note(QStringLiteral("timings tab %1").arg(tabs->tabText(tab)));
        tabs->setCurrentIndex(tab);
        return;
    }
    if (!list || list->count() == 0)
        return;
    const int row = draw(0, list->count() - 1);
    QListWidgetItem* item = list->item(row);
    if (chance(0.3)) {
        note(QStringLiteral("remove kept run %1").arg(row + 1));
        list->setCurrentRow(row);
        clickButton(find<QAbstractButton>("removeRunButton"));
    } else {
        note(QStringLiteral("%1 kept run %2 for comparison").arg(item->checkState() == Qt::Checked ? "uncheck" : "check").arg(row + 1));
        item->setCheckState(item->checkState() == Qt::Checked ? Qt::Unchecked : Qt::Checked);
    }
}

// The menus' exports, less the file dialog: the same FileActions calls.
void MonkeyTest::exportSomething()
{
    const QString base = folder_->filePath(QStringLiteral("export-%1").arg(++exportCount_ % 8));
    switch (draw(0, 7)) {
    case 0: note(QStringLiteral("export labels (PNG)")); window_->exportLabels(base + QStringLiteral(".png")); break;
    case 1: note(QStringLiteral("export labels (.npy)")); window_->exportLabels(base + QStringLiteral(".npy")); break;
    case 2: note(QStringLiteral("export stamps")); window_->exportStamps(base + QStringLiteral(".npy")); break;
    case 3: note(QStringLiteral("export overlay")); window_->exportOverlay(base + QStringLiteral(".png")); break;
    case 4: note(QStringLiteral("export timings (CSV)")); window_->exportTimings(base + QStringLiteral(".csv")); break;
    case 5: note(QStringLiteral("export timings (JSON)")); window_->exportTimings(base + QStringLiteral(".json")); break;
    case 6: note(QStringLiteral("export chart (PNG)")); window_->exportChart(base + QStringLiteral(".png"), QSize(640, 360)); break;
    case 7: note(QStringLiteral("export chart (PDF)")); window_->exportChart(base + QStringLiteral(".pdf"), QSize(640, 360)); break;
    }
}

void MonkeyTest::saveAndReopenSession()
{
    if (!window_->luma())
        return;
    const QString path = folder_->filePath(QStringLiteral("monkey.rgx"));
    note(QStringLiteral("save the session and open it again"));
    const std::vector<Seed> seeds = window_->seeds();
    const QString image = window_->imagePath();
    QVERIFY2(window_->saveSession(path), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    QVERIFY2(window_->openSession(path), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    QVERIFY2(window_->seeds() == seeds && window_->imagePath() == image,
             qPrintable(QStringLiteral("the reopened session differs\n") + story()));
}

void MonkeyTest::exportAndImportSeeds()
{
    if (!window_->luma() || window_->seeds().empty())
        return;
    const QString path = folder_->filePath(QStringLiteral("monkey.seeds"));
    note(QStringLiteral("export the seeds and import them again"));
    const std::vector<Seed> seeds = window_->seeds();
    QVERIFY2(window_->exportSeeds(path), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    QVERIFY2(window_->importSeeds(path), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    QVERIFY2(window_->seeds() == seeds, qPrintable(QStringLiteral("the imported seeds differ\n") + story()));
}

void MonkeyTest::openSample()
{
    // Mostly the small coins; now and then the larger colour astronaut.
    const char* name = chance(0.8) ? "sample_coins" : "sample_astronaut";
    note(QStringLiteral("File > Open Sample > %1").arg(QLatin1String(name + 7)));
    trigger(name);
}

void MonkeyTest::zoom()
{
    static const char* const zooms[] = {"zoomInAction", "zoomOutAction", "zoomFitAction", "zoomActualAction"};
    if (chance(0.3)) {
        ImageView* view = window_->imageView();
        const QPoint at(draw(0, view->width() - 1), draw(0, view->height() - 1));
        const int delta = chance(0.5) ? 120 : -120;
        note(QStringLiteral("wheel %1 at (%2, %3)").arg(delta).arg(at.x()).arg(at.y()));
        QWheelEvent wheel(QPointF(at), QPointF(view->mapToGlobal(at)), QPoint(), QPoint(0, delta), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(view, &wheel);
        return;
    }
    const char* name = zooms[draw(0, 3)];
    note(QLatin1String(name));
    trigger(name);
}

void MonkeyTest::waitForTheEngine()
{
    note(QStringLiteral("wait until the engine is idle"));
    QVERIFY2(waitIdle(waitLimitMs), qPrintable(QStringLiteral("the engine was still busy after 130 s\n") + story()));
}

std::vector<MonkeyTest::Choice> MonkeyTest::actions()
{
    // Weights: seed edits most, as a user's session is mostly those.
    return {
        {"click on the image", 14, [this] { clickOnImage(); }},
        {"drag a seed", 10, [this] { dragSeed(); }},
        {"pan", 2, [this] { pan(); }},
        {"right-click a seed", 4, [this] { rightClickSeed(); }},
        {"select a seed and Delete", 3, [this] { selectSeedAndDelete(); }},
        {"undo or redo", 4, [this] { undoOrRedo(); }},
        {"clear the seeds", 1, [this] { clearSeeds(); }},
        {"run", 5, [this] { run(); }},
        {"run and cancel", 2, [this] { runAndCancel(); }},
        {"switch device", 3, [this] { switchDevice(); }},
        {"choose a variant", 5, [this] { chooseVariant(); }},
        {"use the fastest variant", 1, [this] { useFastestVariant(); }},
        {"change a parameter", 5, [this] { changeParameter(); }},
        {"toggle live", 3, [this] { toggleLive(); }},
        {"playback", 5, [this] { playback(); }},
        {"change the display", 2, [this] { changeDisplay(); }},
        {"toggle the corruption view", 3, [this] { toggleCorruptionView(); }},
        {"keep the run", 3, [this] { keepRun(); }},
        {"compare kept runs", 3, [this] { compareKeptRuns(); }},
        {"export", 3, [this] { exportSomething(); }},
        {"save and reopen the session", 2, [this] { saveAndReopenSession(); }},
        {"export and import the seeds", 1, [this] { exportAndImportSeeds(); }},
        {"open a sample", 1, [this] { openSample(); }},
        {"zoom", 3, [this] { zoom(); }},
        {"wait for the engine", 4, [this] { waitForTheEngine(); }},
    };
}

// A run of what the panels show now, to its end; false when it failed.
bool MonkeyTest::runToTheEnd()
{
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy failed(window_.get(), &MainWindow::runFailed);
    trigger("runAction");
    const bool ended = QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, waitLimitMs);
    if (hangWatch_)
        hangWatch_->beat();
    [&] {
        QVERIFY2(ended, qPrintable(QStringLiteral("a run did not end within 130 s\n") + story()));
        QVERIFY2(waitIdle(waitLimitMs), qPrintable(QStringLiteral("the engine was still busy after 130 s\n") + story()));
    }();
    return ended && failed.isEmpty();
}

// The same state at the end of every round, so that rounds compare: the
// session saved before round 1 (the coins sample and its seeds, the
// default parameters, the first device, the fastest variant there) opened
// again through File > Open Session's call and run once; nothing kept,
// playback stopped, the corruption view and live mode off, the view fitted.
void MonkeyTest::endRound()
{
    note(QStringLiteral("end of round"));
    auto* playback = window_->playbackPanel();
    if (playback->isPlaying())
        playback->pause();
    trigger("cancelAction");
    QVERIFY2(waitIdle(waitLimitMs), qPrintable(QStringLiteral("the engine was still busy after 130 s\n") + story()));
    if (auto* corruption = find<QAction>("corruptionAction"); corruption && corruption->isChecked())
        corruption->trigger();
    if (auto* live = find<QAction>("autoRunAction"); live && live->isChecked())
        live->trigger();
    while (auto* list = find<QListWidget>("keptRunsList")) {
        if (list->count() == 0)
            break;
        list->setCurrentRow(0);
        clickButton(find<QAbstractButton>("removeRunButton"));
    }
    trigger("zoomFitAction");
    QVERIFY2(window_->openSession(startSession()), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    QVERIFY2(runToTheEnd(), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    QTest::qWait(200); // paints, deferred deletes
}

// Each runtime's context is made once and kept (Intel's about 150 MiB):
// both made before the rounds, so that no round is charged for one.
void MonkeyTest::warmUp()
{
    auto* list = find<QTreeWidget>("deviceList");
    QVERIFY(list && list->topLevelItemCount() > 0);
    QSignalSpy opened(window_.get(), &MainWindow::runFinished);
    trigger("sample_coins"); // opens with its seeds and runs them
    QVERIFY2(QTest::qWaitFor([&] { return opened.count() > 0; }, waitLimitMs), qPrintable(window_->lastNotice()));
    QVERIFY2(waitIdle(waitLimitMs), "the engine was still busy after 130 s");
    QVERIFY2(window_->saveSession(startSession()), qPrintable(window_->lastNotice()));
    for (int row = list->topLevelItemCount() - 1; row > 0; --row) {
        QTreeWidgetItem* item = list->topLevelItem(row);
        if (item->text(0).contains(QLatin1String("Oclgrind"), Qt::CaseInsensitive))
            continue;
        note(QStringLiteral("warm up on %1").arg(item->text(0)));
        list->setCurrentItem(item);
        QVERIFY2(runToTheEnd(), qPrintable(window_->lastNotice() + QLatin1Char('\n') + story()));
    }
    endRound(); // where every round starts
}

// What a run builds, if its device has not built it before: the program of
// its variant and those of its prefilter and postfilter variants, and the
// runtime's pools for buffers of its image's size (a runtime keeps what it
// allocated once, as Intel's does in its own allocator).
void MonkeyTest::noteProgramsOfRun()
{
    const QString device = QString::fromStdString(window_->devicePanel()->currentDeviceId());
    const PipelineParams params = window_->parametersPanel()->params();
    QStringList programs{QString::fromStdString(window_->devicePanel()->variant().text())};
    if (window_->luma())
        programs << QStringLiteral("buffers %1x%2").arg(window_->luma()->width).arg(window_->luma()->height);
    if (params.prefilter.kind != PrefilterSpec::Kind::None)
        programs << QStringLiteral("prefilter %1 %2").arg(int(params.prefilter.kind)).arg(QString::fromStdString(params.prefilter.variant));
    if (params.postfilter.enabled)
        programs << QStringLiteral("postfilter %1").arg(QString::fromStdString(params.postfilter.variant));
    for (const QString& program : programs)
        if (programsBuilt_.insert(device + QLatin1Char(' ') + program).second)
            newPrograms_ << device + QLatin1Char(' ') + program;
}

void MonkeyTest::aRandomUserFindsNoCrashHangWarningOrLeak()
{
    seed_ = unsigned(environmentNumber("RGX_MONKEY_SEED", 28));
    const int seconds = environmentNumber("RGX_MONKEY_SECONDS", 20);
    const int perRound = std::max(1, environmentNumber("RGX_MONKEY_ACTIONS", 40));
    random_.seed(seed_);
    std::printf("monkey: seed %u, %d s, %d actions a round%s\n", seed_, seconds, perRound,
                RGX_MONKEY_UNDER_ASAN ? " (AddressSanitizer: no memory check)" : "");
    std::fflush(stdout);

    folder_ = std::make_unique<QTemporaryDir>();
    QVERIFY(folder_->isValid());
    MainWindowOptions options;
    options.restoreSettings = false;       // from the defaults; nothing written
    options.asksBeforeDiscarding = false;  // no modal question between actions
    options.cliPath = QStringLiteral(RGX_CLI_PATH);
    window_ = std::make_unique<MainWindow>(options);
    window_->resize(1400, 900);
    window_->show();
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY2(QTest::qWaitFor([&] { return window_->devicesReady(); }, 60000), "devices not listed within 60 s");
    // runNow reads the panels as it submits: what they show is what runs.
    connect(window_->runs(), &RunController::runSubmitted, this, [this] { noteProgramsOfRun(); });

    // Longer than any bounded wait of the test (waitLimitMs).
    hangWatch_ = std::make_unique<HangWatch>(environmentNumber("RGX_MONKEY_HANG_SECONDS", 200), [this] { return story(); });
    // RGX_MONKEY_ONLY=TEXT,TEXT: only the actions whose names contain one
    // of them (to narrow down what a finding needs).
    std::vector<Choice> choices = actions();
    const QStringList only = qEnvironmentVariable("RGX_MONKEY_ONLY").split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (!only.isEmpty()) {
        choices.erase(std::remove_if(choices.begin(), choices.end(),
                                     [&](const Choice& choice) {
                                         return std::none_of(only.begin(), only.end(), [&](const QString& part) {
                                             return QLatin1String(choice.name).contains(part);
                                         });
                                     }),
                      choices.end());
        QVERIFY2(!choices.empty(), "RGX_MONKEY_ONLY matches no action");
    }
    std::vector<int> weights;
    for (const Choice& choice : choices)
        weights.push_back(choice.weight);
    std::discrete_distribution<int> pick(weights.begin(), weights.end());

    warmUp();
    if (QTest::currentTestFailed())
        return;
    checkNoWarnings("warming up");

    // Memory after each round, against a baseline: the one after round 2
    // (rounds 1 and 2 still fill what Qt keeps of what it drew: glyphs,
    // icons, pixmaps of texts and states not shown before), taken again
    // after a round that built a program its device had not built before.
    // Each device keeps every program it built, by design (the 120 programs
    // of PoCL and Intel's runtime hold about 450 MiB): such a round is
    // charged to that cache, not compared. Any other round that ends above
    // the baseline by more than 5 % fails.
    const int warmUpRounds = 2;
    const double allowedGrowth = environmentNumber("RGX_MONKEY_MEMORY_PERCENT", 5) / 100.0;
    double baseline = 0;
    int baselineRound = 0;
    newPrograms_.clear();
    QElapsedTimer clock;
    clock.start();
    int round = 0;
    while (round < warmUpRounds + 1 || clock.elapsed() < qint64(seconds) * 1000) {
        ++round;
        for (int i = 0; i < perRound; ++i) {
            ++actionCount_;
            const Choice& choice = choices[size_t(pick(random_))];
            actionRandom_.seed(random_());
            ++counts_[QLatin1String(choice.name)];
            const size_t notes = notesTaken_;
            choice.act();
            if (notesTaken_ == notes)
                note(QStringLiteral("%1: nothing to do").arg(QLatin1String(choice.name)));
            if (QTest::currentTestFailed())
                return;
            QTest::qWait(draw(0, 40)); // a user's pause, sometimes none
            checkNoWarnings(qPrintable(QStringLiteral("after action %1 (%2)").arg(actionCount_).arg(QLatin1String(choice.name))));
            if (QTest::currentTestFailed())
                return;
            hangWatch_->beat();
        }
        endRound();
        if (QTest::currentTestFailed())
            return;
        checkNoWarnings("at the end of a round");
        if (QTest::currentTestFailed())
            return;
        hangWatch_->beat();
#if defined(__GLIBC__)
        // What the program holds, not what glibc keeps of freed memory.
        malloc_trim(0);
#endif
        const double memory = residentMiB();
        const QStringList built = std::exchange(newPrograms_, {});
        QString against;
        if (round < warmUpRounds) {
        } else if (round == warmUpRounds || !built.isEmpty()) {
            baseline = memory;
            baselineRound = round;
            against = round == warmUpRounds ? QStringLiteral(" (the baseline)")
                                            : QStringLiteral(" (the baseline, new: %1)").arg(built.join(QStringLiteral(", ")));
        } else {
            against = QStringLiteral(" (%1%2 % from round %3)")
                          .arg(memory >= baseline ? QStringLiteral("+") : QString())
                          .arg(100.0 * (memory - baseline) / baseline, 0, 'f', 1)
                          .arg(baselineRound);
        }
        const QString heap = RGX_MONKEY_UNDER_ASAN ? QString() // ASan's allocator is not malloc's
                                                   : QStringLiteral("heap %1 MiB, ").arg(heapInUseMiB(), 0, 'f', 1);
        std::printf("monkey: round %d done, %d actions in %.1f s, log %d lines, %sresident %.1f MiB%s\n", round,
                    actionCount_, double(clock.elapsed()) / 1000.0, window_->logPanel()->blockCount(),
                    qPrintable(heap), memory, qPrintable(against));
        std::fflush(stdout);
        if (!RGX_MONKEY_UNDER_ASAN && round > baselineRound && baselineRound >= warmUpRounds)
            QVERIFY2(memory <= baseline * (1 + allowedGrowth),
                     qPrintable(QStringLiteral("resident memory %1 MiB after round %2, %3 MiB after round %4 (more than %5 %)\n%6")
                                    .arg(memory, 0, 'f', 1).arg(round).arg(baseline, 0, 'f', 1).arg(baselineRound)
                                    .arg(allowedGrowth * 100).arg(story())));
    }

    QStringList done;
    for (const auto& [name, count] : counts_)
        done << QStringLiteral("%1 %2").arg(name).arg(count);
    std::printf("monkey: %d actions in %d rounds (%.1f s), %zu programs built: %s\n", actionCount_, round,
                double(clock.elapsed()) / 1000.0, programsBuilt_.size(), qPrintable(done.join(QStringLiteral(", "))));
    std::fflush(stdout);

    note(QStringLiteral("close the window"));
    window_.reset(); // closing the window must not warn either
    hangWatch_->beat();
    checkNoWarnings("closing the window");
}

QTEST_MAIN(MonkeyTest)
#include "MonkeyTest.moc"
