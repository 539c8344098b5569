// rgx_gui_bench: the explorer measured as a user feels it, offscreen (not a
// CTest test: figures, not assertions; docs/PERFORMANCE.md records them).
//   - playback of an 8192 x 8192 run: frames drawn per second;
//   - a seed dragged in live mode: request to overlay, and per edit where
//     the time went (engine, result built on the host, event queues, the
//     panels, overlay render, paint), summed up in one line per drag
//     (`edit breakdown (median ms): ...`, DESIGN.md's contract);
//   - clicks on the coins sample with its 25 seeds, competitive;
//   - the process's peak memory with the 8192 x 8192 image and its run;
//   - with --first-click S instead of all that: a 1024 x 1024 image opened,
//     its seed imported, then S seconds of a user looking before Run: the
//     run's request to overlay drawn, kernel caches as the caller left them
//     (empty RGX_CACHE_DIR and POCL_CACHE_DIR: a first use; RGX_WARM_KERNELS=0:
//     no kernels built ahead, for A/B);
//   - with --volume N instead of all that (issue 27): a 16-bit N^3 phantom
//     in the three slice views, seed clicks from the click to the new
//     overlay painted on all three views (the first one apart, after the
//     volume went onto the device as the window does when a volume opens,
//     timed too; then the background and a ball in turn), Page Down steps on
//     each view with the region shown, and the peak resident memory.
// Usage: rgx_gui_bench --first-click S [--drag-size 1024] [--drag-variant V] [--device D]
//        rgx_gui_bench [--size 8192 (0: no playback)] [--drag-size 1024]
//        [--drag-variant V] [--drag-range R] [--drag-seeds K] [--device D] [--variant V]
//        rgx_gui_bench --volume N [--volume-variant V] [--drag-range R (default 20 here)]
//        [--volume-repeats 10] [--volume-steps 30] [--device D]
#include "MainWindow.h"
#include "ImageView.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "DevicePanel.h"
#include "Pipeline.h"
#include "bench/BenchInputs.h"
#include "bench/Measure.h"
#include "bench/VolumeBench.h"
#include "SliceView.h"
#include "VolumeView.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <cstdio>
#include <sys/resource.h>

using namespace rgx;
using namespace rgx::ui;

namespace {

QString writeNoise(const QString& folder, int size)
{
    const LumaImage noise = bench::smoothNoise(size, 1);
    QImage picture(size, size, QImage::Format_Grayscale8);
    for (int y = 0; y < size; ++y) {
        uchar* line = picture.scanLine(y);
        for (int x = 0; x < size; ++x)
            line[x] = uchar(noise.luma[size_t(y) * size_t(size) + size_t(x)]);
    }
    const QString path = folder + QStringLiteral("/noise-%1.png").arg(size);
    picture.save(path);
    return path;
}

QString writeSeeds(const QString& folder, const QString& text)
{
    const QString path = folder + QStringLiteral("/bench.seeds");
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(text.toUtf8());
    return path;
}

double peakMegabytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
}

// Waits in a real event loop, as the explorer's own: QTest::qWait and
// qWaitFor sleep 10 ms between passes over the events, which would hold each
// answer from the engine thread for up to 10 ms and count it as the GUI's.
bool waitUntil(const std::function<bool()>& done, int milliseconds)
{
    QElapsedTimer clock;
    clock.start();
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done() || clock.elapsed() >= milliseconds)
            loop.quit();
    });
    poll.start(1);
    if (!done())
        loop.exec();
    return done();
}

void waitFor(int milliseconds)
{
    waitUntil([] { return false; }, milliseconds);
}

bool runAndWait(MainWindow& window);

// Live chosen by hand, as a user would (it stays on whatever a run costs),
// a first run, the view fitted and settled: the edits after this are measured.
bool startLive(MainWindow& window)
{
    QAction* live = window.findChild<QAction*>(QStringLiteral("autoRunAction"));
    if (!live->isChecked())
        live->trigger();
    if (!runAndWait(window))
        return false;
    window.imageView()->zoomToFit();
    waitFor(200);
    return true;
}

// K seeds on a grid over the image (the first one in the middle, dragged),
// in range mode +-range.
QString dragSeeds(int size, int range, int count)
{
    QString text = QStringLiteral("# parameters: --mode range --lower %1 --upper %1\n%2 %2\n").arg(range).arg(size / 2);
    const int side = int(std::ceil(std::sqrt(double(std::max(1, count - 1)))));
    for (int k = 1; k < count; ++k) {
        const int x = (k - 1) % side, y = (k - 1) / side;
        text += QStringLiteral("%1 %2\n").arg((2 * x + 1) * size / (2 * side)).arg((2 * y + 1) * size / (2 * side) + 3);
    }
    return text;
}

// A first Run on a new image, `lookSeconds` after it opened with its seed
// (what a user spends looking before the click): request to overlay drawn.
int benchFirstClick(MainWindow& window, const QString& folder, int size, const QString& variant, double lookSeconds,
                    const std::vector<EditTimes>& edits)
{
    if (!variant.isEmpty() && !window.setVariantText(variant))
        return 3;
    if (!window.openImage(writeNoise(folder, size)))
        return 3;
    window.importSeeds(writeSeeds(folder, dragSeeds(size, 30, 1)));
    waitFor(int(lookSeconds * 1000));
    const size_t before = edits.size();
    if (!runAndWait(window) || !waitUntil([&] { return edits.size() > before; }, 5000))
        return 3;
    const EditTimes& first = edits.back();
    std::printf("first click on a %dx%d image %.1f s after it opened (%s, %s; kernels built ahead: %s): request to "
                "overlay %.1f ms, the engine %.1f ms of it\n",
                size, size, lookSeconds, window.devicePanel()->variant().text().c_str(),
                window.devicePanel()->currentDevice() ? window.devicePanel()->currentDevice()->name.c_str() : "?",
                qEnvironmentVariable("RGX_WARM_KERNELS") == QLatin1String("0") ? "no" : "yes", first.totalMs,
                first.engineMs);
    return 0;
}

// The line outside checks read (DESIGN.md), of medians in milliseconds.
void printBreakdownLine(double engine, double result, double overlay, double paint, double outside)
{
    std::printf("edit breakdown (median ms): engine %.2f, result %.2f, overlay %.2f, paint %.2f, outside the engine %.2f\n",
                engine, result, overlay, paint, outside);
}

// Medians of the edits' parts, and the line outside checks read.
void printBreakdown(const std::vector<EditTimes>& edits)
{
    if (edits.empty()) {
        std::printf("edit breakdown: no edit measured\n");
        return;
    }
    const auto median = [&](auto part) {
        std::vector<double> values;
        for (const EditTimes& edit : edits)
            values.push_back(part(edit));
        return bench::spreadOf(values).median;
    };
    printBreakdownLine(median([](const EditTimes& e) { return e.engineMs; }), median([](const EditTimes& e) { return e.resultMs; }),
                       median([](const EditTimes& e) { return e.overlayMs; }), median([](const EditTimes& e) { return e.paintMs; }),
                       median([](const EditTimes& e) { return e.outsideEngineMs(); }));
    std::printf("  also (median ms): Qt's event queues %.2f (to the worker %.2f, waiting for the paint %.2f), panels and "
                "tables %.2f, request to overlay drawn %.2f; after it, timing charts and log %.2f\n",
                median([](const EditTimes& e) { return e.queueMs; }), median([](const EditTimes& e) { return e.toWorkerMs; }),
                median([](const EditTimes& e) { return e.paintWaitMs; }),
                median([](const EditTimes& e) { return e.showMs; }),
                median([](const EditTimes& e) { return e.totalMs; }),
                median([](const EditTimes& e) { return e.afterOverlayMs; }));
}

void printEdit(const EditTimes& e)
{
    std::printf("  edit #%llu: engine %.2f, result %.2f, queues %.2f, panels %.2f, overlay %.2f, paint %.2f; total %.2f ms"
                "; then charts and log %.2f\n",
                static_cast<unsigned long long>(e.runId), e.engineMs, e.resultMs, e.queueMs, e.showMs, e.overlayMs,
                e.paintMs, e.totalMs, e.afterOverlayMs);
}

bool runAndWait(MainWindow& window)
{
    bool done = false, failed = false;
    auto finished = QObject::connect(&window, &MainWindow::runFinished, [&] { done = true; });
    auto failure = QObject::connect(&window, &MainWindow::runFailed, [&] { failed = true; });
    window.findChild<QAction*>(QStringLiteral("runAction"))->trigger();
    const bool ended = waitUntil([&] { return done || failed; }, 600000);
    QObject::disconnect(finished);
    QObject::disconnect(failure);
    return ended && done && !failed;
}


// 1. The large image: one seed in competitive mode grows the whole image;
// its frames played back, fitted and at 1:1.
bool benchPlayback(MainWindow& window, const QString& folder, int size, const QString& variant)
{
    QElapsedTimer clock;
    clock.start();
    const QString large = writeNoise(folder, size);
    std::printf("wrote a %dx%d 8-bit image in %.0f ms\n", size, size, double(clock.elapsed()));
    clock.restart();
    if (!window.openImage(large))
        return false;
    std::printf("opened it in %.0f ms\n", double(clock.elapsed()));
    window.devicePanel()->setVariant(parseVariant(variant.toStdString()));
    window.importSeeds(writeSeeds(folder, QStringLiteral("%1 %2\n").arg(size / 2).arg(size / 2)));
    window.findChild<QAction*>(QStringLiteral("autoRunAction"))->setChecked(false);
    clock.restart();
    if (!runAndWait(window)) {
        std::fprintf(stderr, "rgx_gui_bench: the %d x %d run failed: %s\n", size, size, qPrintable(window.lastNotice()));
        return false;
    }
    const uint32_t frames = window.result()->iterations;
    std::printf("ran it (%s) in %.0f ms: %u iterations, %d pictures of the regions drawn while it ran\n",
                variant.toUtf8().constData(), double(clock.elapsed()), frames, window.partialPictures());
    // Playback: every frame stepped to and painted, as the play button does.
    PlaybackPanel* playback = window.playbackPanel();
    ImageView* view = window.imageView();
    const uint32_t step = std::max<uint32_t>(1, frames / 120);
    size_t frameCount = 0;
    const auto timePlayback = [&] {
        std::vector<double> frameMs;
        for (uint32_t frame = 0; frame <= frames; frame += step) {
            QElapsedTimer one;
            one.start();
            playback->setFrame(frame);
            view->repaint();
            frameMs.push_back(double(one.nsecsElapsed()) / 1e6);
        }
        frameCount = frameMs.size();
        return bench::spreadOf(frameMs);
    };
    const bench::Spread playbackMs = timePlayback();
    std::printf("playback %dx%d, whole view (%dx%d): %.2f ms per frame median (%.2f..%.2f) = %.1f frames per second, %zu frames\n",
                size, size, view->width(), view->height(), playbackMs.median, playbackMs.min, playbackMs.max,
                1000.0 / playbackMs.median, frameCount);
    view->zoomActualSize();
    const bench::Spread closeMs = timePlayback();
    std::printf("playback at 1:1: %.2f ms per frame median (%.2f..%.2f) = %.1f frames per second\n", closeMs.median,
                closeMs.min, closeMs.max, 1000.0 / closeMs.median);
    std::printf("peak memory with the %dx%d image and its run: %.0f MB\n", size, size, peakMegabytes());
    return true;
}

// 4. A volume (issue 27): seed clicks shown on the three slice views, slice
// steps, memory.
struct VolumeBenchOptions {
    int size = 0;
    QString variant;
    int range = 20;
    int repeats = 10;
    int steps = 30;
};

// A field of /proc/self/status ("VmHWM", "VmRSS") in MiB; 0 where absent.
double statusMegabytes(const char* field)
{
    std::ifstream status("/proc/self/status");
    const std::string key = std::string(field) + ':';
    std::string line;
    while (std::getline(status, line))
        if (line.compare(0, key.size(), key) == 0)
            return std::strtod(line.c_str() + key.size(), nullptr) / 1024.0; // kB
    return 0;
}

QString voxelsText(uint64_t voxels)
{
    if (voxels >= 10000000)
        return QStringLiteral("%1 M").arg(double(voxels) / 1e6, 0, 'f', 0);
    if (voxels >= 1000000)
        return QStringLiteral("%1 M").arg(double(voxels) / 1e6, 0, 'f', 1);
    if (voxels >= 10000)
        return QStringLiteral("%1 k").arg(double(voxels) / 1e3, 0, 'f', 0);
    return QString::number(voxels);
}

QString seedText(const Seed& seed) { return QStringLiteral("(%1,%2,%3)").arg(seed.x).arg(seed.y).arg(seed.z); }

// One seed click, from the click to the new overlay painted on all three views.
struct VolumeClick {
    bool background = true;
    Plane plane = Plane::Axial;
    Seed target; // the voxel clicked at
    Seed made;   // the seed the click made
    double engineMs = 0, resultMs = 0, overlayMs = 0, paintMs = 0, totalMs = 0;
    double toRequestMs = 0, queueMs = 0, showMs = 0, firstViewMs = 0;
    double oldPaintMs = 0; // the views painting before the new region: the crosshair's move, the old region
    uint64_t voxels = 0;
    uint32_t iterations = 0;
    double outsideEngineMs() const { return totalMs - engineMs; }
};

class VolumeBenchRun {
public:
    VolumeBenchRun(MainWindow& window, const VolumeBenchOptions& options) : window_(window), options_(options)
    {
        VolumeView* volume = window_.volumeView();
        for (Plane plane : allPlanes) {
            const size_t i = size_t(plane);
            SliceView* view = volume->sliceView(plane);
            QObject::connect(view, &ImageView::painted, &window_, [this, view, i] {
                const qint64 now = steadyNs();
                ++paintCount_[i];
                paintEndNs_[i] = now;
                paintTimes_[i] = view->lastPaint();
                const GrowResult* shown = window_.result().get();
                if (watching_ && !drewNew_[i] && shown && shown != before_) {
                    drewNew_[i] = true;
                    newEndNs_[i] = now;
                    newTimes_[i] = view->lastPaint();
                } else if (watching_ && !drewNew_[i]) {
                    oldPaintMs_ += view->lastPaint().totalMs;
                }
            });
        }
        QObject::connect(window_.runs(), &RunController::runSubmitted, &window_, [this](quint64 id) {
            submittedId_ = id;
            submittedNs_ = steadyNs();
        });
        QObject::connect(&window_, &MainWindow::runFailed, &window_, [this](const QString& message) {
            failure_ = message.isEmpty() ? QStringLiteral("the run failed") : message;
        });
    }

    int run();

private:
    bool open(const QString& name, std::shared_ptr<const LumaImage> volume);
    bool click(Plane plane, const Seed& target, bool background, VolumeClick& click);
    bool undoClick();
    void printClicks(const QString& title, const std::vector<VolumeClick>& clicks) const;
    bool scroll(Plane plane);

    MainWindow& window_;
    const VolumeBenchOptions options_;
    std::array<int, 3> paintCount_{};
    std::array<qint64, 3> paintEndNs_{};
    std::array<ImageView::PaintTimes, 3> paintTimes_{};
    // A click's watch: the first paint of each view while the window shows
    // a result other than the one before the click.
    bool watching_ = false;
    const GrowResult* before_ = nullptr;
    std::array<bool, 3> drewNew_{};
    std::array<qint64, 3> newEndNs_{};
    std::array<ImageView::PaintTimes, 3> newTimes_{};
    double oldPaintMs_ = 0; // the paints before the new region (the click moved the crosshair)
    quint64 submittedId_ = 0;
    qint64 submittedNs_ = 0;
    QString failure_;
    bool quiet_ = false; // the warm-up's click is not printed
};

// A volume opened in the window, as File > Open opens one, with mode range
// +-R, 6-connected, live on by hand, the views fitted.
bool VolumeBenchRun::open(const QString& name, std::shared_ptr<const LumaImage> volume)
{
    if (!window_.openVolume(name, std::move(volume)) || !window_.document()->isVolume()) {
        std::fprintf(stderr, "rgx_gui_bench: the volume did not open: %s\n", qPrintable(window_.lastNotice()));
        return false;
    }
    PipelineParams params = window_.parametersPanel()->params();
    params.grow.mode = Mode::Range;
    params.grow.lower = uint32_t(options_.range);
    params.grow.upper = uint32_t(options_.range);
    params.grow.connectivity = 6;
    window_.parametersPanel()->setParams(params);
    QAction* live = window_.findChild<QAction*>(QStringLiteral("autoRunAction"));
    if (!live->isChecked())
        live->trigger();
    window_.volumeView()->zoomToFit();
    waitFor(200);
    return true;
}

// A left click on `plane`'s view at `target` (its slice shown first, as a
// user scrolls to it), timed from the click to the paint that drew the new
// region on the last of the three views.
bool VolumeBenchRun::click(Plane plane, const Seed& target, bool background, VolumeClick& click)
{
    VolumeView* volume = window_.volumeView();
    SliceView* view = volume->sliceView(plane);
    volume->setSlice(plane, sliceOf(plane, target));
    waitFor(30);
    const QPoint pixel = slicePixel(plane, target, VolumeSize::of(*window_.luma()));
    const QPoint at = view->pixelCentre(pixel.x(), pixel.y()).toPoint();
    const GrowResultPtr before = window_.result(); // kept: its address is not reused meanwhile
    before_ = before.get();
    drewNew_ = {};
    oldPaintMs_ = 0;
    watching_ = true;
    failure_.clear();
    const quint64 submittedBefore = submittedId_;
    const qint64 startNs = steadyNs();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
    const bool drawn = waitUntil([&] {
        return !failure_.isEmpty() || (drewNew_[0] && drewNew_[1] && drewNew_[2] && !window_.isRunning());
    }, 600000);
    watching_ = false;
    if (!drawn || !failure_.isEmpty()) {
        std::fprintf(stderr, "rgx_gui_bench: the click at %s on the %s view %s\n", qPrintable(seedText(target)),
                     qPrintable(planeName(plane).toLower()),
                     failure_.isEmpty() ? "was not drawn on all three views within 600 s" : qPrintable(failure_));
        return false;
    }
    const EditTimes& edit = window_.runs()->lastEdit();
    if (submittedId_ == submittedBefore || edit.runId != submittedId_ || window_.seeds().empty()) {
        std::fprintf(stderr, "rgx_gui_bench: the click at %s made no run of its own\n", qPrintable(seedText(target)));
        return false;
    }
    click.background = background;
    click.plane = plane;
    click.target = target;
    click.made = window_.seeds().back();
    click.engineMs = edit.engineMs;
    click.resultMs = edit.resultMs;
    click.queueMs = edit.queueMs;
    click.showMs = edit.showMs;
    click.toRequestMs = double(submittedNs_ - startNs) / 1e6;
    click.oldPaintMs = oldPaintMs_;
    click.overlayMs = click.paintMs = 0;
    qint64 lastNs = startNs;
    for (size_t i = 0; i < 3; ++i) {
        click.overlayMs += newTimes_[i].renderMs;
        click.paintMs += newTimes_[i].totalMs - newTimes_[i].renderMs;
        lastNs = std::max(lastNs, newEndNs_[i]);
    }
    click.totalMs = double(lastNs - startNs) / 1e6;
    click.firstViewMs = double(std::min({newEndNs_[0], newEndNs_[1], newEndNs_[2]}) - startNs) / 1e6;
    const GrowResultPtr result = window_.result();
    click.voxels = result->regions.empty() ? 0 : result->regions[0].count;
    click.iterations = result->iterations;
    if (!quiet_)
        std::printf("  click on the %s view at %s (%s, seed %s): engine %.2f, result %.2f, overlay %.2f, paint %.2f; "
                    "click to the three views %.2f ms (the first %.2f); %s voxels, %u levels\n",
                    qPrintable(planeName(plane).toLower()), qPrintable(seedText(target)),
                    background ? "background" : "ball", qPrintable(seedText(click.made)), click.engineMs, click.resultMs,
                    click.overlayMs, click.paintMs, click.totalMs, click.firstViewMs, qPrintable(voxelsText(click.voxels)),
                    click.iterations);
    std::fflush(stdout);
    return true;
}

// The seed goes again (no run: no seed is left), the region stays shown.
bool VolumeBenchRun::undoClick()
{
    window_.undoStack()->undo();
    waitFor(30);
    if (!window_.seeds().empty()) {
        std::fprintf(stderr, "rgx_gui_bench: undo left %zu seed(s)\n", window_.seeds().size());
        return false;
    }
    return true;
}

void VolumeBenchRun::printClicks(const QString& title, const std::vector<VolumeClick>& clicks) const
{
    uint64_t fewest = clicks.front().voxels, most = fewest;
    for (const VolumeClick& click : clicks) {
        fewest = std::min(fewest, click.voxels);
        most = std::max(most, click.voxels);
    }
    const QString voxels = fewest == most ? voxelsText(most) : voxelsText(fewest) + QStringLiteral("..") + voxelsText(most);
    std::printf("volume %d^3 %s (%s, %s voxels%s)\n", options_.size, qPrintable(title),
                clicks.front().background ? "background" : "ball", qPrintable(voxels),
                title.startsWith(QStringLiteral("first")) ? "; the volume resident before it" : "");
    const auto spread = [&](auto part) {
        std::vector<double> values;
        for (const VolumeClick& click : clicks)
            values.push_back(part(click));
        return bench::spreadOf(values);
    };
    const auto median = [&](auto part) { return spread(part).median; };
    printBreakdownLine(median([](const VolumeClick& c) { return c.engineMs; }),
                       median([](const VolumeClick& c) { return c.resultMs; }),
                       median([](const VolumeClick& c) { return c.overlayMs; }),
                       median([](const VolumeClick& c) { return c.paintMs; }),
                       median([](const VolumeClick& c) { return c.outsideEngineMs(); }));
    const bench::Spread total = spread([](const VolumeClick& c) { return c.totalMs; });
    std::printf("  also (median ms): click to request %.2f (the views' paints before the new region %.2f), Qt's "
                "event queues %.2f, panels and tables %.2f; click to the new region on all three views %.2f "
                "(%.2f..%.2f), on the first %.2f; %zu click(s), overlay and paint summed over the three views\n",
                median([](const VolumeClick& c) { return c.toRequestMs; }),
                median([](const VolumeClick& c) { return c.oldPaintMs; }),
                median([](const VolumeClick& c) { return c.queueMs; }),
                median([](const VolumeClick& c) { return c.showMs; }), total.median, total.min, total.max,
                median([](const VolumeClick& c) { return c.firstViewMs; }), clicks.size());
}

// Page Down steps on one view, each from the key to the end of the paints
// it caused (the view's new slice, the crosshair lines of the others).
bool VolumeBenchRun::scroll(Plane plane)
{
    VolumeView* volume = window_.volumeView();
    SliceView* view = volume->sliceView(plane);
    const int slices = sliceCount(plane, VolumeSize::of(*window_.luma()));
    const int steps = std::min(options_.steps, slices - 1);
    volume->setSlice(plane, std::min(slices - 1, slices / 2 + steps / 2));
    waitFor(100);
    std::vector<double> stepMs, renderMs;
    for (int step = 0; step < steps; ++step) {
        const std::array<int, 3> before = paintCount_;
        const size_t i = size_t(plane);
        const qint64 startNs = steadyNs();
        QTest::keyClick(view, Qt::Key_PageDown);
        if (!waitUntil([&] { return paintCount_[i] > before[i]; }, 10000)) {
            std::fprintf(stderr, "rgx_gui_bench: a Page Down on the %s view was not painted within 10 s\n",
                         qPrintable(planeName(plane).toLower()));
            return false;
        }
        qint64 lastNs = paintEndNs_[i];
        for (size_t other = 0; other < 3; ++other)
            if (paintCount_[other] > before[other])
                lastNs = std::max(lastNs, paintEndNs_[other]);
        stepMs.push_back(double(lastNs - startNs) / 1e6);
        renderMs.push_back(paintTimes_[i].renderMs);
        waitFor(5);
    }
    const bench::Spread spread = bench::spreadOf(stepMs);
    std::printf("volume %d^3 scroll %s (%dx%d view): Page Down to paint %.2f ms median (%.2f..%.2f) = %.0f frames "
                "per second; its slice rendered in %.2f ms median; %d steps\n",
                options_.size, qPrintable(planeName(plane).toLower()), view->width(), view->height(), spread.median,
                spread.min, spread.max, 1000.0 / spread.median, bench::spreadOf(renderMs).median, steps);
    return true;
}

int VolumeBenchRun::run()
{
    const int n = options_.size;
    if (!options_.variant.isEmpty() && !window_.setVariantText(options_.variant))
        return 3;
    const DeviceInfo* device = window_.devicePanel()->currentDevice();
    std::printf("device: %s; variant %s\n", device ? device->name.c_str() : "?",
                window_.devicePanel()->variant().text().c_str());

    // The programs built on a small phantom first, untimed: the first click
    // below uploads the volume and makes the buffers, builds nothing.
    {
        bench::Phantom small = bench::makePhantom(16, 1);
        if (!open(QStringLiteral("phantom-16"), std::make_shared<const LumaImage>(std::move(small.volume))))
            return 3;
        VolumeClick warm;
        quiet_ = true;
        if (!click(Plane::Axial, Seed{0, 0, 8}, true, warm) || !undoClick())
            return 3;
        quiet_ = false;
        std::printf("programs built first by a click on a 16^3 phantom (untimed)\n");
    }

    QElapsedTimer clock;
    clock.start();
    bench::Phantom phantom = bench::makePhantom(n, 1);
    const std::vector<bench::PhantomSphere> balls = phantom.spheres;
    const uint16_t background = phantom.background;
    const int noise = phantom.noise;
    auto volume = std::make_shared<const LumaImage>(std::move(phantom.volume));
    const double volumeMiB = double(volume->luma.size() * sizeof(uint16_t)) / 1048576.0;
    std::printf("volume %d^3: a 16-bit phantom (seed 1) made in memory in %.0f ms: background %u +-%d, %zu balls of "
                "their own levels +-%d; mode range +-%d, 6-connected, live on\n",
                n, double(clock.elapsed()), background, noise, balls.size(), noise, options_.range);
    clock.restart();
    // The window puts a volume it opens onto the device at once; a user
    // looks before clicking, so the first click waits for none of that.
    QSignalSpy resident(window_.runs(), &RunController::volumeResident);
    if (!open(QStringLiteral("phantom-%1").arg(n), volume))
        return 3;
    VolumeView* view = window_.volumeView();
    if (resident.isEmpty() && !resident.wait(120000)) {
        std::fprintf(stderr, "the volume did not go onto the device within 2 minutes\n");
        return 3;
    }
    std::printf("volume %d^3 resident before the first click: %.0f ms (upload, host memory for the maps)\n", n,
                resident.front().front().toDouble());
    std::printf("opened it in the window in %.0f ms; views: axial %dx%d, coronal %dx%d, sagittal %dx%d\n",
                double(clock.elapsed()), view->sliceView(Plane::Axial)->width(), view->sliceView(Plane::Axial)->height(),
                view->sliceView(Plane::Coronal)->width(), view->sliceView(Plane::Coronal)->height(),
                view->sliceView(Plane::Sagittal)->width(), view->sliceView(Plane::Sagittal)->height());

    // Background seeds: a 6x6x6 grid in a scattered order, three voxels or
    // more from every ball; ball seeds: inside the largest ball under a
    // million voxels and a twentieth of the volume (the engine bench's
    // "small"), at half its radius from its centre.
    const auto clearOfBalls = [&](const Seed& seed) {
        return std::none_of(balls.begin(), balls.end(), [&](const bench::PhantomSphere& ball) {
            const double dx = seed.x - ball.x, dy = seed.y - ball.y, dz = seed.z - ball.z;
            return std::sqrt(dx * dx + dy * dy + dz * dz) <= ball.radius + 3;
        });
    };
    const size_t repeats = size_t(std::max(1, options_.repeats));
    std::vector<Seed> backgroundSeeds;
    for (int k = 0; k < 216 && backgroundSeeds.size() < repeats + 1; ++k) {
        const int cell = (k * 139) % 216;
        const Seed seed{(2 * (cell % 6) + 1) * n / 12, (2 * (cell / 6 % 6) + 1) * n / 12, (2 * (cell / 36) + 1) * n / 12};
        if (clearOfBalls(seed))
            backgroundSeeds.push_back(seed);
    }
    const uint64_t smallLimit = std::min<uint64_t>(1000000, volume->pixelCount() / 20);
    const bench::PhantomSphere* ball = nullptr;
    for (const bench::PhantomSphere& sphere : balls)
        if (sphere.voxels < smallLimit && (!ball || sphere.voxels > ball->voxels))
            ball = &sphere;
    if (backgroundSeeds.size() < repeats + 1 || !ball) {
        std::fprintf(stderr, "rgx_gui_bench: the %d^3 phantom has too few background places or no small ball\n", n);
        return 3;
    }
    const int h = int(ball->radius / 2);
    const int offsets[][3] = {{0, 0, 0},   {h, 0, 0},  {0, h, 0},  {0, 0, h},  {-h, 0, 0}, {0, -h, 0},
                              {0, 0, -h},  {h, h, 0},  {-h, 0, h}, {0, -h, -h}, {h, 0, -h}, {-h, h, 0}};
    std::printf("clicks: first on the background, then %zu on a ball of %s voxels (radius %.1f, centre %s) and %zu on "
                "the background in turn, each at another voxel and on the next view (axial, coronal, sagittal), the "
                "seed undone after each\n",
                repeats, qPrintable(voxelsText(ball->voxels)), ball->radius,
                qPrintable(seedText(Seed{ball->x, ball->y, ball->z})), repeats);

    // 1. Clicks.
    std::vector<VolumeClick> first(1), backgroundClicks, ballClicks;
    if (!click(Plane::Axial, backgroundSeeds[0], true, first[0]) || !undoClick())
        return 3;
    if (!window_.result()->note.empty())
        std::printf("  the engine's note: %s\n", window_.result()->note.c_str());
    int viewIndex = 1;
    for (size_t k = 0; k < repeats; ++k) {
        const int* offset = offsets[k % std::size(offsets)];
        const Seed inBall{ball->x + offset[0], ball->y + offset[1], ball->z + offset[2]};
        VolumeClick clicked;
        if (!click(allPlanes[viewIndex++ % 3], inBall, false, clicked) || !undoClick())
            return 3;
        ballClicks.push_back(clicked);
        if (!click(allPlanes[viewIndex++ % 3], backgroundSeeds[k + 1], true, clicked))
            return 3;
        backgroundClicks.push_back(clicked);
        if (k + 1 < repeats && !undoClick()) // the last one stays: its region is shown while scrolling
            return 3;
    }
    printClicks(QStringLiteral("first click"), first);
    printClicks(QStringLiteral("click"), backgroundClicks);
    printClicks(QStringLiteral("click"), ballClicks);
    // 3. Memory, after the clicks.
    std::printf("volume %d^3 memory: the volume %.1f MiB (2 bytes a voxel); peak resident %.0f MiB (VmHWM after the "
                "clicks), resident %.0f MiB now\n",
                n, volumeMiB, statusMegabytes("VmHWM"), statusMegabytes("VmRSS"));
    std::fflush(stdout);

    // 2. Scrolling with the background region shown.
    std::printf("scrolling with the background region of %s voxels shown:\n",
                qPrintable(voxelsText(backgroundClicks.back().voxels)));
    for (Plane plane : allPlanes)
        if (!scroll(plane))
            return 3;
    std::printf("volume %d^3 memory after scrolling: peak resident %.0f MiB (VmHWM)\n", n, statusMegabytes("VmHWM"));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("RGX-bench"));
    QCommandLineParser parser;
    const QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Playback image side."), QStringLiteral("N"), QStringLiteral("8192"));
    const QCommandLineOption dragOption(QStringLiteral("drag-size"), QStringLiteral("Drag image side."), QStringLiteral("N"), QStringLiteral("1024"));
    const QCommandLineOption deviceOption(QStringLiteral("device"), QStringLiteral("Device."), QStringLiteral("D"), QString());
    const QCommandLineOption variantOption(QStringLiteral("variant"), QStringLiteral("Variant of the large run."), QStringLiteral("V"),
                                           QStringLiteral("fusion=tiles"));
    const QCommandLineOption dragVariantOption(QStringLiteral("drag-variant"),
                                               QStringLiteral("Variant of the drag (default: the explorer's own choice)."),
                                               QStringLiteral("V"), QString());
    const QCommandLineOption dragRangeOption(QStringLiteral("drag-range"), QStringLiteral("Range mode +-R of the drag."),
                                             QStringLiteral("R"), QStringLiteral("30"));
    const QCommandLineOption dragSeedsOption(QStringLiteral("drag-seeds"), QStringLiteral("Seeds in the dragged image."),
                                             QStringLiteral("K"), QStringLiteral("1"));
    const QCommandLineOption coinsOption(QStringLiteral("coins"), QStringLiteral("The coins sample (clicks with 25 seeds)."),
                                         QStringLiteral("FILE"), QString());
    const QCommandLineOption volumeOption(QStringLiteral("volume"),
                                          QStringLiteral("A synthetic N^3 16-bit volume instead of the images: seed "
                                                         "clicks on three views, slice steps, memory."),
                                          QStringLiteral("N"));
    const QCommandLineOption volumeVariantOption(QStringLiteral("volume-variant"), QStringLiteral("Variant of the volume's clicks."),
                                                 QStringLiteral("V"),
                                                 QStringLiteral("driver=host-batched,frontier=queue,collectives=local,fusion=tiles"));
    const QCommandLineOption volumeRepeatsOption(QStringLiteral("volume-repeats"),
                                                 QStringLiteral("Resident clicks on the background, and on a ball."),
                                                 QStringLiteral("K"), QStringLiteral("10"));
    const QCommandLineOption volumeStepsOption(QStringLiteral("volume-steps"), QStringLiteral("Page Down steps per view."),
                                               QStringLiteral("K"), QStringLiteral("30"));
    const QCommandLineOption firstClickOption(QStringLiteral("first-click"),
                                              QStringLiteral("Only a first Run, S seconds after the image opened."),
                                              QStringLiteral("S"));
    parser.addOptions({sizeOption, dragOption, deviceOption, variantOption, dragVariantOption, dragRangeOption,
                       dragSeedsOption, coinsOption, volumeOption, volumeVariantOption, volumeRepeatsOption,
                       volumeStepsOption, firstClickOption});
    parser.addHelpOption();
    parser.process(app);
    const int size = parser.value(sizeOption).toInt();
    const int dragSize = parser.value(dragOption).toInt();
    VolumeBenchOptions volumeOptions;
    if (parser.isSet(volumeOption)) {
        bool valid = false;
        volumeOptions.size = parser.value(volumeOption).toInt(&valid);
        volumeOptions.variant = parser.value(volumeVariantOption);
        volumeOptions.range = parser.isSet(dragRangeOption) ? parser.value(dragRangeOption).toInt() : 20;
        volumeOptions.repeats = parser.value(volumeRepeatsOption).toInt();
        volumeOptions.steps = parser.value(volumeStepsOption).toInt();
        if (!valid || volumeOptions.size < 16 || volumeOptions.size > 2048 || volumeOptions.range < 0
            || volumeOptions.repeats < 1 || volumeOptions.steps < 1) {
            std::fprintf(stderr, "rgx_gui_bench: --volume takes a side of 16 to 2048 voxels, --volume-repeats and "
                                 "--volume-steps a count of 1 or more, --drag-range 0 or more\n");
            return 2;
        }
    }
    QTemporaryDir folder;

    MainWindowOptions options;
    options.restoreSettings = false;
    options.preferredDevice = parser.value(deviceOption);
    MainWindow window(options);
    window.resize(1500, 950);
    window.show();
    if (!waitUntil([&] { return window.devicesReady(); }, 60000)) {
        std::fprintf(stderr, "rgx_gui_bench: no device list\n");
        return 3;
    }

    std::vector<EditTimes> edits;
    QObject::connect(&window, &MainWindow::runFinished, [&](quint64 id) {
        if (window.runs()->lastEdit().runId == id)
            edits.push_back(window.runs()->lastEdit());
    });
    if (volumeOptions.size > 0) {
        VolumeBenchRun volumeBench(window, volumeOptions);
        const int status = volumeBench.run();
        std::printf("peak memory over the whole bench: %.0f MB\n", peakMegabytes());
        return status;
    }
    if (parser.isSet(firstClickOption))
        return benchFirstClick(window, folder.path(), dragSize, parser.value(dragVariantOption),
                               parser.value(firstClickOption).toDouble(), edits);
    if (size > 0 && !benchPlayback(window, folder.path(), size, parser.value(variantOption)))
        return 3;

    // 2. A seed dragged in live mode, on the chosen device: request to overlay drawn, and where it went.
    ImageView* view = window.imageView();
    const QString small = writeNoise(folder.path(), dragSize);
    if (!window.openImage(small))
        return 3;
    const QString dragVariant = parser.value(dragVariantOption);
    if (!dragVariant.isEmpty() && !window.setVariantText(dragVariant))
        return 3;
    const int range = parser.value(dragRangeOption).toInt();
    const int seedCount = std::max(1, parser.value(dragSeedsOption).toInt());
    window.importSeeds(writeSeeds(folder.path(), dragSeeds(dragSize, range, seedCount)));
    if (!startLive(window))
        return 3;
    edits.clear();
    const QPointF start = view->pixelCentre(dragSize / 2, dragSize / 2);
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, start.toPoint());
    for (int i = 1; i <= 40; ++i) {
        QTest::mouseMove(view, (start + QPointF(i * 4, i * 2)).toPoint());
        waitFor(60);
    }
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, (start + QPointF(160, 80)).toPoint());
    if (!waitUntil([&] { return !window.isRunning(); }, 60000)) {
        std::fprintf(stderr, "rgx_gui_bench: the last drag run did not end within 60 s\n");
        return 3;
    }
    waitFor(100);
    for (const EditTimes& edit : edits)
        printEdit(edit);
    std::vector<double> latencyMs;
    for (const EditTimes& edit : edits)
        latencyMs.push_back(edit.totalMs);
    const bench::Spread dragMs = bench::spreadOf(latencyMs);
    const bool liveStayedOn = window.findChild<QAction*>(QStringLiteral("autoRunAction"))->isChecked();
    std::printf("drag on %dx%d (range +-%d, %d seed(s), %s, view %dx%d): %zu runs while moving, request to overlay "
                "%.1f ms median (%.1f..%.1f); live %s\n",
                dragSize, dragSize, range, seedCount,
                window.devicePanel()->variant().text().c_str(), view->width(), view->height(), latencyMs.size(),
                dragMs.median, dragMs.min, dragMs.max, liveStayedOn ? "on" : "OFF");
    printBreakdown(edits);

    // 3. Clicks on the coins sample: 25 seeds, competitive; each click adds a seed, undo takes it away.
    const QString coins = parser.value(coinsOption);
    if (!coins.isEmpty() && window.openImage(coins)) {
        window.importSeeds(QFileInfo(coins).path() + QStringLiteral("/coins.seeds"));
        PipelineParams params = window.parametersPanel()->params();
        params.grow.mode = Mode::Competitive;
        window.parametersPanel()->setParams(params);
        if (!startLive(window))
            return 3;
        edits.clear();
        for (int i = 0; i < 10; ++i) {
            const size_t before = edits.size();
            QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->pixelCentre(40 + 3 * i, 150).toPoint());
            if (!waitUntil([&] { return edits.size() > before && !window.isRunning(); }, 30000))
                return 3;
            window.undoStack()->undo();
            if (!waitUntil([&] { return edits.size() > before + 1 && !window.isRunning(); }, 30000))
                return 3;
        }
        std::printf("coins sample, %zu seeds, competitive, %s: %zu clicks and undos\n", window.seeds().size(),
                    window.devicePanel()->variant().text().c_str(), edits.size());
        printBreakdown(edits);
    }
    std::printf("peak memory over the whole bench: %.0f MB\n", peakMegabytes());
    return 0;
}
