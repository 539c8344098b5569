// rgx_gui_bench: the explorer measured as a user feels it, offscreen (not a
// CTest test: figures, not assertions; docs/PERFORMANCE.md records them).
//   - playback of an 8192 x 8192 run: frames drawn per second;
//   - a seed dragged in live mode on a 1024 x 1024 image: request to overlay;
//   - the process's peak memory with the 8192 x 8192 image and its run.
// Usage: rgx_gui_bench [--size 8192] [--drag-size 1024] [--device D] [--variant V]
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
#include <QFile>
#include <QLabel>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
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

bool runAndWait(MainWindow& window)
{
    bool done = false, failed = false;
    auto finished = QObject::connect(&window, &MainWindow::runFinished, [&] { done = true; });
    auto failure = QObject::connect(&window, &MainWindow::runFailed, [&] { failed = true; });
    window.findChild<QAction*>(QStringLiteral("runAction"))->trigger();
    const bool ended = QTest::qWaitFor([&] { return done || failed; }, 600000);
    QObject::disconnect(finished);
    QObject::disconnect(failure);
    return ended && done && !failed;
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
    parser.addOptions({sizeOption, dragOption, deviceOption, variantOption});
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
    if (!QTest::qWaitFor([&] { return window.devicesReady(); }, 60000)) {
        std::fprintf(stderr, "rgx_gui_bench: no device list\n");
        return 3;
    }

    // 1. The large image: one seed in competitive mode grows the whole image.
    QElapsedTimer clock;
    clock.start();
    const QString large = writeNoise(folder.path(), size);
    std::printf("wrote a %dx%d 8-bit image in %.0f ms\n", size, size, double(clock.elapsed()));
    clock.restart();
    if (!window.openImage(large))
        return 3;
    std::printf("opened it in %.0f ms\n", double(clock.elapsed()));
    window.devicePanel()->setVariant(parseVariant(parser.value(variantOption).toStdString()));
    window.importSeeds(writeSeeds(folder.path(), QStringLiteral("%1 %2\n").arg(size / 2).arg(size / 2)));
    window.findChild<QAction*>(QStringLiteral("autoRunAction"))->setChecked(false);
    clock.restart();
    if (!runAndWait(window)) {
        std::fprintf(stderr, "rgx_gui_bench: the %d x %d run failed: %s\n", size, size, qPrintable(window.lastNotice()));
        return 3;
    }
    const uint32_t frames = window.result()->iterations;
    std::printf("ran it (%s) in %.0f ms: %u iterations, %d pictures of the regions drawn while it ran\n",
                parser.value(variantOption).toUtf8().constData(), double(clock.elapsed()), frames,
                window.partialPictures());
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

    // 2. A seed dragged in live mode on a smaller image, on the chosen device.
    const QString small = writeNoise(folder.path(), dragSize);
    if (!window.openImage(small))
        return 3;
    window.devicePanel()->setVariant(GrowVariant{});
    window.importSeeds(writeSeeds(folder.path(), QStringLiteral("# parameters: --mode range --lower 30 --upper 30\n%1 %2\n")
                                                     .arg(dragSize / 2).arg(dragSize / 2)));
    // Live chosen by hand, as a user would: it stays on whatever a run costs.
    QAction* live = window.findChild<QAction*>(QStringLiteral("autoRunAction"));
    if (!live->isChecked())
        live->trigger();
    if (!runAndWait(window))
        return 3;
    view->zoomToFit();
    auto* status = window.findChild<QLabel*>(QStringLiteral("runStatus"));
    std::vector<double> latencyMs;
    QObject::connect(&window, &MainWindow::runFinished, [&] {
        const QRegularExpressionMatch match =
            QRegularExpression(QStringLiteral("request to overlay ([0-9.]+) (ms|us|s)")).match(status->text());
        if (match.hasMatch()) {
            const double value = match.captured(1).toDouble();
            latencyMs.push_back(match.captured(2) == QStringLiteral("s") ? value * 1000
                                : match.captured(2) == QStringLiteral("us") ? value / 1000 : value);
        }
    });
    const QPointF start = view->pixelCentre(dragSize / 2, dragSize / 2);
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, start.toPoint());
    for (int i = 1; i <= 40; ++i) {
        QTest::mouseMove(view, (start + QPointF(i * 4, i * 2)).toPoint());
        QTest::qWait(60);
    }
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, (start + QPointF(160, 80)).toPoint());
    if (!QTest::qWaitFor([&] { return !window.isRunning(); }, 60000)) {
        std::fprintf(stderr, "rgx_gui_bench: the last drag run did not end within 60 s\n");
        return 3;
    }
    const bench::Spread dragMs = bench::spreadOf(latencyMs);
    std::printf("drag on %dx%d (range 30, default variant): %zu runs while moving, request to overlay %.1f ms median (%.1f..%.1f)\n",
                dragSize, dragSize, latencyMs.size(), dragMs.median, dragMs.min, dragMs.max);
    std::printf("peak memory over the whole bench: %.0f MB\n", peakMegabytes());
    return 0;
}
