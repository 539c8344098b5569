// Device list and variant combos; availability comes from rgx::whyUnavailable.
#include "DevicePanel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rgx::ui {

namespace {

// A variant's text ("driver=host-batched,frontier=queue,...") may break after
// its commas and slashes: a label of it then wraps to the dock's width
// instead of widening the dock (a zero-width space after each).
QString breakable(QString text)
{
    text.replace(QLatin1Char(','), QStringLiteral(",\u200B"));
    text.replace(QLatin1Char('/'), QStringLiteral("/\u200B"));
    return text;
}

QString text(const std::string& value) { return QString::fromStdString(value); }

QString megabytes(uint64_t bytes)
{
    if (bytes >= (uint64_t(1) << 30))
        return QStringLiteral("%1 GiB").arg(double(bytes) / double(uint64_t(1) << 30), 0, 'f', 1);
    if (bytes >= (uint64_t(1) << 20))
        return QStringLiteral("%1 MiB").arg(double(bytes) / double(uint64_t(1) << 20), 0, 'f', 0);
    return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 0);
}

// The distinct values of one axis over every variant, in the engine's order.
template <typename Value, typename Get>
std::vector<Value> axisValues(Get get)
{
    std::vector<Value> values;
    for (const GrowVariant& variant : allVariants()) {
        const Value value = get(variant);
        if (std::find(values.begin(), values.end(), value) == values.end())
            values.push_back(value);
    }
    return values;
}

void setItemEnabled(QComboBox* combo, int row, bool enabled, const QString& toolTip)
{
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    if (!model)
        return;
    QStandardItem* item = model->item(row);
    item->setEnabled(enabled);
    item->setToolTip(toolTip);
    // A disabled entry still reads as such when it is the current one.
    item->setForeground(enabled ? QBrush() : QBrush(QColor(150, 150, 150)));
}

QString yesNo(bool value) { return value ? QStringLiteral("yes") : QStringLiteral("no"); }

} // namespace

DevicePanel::DevicePanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("devicePanel"));
    auto* layout = new QVBoxLayout(this);

    deviceList_ = new QTreeWidget(this);
    deviceList_->setObjectName(QStringLiteral("deviceList"));
    deviceList_->setHeaderLabels({QStringLiteral("Device"), QStringLiteral("Type"), QStringLiteral("OpenCL C")});
    deviceList_->setRootIsDecorated(false);
    deviceList_->setUniformRowHeights(true);
    deviceList_->setMinimumHeight(70);
    deviceList_->setMaximumHeight(120);
    deviceList_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    deviceList_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    deviceList_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    deviceList_->header()->setStretchLastSection(false);
    layout->addWidget(deviceList_);

    deviceDetails_ = new QLabel(QStringLiteral("Looking for OpenCL devices..."), this);
    deviceDetails_->setObjectName(QStringLiteral("deviceDetails"));
    deviceDetails_->setWordWrap(true);
    deviceDetails_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(deviceDetails_);

    auto* variantBox = new QGroupBox(QStringLiteral("Region-growing variant"), this);
    auto* form = new QFormLayout(variantBox);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto makeCombo = [&](const char* name, const QString& label, const QString& toolTip) {
        auto* combo = new QComboBox(variantBox);
        combo->setObjectName(QString::fromLatin1(name));
        combo->setToolTip(toolTip);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(14);
        form->addRow(label, combo);
        return combo;
    };
    driverCombo_ = makeCombo("driverCombo", QStringLiteral("Driver"),
                             QStringLiteral("Who starts each iteration: the host, in batches, or the device itself"));
    frontierCombo_ = makeCombo("frontierCombo", QStringLiteral("Frontier"),
                               QStringLiteral("How the pixels to examine are found"));
    collectivesCombo_ = makeCombo("collectivesCombo", QStringLiteral("Collectives"),
                                  QStringLiteral("How queue offsets and region sums are combined"));
    tileCombo_ = makeCombo("tileCombo", QStringLiteral("Tile"),
                           QStringLiteral("How the sweep frontier loads its tile (sweep only)"));
    fusionCombo_ = makeCombo("fusionCombo", QStringLiteral("Fusion"),
                             QStringLiteral("Iterations per kernel launch (host-batched queue only)"));
    variantText_ = new QLabel(variantBox);
    variantText_->setObjectName(QStringLiteral("variantText"));
    variantText_->setWordWrap(true);
    variantText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(variantText_);
    variantReason_ = new QLabel(variantBox);
    variantReason_->setObjectName(QStringLiteral("variantReason"));
    variantReason_->setWordWrap(true);
    form->addRow(variantReason_);
    unavailableList_ = new QLabel(variantBox);
    unavailableList_->setObjectName(QStringLiteral("unavailableList"));
    unavailableList_->setWordWrap(true);
    unavailableList_->setStyleSheet(QStringLiteral("color: #666;"));
    form->addRow(unavailableList_);
    fastestLine_ = new QLabel(variantBox);
    fastestLine_->setObjectName(QStringLiteral("fastestVariantLine"));
    fastestLine_->setWordWrap(true);
    fastestLine_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(fastestLine_);
    fastestButton_ = new QToolButton(variantBox);
    fastestButton_->setObjectName(QStringLiteral("fastestVariantButton"));
    fastestButton_->setText(QStringLiteral("Use the fastest here"));
    fastestButton_->setToolTip(QStringLiteral("Go back to the fastest variant on the chosen device, and follow "
                                              "the device from now on"));
    connect(fastestButton_, &QToolButton::clicked, this, &DevicePanel::followFastestVariant);
    form->addRow(fastestButton_);
    layout->addWidget(variantBox);

    auto* raceBox = new QGroupBox(QStringLiteral("Race check (Oclgrind)"), this);
    auto* raceLayout = new QVBoxLayout(raceBox);
    raceCheckButton_ = new QToolButton(raceBox);
    raceCheckButton_->setObjectName(QStringLiteral("raceCheckButton"));
    raceCheckButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    raceCheckButton_->setVisible(false); // until MainWindow gives it its action
    raceLayout->addWidget(raceCheckButton_);
    raceCheckStatus_ = new QLabel(QStringLiteral("Runs this variant under Oclgrind on a small part of the image "
                                                 "and lists data races and barrier divergence."),
                                  raceBox);
    raceCheckStatus_->setObjectName(QStringLiteral("raceCheckStatus"));
    raceCheckStatus_->setWordWrap(true);
    raceCheckStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    raceLayout->addWidget(raceCheckStatus_);
    layout->addWidget(raceBox);
    layout->addStretch(1);

    fillCombos();
    connect(deviceList_, &QTreeWidget::currentItemChanged, this, &DevicePanel::onDeviceSelectionChanged);
    for (QComboBox* combo : {driverCombo_, frontierCombo_, collectivesCombo_, tileCombo_, fusionCombo_})
        connect(combo, qOverload<int>(&QComboBox::currentIndexChanged), this, &DevicePanel::onComboChanged);
    refreshAvailability();
}

void DevicePanel::setRaceCheckAction(QAction* action)
{
    raceCheckButton_->setDefaultAction(action);
    raceCheckButton_->setVisible(true);
}

void DevicePanel::setRaceCheckStatus(const QString& text) { raceCheckStatus_->setText(text); }
QString DevicePanel::raceCheckStatus() const { return raceCheckStatus_->text(); }

void DevicePanel::fillCombos()
{
    updating_ = true;
    auto label = [](const std::string& name, const GrowVariant& probe) {
        QString result = text(name);
        if (probe.wrongOnPurpose())
            result += QStringLiteral(" (wrong on purpose)");
        return result;
    };
    for (Driver value : axisValues<Driver>([](const GrowVariant& v) { return v.driver; })) {
        GrowVariant probe;
        probe.driver = value;
        driverCombo_->addItem(label(driverName(value), probe), int(value));
    }
    for (Frontier value : axisValues<Frontier>([](const GrowVariant& v) { return v.frontier; })) {
        GrowVariant probe;
        probe.frontier = value;
        probe.tile = value == Frontier::Sweep ? Tile::Direct : Tile::None;
        frontierCombo_->addItem(label(frontierName(value), probe), int(value));
    }
    for (Collectives value : axisValues<Collectives>([](const GrowVariant& v) { return v.collectives; })) {
        GrowVariant probe;
        probe.collectives = value;
        collectivesCombo_->addItem(label(collectivesName(value), probe), int(value));
    }
    for (Tile value : axisValues<Tile>([](const GrowVariant& v) { return v.tile; })) {
        if (value == Tile::None)
            continue; // the queue frontier has no tile; the combo is disabled then
        GrowVariant probe;
        probe.frontier = Frontier::Sweep;
        probe.tile = value;
        tileCombo_->addItem(label(tileName(value), probe), int(value));
    }
    for (Fusion value : axisValues<Fusion>([](const GrowVariant& v) { return v.fusion; }))
        fusionCombo_->addItem(text(fusionName(value)), int(value));
    updating_ = false;
    applyVariant(GrowVariant{});
}

void DevicePanel::setDevices(const std::vector<DeviceInfo>& devices, const std::string& selectedId)
{
    devices_ = devices;
    updating_ = true;
    deviceList_->clear();
    for (size_t i = 0; i < devices_.size(); ++i) {
        const DeviceInfo& device = devices_[i];
        auto* item = new QTreeWidgetItem(deviceList_);
        // The platform too: Intel's CPU runtime names the CPU (e.g. "AMD EPYC"), not itself.
        item->setText(0, QStringLiteral("%1  %2 (%3)").arg(text(device.id()), text(device.name), text(device.platformName)));
        item->setText(1, text(device.type));
        item->setText(2, QStringLiteral("%1.%2").arg(device.openClCMajor).arg(device.openClCMinor));
        item->setData(0, Qt::UserRole, text(device.id()));
        const QString tip = capabilitiesText(device);
        for (int column = 0; column < 3; ++column)
            item->setToolTip(column, tip);
    }
    updating_ = false;
    if (devices_.empty()) {
        deviceDetails_->setText(QStringLiteral("No OpenCL device."));
    } else if (!selectDevice(selectedId)) {
        selectDevice(devices_.front().id());
    }
    refreshAvailability();
}

bool DevicePanel::selectDevice(const std::string& id)
{
    for (int i = 0; i < deviceList_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = deviceList_->topLevelItem(i);
        if (item->data(0, Qt::UserRole).toString().toStdString() == id) {
            deviceList_->setCurrentItem(item);
            return true;
        }
    }
    return false;
}

std::string DevicePanel::currentDeviceId() const
{
    const QTreeWidgetItem* item = deviceList_->currentItem();
    return item ? item->data(0, Qt::UserRole).toString().toStdString() : std::string();
}

const DeviceInfo* DevicePanel::currentDevice() const
{
    const std::string id = currentDeviceId();
    for (const DeviceInfo& device : devices_)
        if (device.id() == id)
            return &device;
    return nullptr;
}

QString DevicePanel::capabilitiesText(const DeviceInfo& device)
{
    QStringList lines;
    lines << QStringLiteral("%1 (%2)").arg(text(device.name), text(device.id()));
    lines << QStringLiteral("Platform: %1, %2").arg(text(device.platformName), text(device.platformVersion));
    lines << QStringLiteral("Vendor: %1, driver %2").arg(text(device.vendor), text(device.driverVersion));
    lines << QStringLiteral("%1; %2").arg(text(device.openClVersion), text(device.openClCVersion));
    lines << QStringLiteral("Work-group collectives: %1; device enqueue: %2; subgroups: %3; generic address space: %4")
                 .arg(yesNo(device.workGroupCollectives), yesNo(device.deviceEnqueue), yesNo(device.subgroups),
                      yesNo(device.genericAddressSpace));
    lines << QStringLiteral("Compute units: %1; max work-group size: %2; local memory: %3")
                 .arg(device.computeUnits)
                 .arg(device.maxWorkGroupSize)
                 .arg(megabytes(device.localMemoryBytes));
    lines << QStringLiteral("Global memory: %1; largest allocation: %2; timer resolution: %3 ns")
                 .arg(megabytes(device.globalMemoryBytes), megabytes(device.maxAllocationBytes))
                 .arg(device.timerResolutionNs);
    if (!device.openClCFeatures.empty()) {
        QStringList features;
        for (const std::string& feature : device.openClCFeatures)
            features << text(feature);
        lines << QStringLiteral("OpenCL C features: %1").arg(features.join(QStringLiteral(", ")));
    }
    return lines.join(QLatin1Char('\n'));
}

GrowVariant DevicePanel::variant() const
{
    GrowVariant variant;
    variant.driver = Driver(driverCombo_->currentData().toInt());
    variant.frontier = Frontier(frontierCombo_->currentData().toInt());
    variant.collectives = Collectives(collectivesCombo_->currentData().toInt());
    variant.tile = variant.frontier == Frontier::Sweep ? Tile(tileCombo_->currentData().toInt()) : Tile::None;
    variant.fusion = fusionApplies(variant.driver, variant.frontier) ? Fusion(fusionCombo_->currentData().toInt()) : Fusion::None;
    return variant;
}

void DevicePanel::setVariant(const GrowVariant& variant)
{
    variantChosen_ = true;
    applyVariant(variant);
}

void DevicePanel::followFastestVariant()
{
    variantChosen_ = false;
    if (const DeviceInfo* device = currentDevice())
        applyVariant(fastestVariantOn(*device));
    else
        refreshFastestLine();
}

void DevicePanel::noteRunTime(const std::string& deviceId, const GrowVariant& variant, const std::string& inputs,
                              double milliseconds)
{
    const std::string key = deviceId + '\n' + inputs;
    if (key != timedInputs_) {
        timedInputs_ = key;
        runTimes_.clear();
    }
    runTimes_[variant.text()] = milliseconds;
    refreshFastestLine();
}

// Which variant is fastest here, and how the chosen one compared with it on
// the same inputs (where both ran).
void DevicePanel::refreshFastestLine()
{
    const DeviceInfo* device = currentDevice();
    if (!device) {
        fastestLine_->clear();
        fastestButton_->setVisible(false);
        return;
    }
    const GrowVariant fastest = fastestVariantOn(*device);
    const GrowVariant current = variant();
    QString line = QStringLiteral("Fastest here: <code>%1</code> (%2).")
                       .arg(text(fastest.shortText()).toHtmlEscaped(), text(whyFastestOn(*device)).toHtmlEscaped());
    if (current == fastest) {
        line += variantChosen_ ? QStringLiteral(" It is the chosen one.")
                               : QStringLiteral(" RGX chose it for this device; a choice above sticks.");
    } else {
        const bool sameInputs = timedInputs_.rfind(device->id() + '\n', 0) == 0;
        const auto own = runTimes_.find(current.text());
        const auto best = runTimes_.find(fastest.text());
        if (sameInputs && own != runTimes_.end() && best != runTimes_.end() && best->second > 0 && own->second > 0) {
            const double ratio = own->second / best->second;
            line += QStringLiteral(" On the last inputs the chosen variant took %1 ms, the fastest %2 ms: %3x %4.")
                        .arg(own->second, 0, 'f', own->second < 10 ? 2 : 1)
                        .arg(best->second, 0, 'f', best->second < 10 ? 2 : 1)
                        .arg(ratio >= 1 ? ratio : 1 / ratio, 0, 'f', 1)
                        .arg(ratio >= 1 ? QStringLiteral("slower") : QStringLiteral("faster"));
        } else {
            line += QStringLiteral(" Run both on the same seeds to compare them here.");
        }
    }
    fastestLine_->setText(breakable(line));
    fastestButton_->setVisible(variantChosen_ || current != fastest);
}

void DevicePanel::applyVariant(const GrowVariant& variant)
{
    updating_ = true;
    auto select = [](QComboBox* combo, int value) {
        const int index = combo->findData(value);
        if (index >= 0)
            combo->setCurrentIndex(index);
    };
    select(driverCombo_, int(variant.driver));
    select(frontierCombo_, int(variant.frontier));
    select(collectivesCombo_, int(variant.collectives));
    if (variant.tile != Tile::None)
        select(tileCombo_, int(variant.tile));
    select(fusionCombo_, int(variant.fusion));
    updating_ = false;
    refreshAvailability();
    emit variantChanged();
}

std::optional<std::string> DevicePanel::currentProblem() const
{
    const DeviceInfo* device = currentDevice();
    if (!device)
        return std::string("no OpenCL device is selected");
    return whyUnavailable(variant(), *device);
}

void DevicePanel::onDeviceSelectionChanged()
{
    if (updating_)
        return;
    const DeviceInfo* device = currentDevice();
    if (device) {
        QString details = capabilitiesText(*device);
        deviceDetails_->setText(details.section(QLatin1Char('\n'), 3, 4));
        deviceDetails_->setToolTip(details);
        if (!variantChosen_ && fastestVariantOn(*device) != variant()) {
            applyVariant(fastestVariantOn(*device));
            emit deviceChanged();
            return;
        }
    }
    refreshAvailability();
    emit deviceChanged();
}

void DevicePanel::onComboChanged()
{
    if (updating_)
        return;
    // fusion=tiles has no scan whose barriers could be left out, so the
    // command line and session files refuse it with local-nobarrier
    // (parseVariant): the combos never form it. The other axis follows the
    // choice just made (a session saved with it could not be opened again;
    // the monkey test found it).
    if (fusionCombo_->currentData().toInt() == int(Fusion::Tiles)
        && collectivesCombo_->currentData().toInt() == int(Collectives::LocalNoBarrier)) {
        updating_ = true;
        if (sender() == fusionCombo_)
            collectivesCombo_->setCurrentIndex(collectivesCombo_->findData(int(Collectives::Local)));
        else
            fusionCombo_->setCurrentIndex(fusionCombo_->findData(int(Fusion::None)));
        updating_ = false;
    }
    variantChosen_ = true; // chosen by hand: it sticks
    refreshAvailability();
    emit variantChanged();
}

void DevicePanel::refreshAvailability()
{
    const DeviceInfo* device = currentDevice();
    const GrowVariant current = variant();
    fusionCombo_->setEnabled(fusionApplies(current.driver, current.frontier));
    fusionCombo_->setToolTip(fusionApplies(current.driver, current.frontier)
                                 ? QStringLiteral("Iterations per kernel launch")
                                 : QStringLiteral("Several iterations per launch need driver host-batched and frontier "
                                                  "queue; other variants run one iteration per launch."));
    tileCombo_->setEnabled(current.frontier == Frontier::Sweep);
    tileCombo_->setToolTip(current.frontier == Frontier::Sweep
                               ? QStringLiteral("How the sweep frontier loads its tile")
                               : QStringLiteral("Only the sweep frontier reads tiles; the queue frontier has none."));

    QStringList unavailable;
    // A choice is disabled when no variant with it runs on the device; a
    // choice that runs only with other choices on the other axes stays
    // enabled, and its tooltip says what else it needs.
    auto markAxis = [&](QComboBox* combo, const QString& axis, auto valueOf, auto withValue, auto describeValue) {
        for (int row = 0; row < combo->count(); ++row) {
            const auto value = decltype(valueOf(current))(combo->itemData(row).toInt());
            QString description = text(describeValue(value));
            if (!device) {
                setItemEnabled(combo, row, true, description);
                continue;
            }
            bool anyRuns = false;
            std::optional<std::string> firstReason;
            for (const GrowVariant& candidate : allVariants()) {
                if (valueOf(candidate) != value)
                    continue;
                const auto reason = whyUnavailable(candidate, *device);
                if (!reason) {
                    anyRuns = true;
                    break;
                }
                if (!firstReason)
                    firstReason = reason;
            }
            const GrowVariant combined = withValue(current, value);
            const auto combinedReason = whyUnavailable(combined, *device);
            if (!anyRuns) {
                const QString reason = text(combinedReason ? *combinedReason : firstReason.value_or("not available"));
                setItemEnabled(combo, row, false, description + QStringLiteral("\nNot on this device: ") + reason);
                unavailable << QStringLiteral("%1 %2: %3").arg(axis, combo->itemText(row), reason);
            } else {
                if (combinedReason)
                    description += QStringLiteral("\nWith the other choices: ") + text(*combinedReason);
                setItemEnabled(combo, row, true, description);
            }
        }
    };
    markAxis(driverCombo_, QStringLiteral("driver"), [](const GrowVariant& v) { return v.driver; },
             [](GrowVariant v, Driver value) { v.driver = value; return v; },
             [](Driver value) { return describe(value); });
    markAxis(frontierCombo_, QStringLiteral("frontier"), [](const GrowVariant& v) { return v.frontier; },
             [](GrowVariant v, Frontier value) {
                 v.frontier = value;
                 if (value == Frontier::Queue)
                     v.tile = Tile::None;
                 else if (v.tile == Tile::None)
                     v.tile = Tile::Async;
                 return v;
             },
             [](Frontier value) { return describe(value); });
    markAxis(collectivesCombo_, QStringLiteral("collectives"), [](const GrowVariant& v) { return v.collectives; },
             [](GrowVariant v, Collectives value) { v.collectives = value; return v; },
             [](Collectives value) { return describe(value); });
    markAxis(fusionCombo_, QStringLiteral("fusion"), [](const GrowVariant& v) { return v.fusion; },
             [](GrowVariant v, Fusion value) {
                 v.fusion = value;
                 if (value != Fusion::None) {
                     v.driver = Driver::HostBatched;
                     v.frontier = Frontier::Queue;
                     v.tile = Tile::None;
                 }
                 return v;
             },
             [](Fusion value) { return describe(value); });
    markAxis(tileCombo_, QStringLiteral("tile"), [](const GrowVariant& v) { return v.tile; },
             [](GrowVariant v, Tile value) { v.frontier = Frontier::Sweep; v.tile = value; return v; },
             [](Tile value) { return describe(value); });

    variantText_->setText(QStringLiteral("<code>%1</code>").arg(breakable(text(current.text()).toHtmlEscaped())));
    QString status;
    const auto problem = currentProblem();
    if (!device) {
        status = QStringLiteral("Choose a device.");
        variantReason_->setStyleSheet(QString());
    } else if (problem) {
        status = QStringLiteral("Cannot run on this device: %1").arg(text(*problem).toHtmlEscaped());
        variantReason_->setStyleSheet(QStringLiteral("color: #b00020;"));
    } else if (current.wrongOnPurpose()) {
        status = QStringLiteral("Runs on this device. Wrong on purpose: a barrier is left out, "
                                "so results may differ from the CPU reference (turn on the corruption view).");
        variantReason_->setStyleSheet(QStringLiteral("color: #a05a00;"));
    } else {
        status = QStringLiteral("Runs on this device.");
        variantReason_->setStyleSheet(QStringLiteral("color: #1b7a1b;"));
    }
    variantReason_->setText(status);
    unavailableList_->setText(unavailable.isEmpty()
                                  ? QString()
                                  : QStringLiteral("Disabled here:\n") + unavailable.join(QLatin1Char('\n')));
    unavailableList_->setVisible(!unavailable.isEmpty());
    refreshFastestLine();
}

} // namespace rgx::ui
