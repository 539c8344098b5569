// The residency lab's tab on its own (offscreen): it explains the rule
// before any run, its Run button waits for a device and the engine, and a
// run happens on the engine thread (the GUI's event loop keeps turning)
// and shows the resident count, the roll call's verdict on a launch with
// more, and the fallback's two runs.
#include "EngineWorker.h"
#include "LabPanel.h"
#include "ResidencyLabPanel.h"
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

using namespace rgx;
using namespace rgx::ui;

namespace {

template <typename T>
T* child(const QObject* parent, const char* name)
{
    return parent->findChild<T*>(QString::fromLatin1(name));
}

} // namespace

class ResidencyLabPanelTest : public QObject {
    Q_OBJECT

private slots:
    void theRuleIsExplainedBeforeAnyRun();
    void runWaitsForADeviceAndTheEngine();
    void aRunOnTheEngineThreadShowsTheResidentCountAndTheVerdict();
};

void ResidencyLabPanelTest::theRuleIsExplainedBeforeAnyRun()
{
    LabPanel lab;
    lab.show();
    auto* tabs = child<QTabWidget>(&lab, "labTabs");
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 2);
    lab.showResidencyLab();
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(lab.residencyLab()));
    const QString rule = child<QLabel>(lab.residencyLab(), "residencyRule")->text();
    for (const char* words : {"resident", "deadlock", "Sorensen", "OOPSLA 2016", "roll call", "one launch per level"})
        QVERIFY2(rule.contains(QLatin1String(words)), words);
}

void ResidencyLabPanelTest::runWaitsForADeviceAndTheEngine()
{
    ResidencyLabPanel panel;
    auto* run = child<QPushButton>(&panel, "residencyRunButton");
    QVERIFY(!run->isEnabled());
    const DeviceInfo device = selectDevice("");
    panel.setDevice(&device);
    QVERIFY(!run->isEnabled()); // no engine yet
    QVERIFY(child<QLabel>(&panel, "residencyDeviceNote")->text().contains(QString::fromStdString(device.name)));
    EngineThread engine;
    panel.attachEngine(engine.worker());
    QVERIFY(run->isEnabled());
    panel.setDevice(nullptr);
    QVERIFY(!run->isEnabled());
}

void ResidencyLabPanelTest::aRunOnTheEngineThreadShowsTheResidentCountAndTheVerdict()
{
    EngineThread engine;
    LabPanel lab;
    lab.attachEngine(engine.worker());
    const DeviceInfo device = selectDevice("");
    lab.setDevice(&device);
    lab.show();
    lab.showResidencyLab();
    ResidencyLabPanel* panel = lab.residencyLab();
    ResidencyOptions options;
    options.corridorSize = 32;
    panel->setOptions(options);

    // The GUI thread stays free while the lab runs: a timer keeps firing.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(20);
    QSignalSpy finished(panel, &ResidencyLabPanel::finished);
    auto* run = child<QPushButton>(panel, "residencyRunButton");
    QTest::mouseClick(run, Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QVERIFY(!run->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 180000);
    QVERIFY2(finished.first().first().toBool(), qPrintable(panel->resultText()));
    QVERIFY2(ticks > 5, qPrintable(QStringLiteral("%1 timer ticks during the run").arg(ticks)));
    QVERIFY(run->isEnabled());

    const auto result = panel->lastResult();
    QVERIFY(result);
    QVERIFY(result->residentGroups >= 1);
    QVERIFY(!result->over.resident);
    QVERIFY(result->runsDone && result->forced.fellBack && result->forced.exact && result->fused.exact);
    const QString shown = panel->resultText();
    QVERIFY2(shown.contains(QStringLiteral("Resident work-groups: %1").arg(result->residentGroups)), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("not resident")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("RGX's fused launches: %1").arg(result->fusedGroups)), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("one launch per level")), qPrintable(shown));
}

QTEST_MAIN(ResidencyLabPanelTest)
#include "ResidencyLabPanelTest.moc"
