// main of rgx, the explorer: parses the command line, opens the main window
// and, when asked, an image, seeds, a session, a device and a variant.
#include "LabPanel.h"
#include "LessonTour.h"
#include "MainWindow.h"
#include "PlaybackPanel.h"
#include "RaceList.h"
#include "WorkGroupMap.h"
#include "Session.h"
#include "TimingPanel.h"
#include "VolumeView.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>

namespace {

// --help and --version need no display: answer them before any window system.
bool onlyAsksForHelp(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray argument(argv[i]);
        if (argument == "-h" || argument == "--help" || argument == "--help-all" || argument == "-v"
            || argument == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char* argv[])
{
    std::unique_ptr<QCoreApplication> application;
    if (onlyAsksForHelp(argc, argv))
        application = std::make_unique<QCoreApplication>(argc, argv);
    else
        application = std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    QApplication::setOrganizationName(QStringLiteral("RGX"));
    QApplication::setApplicationName(QStringLiteral("rgx"));
    QApplication::setApplicationDisplayName(QStringLiteral("RGX"));
    QApplication::setApplicationVersion(QStringLiteral(RGX_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.rgxexplorer.rgx"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Region Growing eXplorer: watch OpenCL kernels segment images by seeded region growing."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("An image or a session (.rgx or .json) to open."),
                                 QStringLiteral("[file]"));
    const QCommandLineOption seedsFile(QStringLiteral("seeds-file"),
                                       QStringLiteral("Seeds to place: one \"x y\" or \"x,y\" a line; the image then runs at once."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption device(QStringLiteral("device"),
                                    QStringLiteral("Device: \"P:I\", its number N in rgx-cli devices, or part of its platform or device name."),
                                    QStringLiteral("D"));
    const QCommandLineOption variant(QStringLiteral("variant"),
                                     QStringLiteral("Variant: driver=..,frontier=..,collectives=..,tile=.."),
                                     QStringLiteral("V"));
    const QCommandLineOption sample(QStringLiteral("sample"), QStringLiteral("Open a bundled sample: coins, astronaut, or the volumes mni (a brain) and dicom (a CT series)."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run once the devices are listed."));
    const QCommandLineOption differences(QStringLiteral("show-differences"),
                                         QStringLiteral("Start in the corruption view (differences from the CPU reference)."));
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QStringLiteral("After the first run, keep it and run again with variant V, "
                                                    "so that the timing charts compare the two."),
                                     QStringLiteral("V"));
    const QCommandLineOption chart(QStringLiteral("chart"),
                                   QStringLiteral("Show the timing chart NAME enlarged: per-iteration, per-kernel or timeline."),
                                   QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("After the runs, save the window as FILE (PNG) and quit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption lab(QStringLiteral("lab"),
                                 QStringLiteral("Show the binary-search lab and run it with driver D "
                                                "(host-sync, host-batched, device-enqueue) once the devices are listed."),
                                 QStringLiteral("D"));
    const QCommandLineOption fresh(QStringLiteral("no-settings"),
                                   QStringLiteral("Start with the default choices and window layout, and do not save them."));
    const QCommandLineOption checkRaces(QStringLiteral("check-races"),
                                        QStringLiteral("After the run, check the variant for races under Oclgrind "
                                                       "and select a pixel in the middle of its list (the screenshot waits)."));
    const QCommandLineOption hover(QStringLiteral("hover"),
                                   QStringLiteral("Outline the work-group map's cell of pixel X,Y (a volume's voxel X,Y,Z, "
                                                  "the slices moved there) as if the cursor were there."),
                                   QStringLiteral("X,Y[,Z]"));
    const QCommandLineOption frame(QStringLiteral("frame"),
                                   QStringLiteral("After the run, show iteration K in playback; first-difference: the "
                                                  "first iteration that differs from the CPU reference (with --show-differences)."),
                                   QStringLiteral("K"));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
                                    QStringLiteral("Start the tour of a lesson (Help > Lessons): async-copies, "
                                                   "collectives, device-enqueue, vload8 or residency."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption lessonStep(QStringLiteral("lesson-step"),
                                        QStringLiteral("With --lesson: go on to step N (from 1) as each step is "
                                                       "ready; the screenshot waits for step N."),
                                        QStringLiteral("N"));
    parser.addOptions({seedsFile, device, variant, sample, run, differences, compare, chart, screenshot, lab, fresh,
                       checkRaces, hover, frame, lesson, lessonStep});
    parser.process(app);

    rgx::ui::MainWindowOptions options;
    options.preferredDevice = parser.value(device);
    options.restoreSettings = !parser.isSet(fresh);
    options.asksBeforeDiscarding = !parser.isSet(screenshot); // a scripted screenshot never waits on a question
    rgx::ui::MainWindow window(options);
    window.show();

    // Problems with these arguments show in the window like any other error.
    // The variant and the view come first: opening a sample runs it at once.
    if (parser.isSet(variant))
        window.setVariantText(parser.value(variant));
    if (parser.isSet(differences))
        window.setCorruptionView(true);
    if (parser.isSet(chart)) {
        const QString name = parser.value(chart);
        const auto which = name == QLatin1String("per-kernel") ? rgx::ui::TimingPanel::PerKernel
                           : name == QLatin1String("timeline") ? rgx::ui::TimingPanel::Timeline
                                                               : rgx::ui::TimingPanel::PerIteration;
        window.showTimingChart(which);
    }
    bool opened = false;
    bool running = false;
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        const QString file = files.first();
        opened = rgx::ui::isSessionFile(file) ? window.openSession(file) : window.openImage(file);
        if (opened && parser.isSet(seedsFile))
            window.importSeeds(parser.value(seedsFile));
        // An image given with its seeds runs at once, like a sample: one
        // command shows a result.
        const bool seeded = opened && parser.isSet(seedsFile) && !window.seeds().empty();
        if (opened && (seeded || parser.isSet(run) || parser.isSet(screenshot) || parser.isSet(compare))) {
            window.runNow();
            running = true;
        }
    } else if (parser.isSet(sample)) {
        opened = window.openSample(parser.value(sample));
        // A sample with seeds runs as soon as it is open; one without (the
        // CT series) waits for clicks (and --screenshot does not wait for a run).
        running = opened && !window.seeds().empty();
    }

    // The second run of --compare starts when the first is done.
    int runsLeft = running ? (parser.isSet(compare) ? 2 : 1) : 0;
    const QString compareVariant = parser.value(compare);
    const QString screenshotPath = parser.value(screenshot);
    auto takeScreenshot = [&window, screenshotPath] {
        // Let the charts and the view finish painting first.
        QTimer::singleShot(700, &window, [&window, screenshotPath] {
            const bool saved = window.grab().save(screenshotPath, "PNG");
            std::fprintf(saved ? stdout : stderr, "%s %s\n", saved ? "saved" : "could not save",
                         qPrintable(screenshotPath));
            QApplication::exit(saved ? 0 : 1);
        });
    };
    const QStringList hoverPixel = parser.value(hover).split(QLatin1Char(','));
    auto showHover = [&window, hoverPixel] {
        if (hoverPixel.size() == 3) {
            const rgx::Seed voxel{hoverPixel[0].toInt(), hoverPixel[1].toInt(), hoverPixel[2].toInt()};
            window.volumeView()->setCrosshair(voxel);
            window.workGroupMap()->setHoverVoxel(voxel, true);
        } else if (hoverPixel.size() == 2) {
            window.workGroupMap()->setHover(QPoint(hoverPixel[0].toInt(), hoverPixel[1].toInt()), true);
        } else {
            return;
        }
        window.showRacesDock();
    };
    const QString frameText = parser.value(frame);
    auto showFrame = [&window, frameText] {
        if (frameText.isEmpty())
            return;
        // The corruption view computes the reference with the run: its diff is in.
        const bool first = frameText == QLatin1String("first-difference");
        if (first && (!window.diff() || window.diff()->firstDifferingIteration < 0)) {
            std::fprintf(stderr, "--frame first-difference: nothing differs from the CPU reference\n");
            return;
        }
        window.playbackPanel()->setFrame(first ? uint32_t(window.diff()->firstDifferingIteration) : frameText.toUInt());
    };
    auto afterRun = [&](bool succeeded) {
        if (runsLeft <= 0)
            return;
        --runsLeft;
        if (succeeded && runsLeft == 1) {
            window.keepRun();
            window.setVariantText(compareVariant);
            window.runNow();
            return;
        }
        runsLeft = 0;
        showHover();
        showFrame();
        if (parser.isSet(checkRaces)) {
            // A pixel of the race list selected: its marker centred and drawn apart.
            QObject::connect(&window, &rgx::ui::MainWindow::raceCheckFinished, &window, [&] {
                window.raceList()->selectMarker(int(window.raceList()->markers().size() / 2));
                if (!screenshotPath.isEmpty())
                    takeScreenshot();
            }, Qt::SingleShotConnection);
            window.checkRaces();
            return;
        }
        if (!screenshotPath.isEmpty())
            takeScreenshot();
    };
    QObject::connect(&window, &rgx::ui::MainWindow::runFinished, &window, [&] { afterRun(true); });
    QObject::connect(&window, &rgx::ui::MainWindow::runFailed, &window, [&] { afterRun(false); });
    if (parser.isSet(lesson)) {
        // Each step is ready when its runs are in; the next starts after it.
        rgx::ui::LessonTour* tour = window.lessonTour();
        const int lastStep = std::max(1, parser.isSet(lessonStep) ? parser.value(lessonStep).toInt() : 1) - 1;
        QObject::connect(tour, &rgx::ui::LessonTour::stepReady, &window, [&, tour, lastStep](int step) {
            if (step < lastStep && step + 1 < int(tour->lesson()->steps.size()))
                QTimer::singleShot(0, tour, &rgx::ui::LessonTour::next);
            else if (!screenshotPath.isEmpty())
                takeScreenshot();
        });
        if (!tour->start(parser.value(lesson))) {
            std::fprintf(stderr, "--lesson: no lesson named %s\n", qPrintable(parser.value(lesson)));
            return 2;
        }
    } else if (parser.isSet(lab)) {
        // The lab waits for the device list (it runs on the chosen device);
        // the screenshot, if any, waits for the lab.
        window.showLab();
        const QString driverText = parser.value(lab);
        auto startLab = [&window, driverText] {
            try {
                const rgx::GrowVariant parsed = rgx::parseVariant("driver=" + driverText.toStdString());
                if (!window.labPanel()->setDriver(parsed.driver))
                    std::fprintf(stderr, "--lab: the device cannot run driver %s\n", qPrintable(driverText));
            } catch (const std::exception& error) {
                std::fprintf(stderr, "--lab: %s\n", error.what());
            }
            window.labPanel()->start();
        };
        if (window.devicesReady())
            startLab();
        else
            QObject::connect(&window, &rgx::ui::MainWindow::devicesListed, &window, startLab, Qt::SingleShotConnection);
        if (!screenshotPath.isEmpty() && runsLeft == 0)
            QObject::connect(&window, &rgx::ui::MainWindow::labFinished, &window, takeScreenshot, Qt::SingleShotConnection);
    } else if (!screenshotPath.isEmpty() && runsLeft == 0) {
        takeScreenshot();
    }
    return app.exec();
}
