// The device and variant panel on its own: which variant it opens on for a
// device (the fastest there, rgx::fastestVariantOn), that a choice by hand
// sticks, and what it says about the fastest variant and the chosen one.
#include "DevicePanel.h"
#include "GuiTestSupport.h"
#include <QComboBox>
#include <QLabel>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace rgx;
using namespace rgx::ui;
using namespace rgx::ui::testing;

namespace {

template <typename T>
T* child(const QObject* parent, const char* name)
{
    return parent->findChild<T*>(QString::fromLatin1(name));
}

DeviceInfo device(int platform, const std::string& name, const std::string& type, const std::string& platformName)
{
    DeviceInfo info;
    info.platformIndex = platform;
    info.name = name;
    info.type = type;
    info.platformName = platformName;
    info.openClCVersion = "OpenCL C 1.2";
    return info;
}

GrowVariant tiles()
{
    GrowVariant variant;
    variant.fusion = Fusion::Tiles;
    return variant;
}

} // namespace

class DevicePanelTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void aGpuOpensOnTheTileDriverACpuRuntimeOnHostBatched();
    void aVariantChosenByHandSticksAcrossDevices();
    void theDeviceListNamesEachDevicesPlatform();
    void thePanelComparesTheChosenVariantWithTheFastestOnTheSameInputs();
    void theCombosFormNoVariantTheCommandLineRefuses();

private:
    // The line as read: without the zero-width spaces that let it wrap.
    QString fastestLine() const
    {
        return child<QLabel>(panel_.get(), "fastestVariantLine")->text().remove(QChar(0x200B));
    }

    std::unique_ptr<DevicePanel> panel_;
    const DeviceInfo cpu_ = device(0, "AMD EPYC", "CPU", "Portable Computing Language");
    const DeviceInfo gpu_ = device(1, "NVIDIA H100 80GB HBM3", "GPU", "NVIDIA CUDA");
    const DeviceInfo simulator_ = device(2, "Oclgrind Simulator", "GPU", "Oclgrind");
};

void DevicePanelTest::init()
{
    panel_ = std::make_unique<DevicePanel>();
    panel_->setDevices({cpu_, gpu_, simulator_}, cpu_.id());
}

void DevicePanelTest::cleanup() { panel_.reset(); }

void DevicePanelTest::aGpuOpensOnTheTileDriverACpuRuntimeOnHostBatched()
{
    QCOMPARE(panel_->variant(), GrowVariant{});
    QVERIFY(!panel_->variantChosen());
    QVERIFY2(fastestLine().contains(QStringLiteral("host-batched/queue/atomics")), qPrintable(fastestLine()));
    QVERIFY(panel_->selectDevice(gpu_.id()));
    QCOMPARE(panel_->variant(), tiles());
    QVERIFY2(fastestLine().contains(QStringLiteral("tiles")), qPrintable(fastestLine()));
    // A simulator reports itself as a GPU; it gets the default variant.
    QVERIFY(panel_->selectDevice(simulator_.id()));
    QCOMPARE(panel_->variant(), GrowVariant{});
    QVERIFY(panel_->selectDevice(cpu_.id()));
    QCOMPARE(panel_->variant(), GrowVariant{});
}

void DevicePanelTest::theDeviceListNamesEachDevicesPlatform()
{
    // Intel's CPU runtime names the CPU it runs on, not itself: the platform says which runtime it is.
    auto* list = child<QTreeWidget>(panel_.get(), "deviceList");
    QCOMPARE(list->topLevelItemCount(), 3);
    QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("0:0  AMD EPYC (Portable Computing Language)"));
    QCOMPARE(list->topLevelItem(1)->text(0), QStringLiteral("1:0  NVIDIA H100 80GB HBM3 (NVIDIA CUDA)"));
}

void DevicePanelTest::aVariantChosenByHandSticksAcrossDevices()
{
    auto* driver = child<QComboBox>(panel_.get(), "driverCombo");
    driver->setCurrentIndex(driver->findData(int(Driver::HostSync)));
    QVERIFY(panel_->variantChosen());
    QVERIFY(panel_->selectDevice(gpu_.id()));
    QCOMPARE(panel_->variant().driver, Driver::HostSync);
    QVERIFY(panel_->selectDevice(cpu_.id()));
    QCOMPARE(panel_->variant().driver, Driver::HostSync);
    // "Use the fastest here" goes back to following the device.
    auto* fastest = child<QToolButton>(panel_.get(), "fastestVariantButton");
    QVERIFY(!fastest->isHidden());
    fastest->click();
    QVERIFY(!panel_->variantChosen());
    QCOMPARE(panel_->variant(), GrowVariant{});
    QVERIFY(panel_->selectDevice(gpu_.id()));
    QCOMPARE(panel_->variant(), tiles());
}

void DevicePanelTest::thePanelComparesTheChosenVariantWithTheFastestOnTheSameInputs()
{
    QVERIFY(panel_->selectDevice(gpu_.id()));
    GrowVariant hostSync;
    hostSync.driver = Driver::HostSync;
    panel_->noteRunTime(gpu_.id(), tiles(), "image A, seeds 1", 0.5);
    panel_->setVariant(hostSync);
    QVERIFY2(fastestLine().contains(QStringLiteral("Run both on the same seeds")), qPrintable(fastestLine()));
    panel_->noteRunTime(gpu_.id(), hostSync, "image A, seeds 1", 25.0);
    QVERIFY2(fastestLine().contains(QStringLiteral("25.0 ms")) && fastestLine().contains(QStringLiteral("0.50 ms"))
                 && fastestLine().contains(QStringLiteral("50.0x slower")),
             qPrintable(fastestLine()));
    // Other inputs: the old times no longer compare.
    panel_->noteRunTime(gpu_.id(), hostSync, "image A, seeds 2", 30.0);
    QVERIFY2(!fastestLine().contains(QStringLiteral("slower")), qPrintable(fastestLine()));
}

// The monkey test (issue 28): collectives local-nobarrier chosen while fusion
// was tiles made a variant that parseVariant refuses, so a session saved
// with it could not be opened again. The axis not just chosen follows.
void DevicePanelTest::theCombosFormNoVariantTheCommandLineRefuses()
{
    auto choose = [&](const char* name, int value) {
        auto* combo = child<QComboBox>(panel_.get(), name);
        combo->setCurrentIndex(combo->findData(value));
    };
    panel_->setVariant(tiles());
    choose("collectivesCombo", int(Collectives::LocalNoBarrier));
    QCOMPARE(panel_->variant().collectives, Collectives::LocalNoBarrier);
    QCOMPARE(panel_->variant().fusion, Fusion::None);
    QCOMPARE(parseVariant(panel_->variant().text()), panel_->variant());

    choose("fusionCombo", int(Fusion::Tiles));
    QCOMPARE(panel_->variant().fusion, Fusion::Tiles);
    QCOMPARE(panel_->variant().collectives, Collectives::Local);
    QCOMPARE(parseVariant(panel_->variant().text()), panel_->variant());
}

QTEST_MAIN(DevicePanelTest)
#include "DevicePanelTest.moc"

