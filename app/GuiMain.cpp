// main of rgx, the explorer: parses the command line, opens the main window
// and, when asked, an image, seeds, a session, a device and a variant.
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RGX"));
    QApplication::setApplicationName(QStringLiteral("rgx"));
    QApplication::setApplicationDisplayName(QStringLiteral("RGX"));
    QApplication::setApplicationVersion(QStringLiteral(RGX_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("rgx"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Region Growing eXplorer: watch OpenCL kernels segment images by seeded region growing."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("An image or a session (.json) to open."),
                                 QStringLiteral("[file]"));
    const QCommandLineOption seedsFile(QStringLiteral("seeds-file"),
                                       QStringLiteral("Seeds to place: one \"x y\" or \"x,y\" a line."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption device(QStringLiteral("device"),
                                    QStringLiteral("Device: \"P:I\" or part of its platform or device name."),
                                    QStringLiteral("D"));
    const QCommandLineOption variant(QStringLiteral("variant"),
                                     QStringLiteral("Variant: driver=..,frontier=..,collectives=..,tile=.."),
                                     QStringLiteral("V"));
    const QCommandLineOption sample(QStringLiteral("sample"), QStringLiteral("Open a bundled sample (coins, astronaut)."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Run once the devices are listed."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("After the first run, save the window as FILE (PNG) and quit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption fresh(QStringLiteral("no-settings"),
                                   QStringLiteral("Start with default choices and window layout, and save none."));
    parser.addOptions({seedsFile, device, variant, sample, run, screenshot, fresh});
    parser.process(app);

    rgx::ui::MainWindowOptions options;
    options.preferredDevice = parser.value(device);
    options.restoreSettings = !parser.isSet(fresh);
    rgx::ui::MainWindow window(options);
    window.show();

    // Problems with these arguments show in the window like any other error.
    bool opened = false;
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        const QString file = files.first();
        opened = QFileInfo(file).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0
                     ? window.openSession(file)
                     : window.openImage(file);
    } else if (parser.isSet(sample)) {
        opened = window.openSample(parser.value(sample));
    }
    if (opened && parser.isSet(seedsFile))
        window.importSeeds(parser.value(seedsFile));
    if (parser.isSet(variant))
        window.setVariantText(parser.value(variant));

    const bool wantsScreenshot = parser.isSet(screenshot);
    if ((parser.isSet(run) || wantsScreenshot) && opened && !parser.isSet(sample))
        window.runNow();
    if (wantsScreenshot) {
        const QString path = parser.value(screenshot);
        auto save = [&window, path] {
            // Let the charts and the view finish painting first.
            QTimer::singleShot(500, &window, [&window, path] {
                const bool saved = window.grab().save(path, "PNG");
                std::fprintf(saved ? stdout : stderr, "%s %s\n", saved ? "saved" : "could not save",
                             qPrintable(path));
                QApplication::exit(saved ? 0 : 1);
            });
        };
        QObject::connect(&window, &rgx::ui::MainWindow::runFinished, &window, save);
        QObject::connect(&window, &rgx::ui::MainWindow::runFailed, &window, save);
        if (!opened)
            save();
    }
    return app.exec();
}
