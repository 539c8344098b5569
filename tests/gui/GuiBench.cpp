// rgx_gui_bench: the explorer measured as a user feels it, offscreen (not a
// CTest test: figures, not assertions; docs/PERFORMANCE.md records them).
//   - playback of an 8192 x 8192 run: frames drawn per second;
//   - a seed dragged in live mode: request to overlay, and per edit where
//     the time went (engine, result built on the host, event queues, the
//     panels, overlay render, paint), summed up in one line per drag
//     (`edit breakdown (median ms): ...`, DESIGN.md's contract);
//   - clicks on the coins sample with its 25 seeds, competitive;
//   - the process's peak memory with the 8192 x 8192 image and its run.
// Usage: rgx_gui_bench [--size 8192 (0: no playback)] [--drag-size 1024]
//        [--drag-variant V] [--drag-range R] [--drag-seeds K] [--device D] [--variant V]
#include "MainWindow.h"
#include "ImageView.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "DevicePanel.h"
#include "Pipeline.h"
#include "bench/BenchInputs.h"
#include "bench/Measure.h"

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
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
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
    std::printf("edit breakdown (median ms): engine %.2f, result %.2f, overlay %.2f, paint %.2f, outside the engine %.2f\n",
                median([](const EditTimes& e) { return e.engineMs; }), median([](const EditTimes& e) { return e.resultMs; }),
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
    parser.addOptions({sizeOption, dragOption, deviceOption, variantOption, dragVariantOption, dragRangeOption,
                       dragSeedsOption, coinsOption});
    parser.addHelpOption();
    parser.process(app);
    const int size = parser.value(sizeOption).toInt();
    const int dragSize = parser.value(dragOption).toInt();
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
