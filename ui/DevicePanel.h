// Devices and the region-growing variant: every OpenCL device with its
// capabilities, one combo per variant axis, choices the device cannot run
// disabled with the reason, wrong-on-purpose choices marked as such.
#pragma once

#include "Device.h"
#include "Variant.h"
#include <QWidget>
#include <map>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QToolButton;
class QTreeWidget;

namespace rgx::ui {

class DevicePanel : public QWidget {
    Q_OBJECT
public:
    explicit DevicePanel(QWidget* parent = nullptr);

    void setDevices(const std::vector<DeviceInfo>& devices, const std::string& selectedId);
    bool hasDevices() const { return !devices_.empty(); }
    const std::vector<DeviceInfo>& devices() const { return devices_; }
    // Selects the device with id "P:I"; false when there is none.
    bool selectDevice(const std::string& id);
    std::string currentDeviceId() const;
    const DeviceInfo* currentDevice() const;

    GrowVariant variant() const;
    // Any variant can be set (a session may name one this device cannot
    // run); the panel then says why it cannot run. A variant set here or
    // chosen in the combos sticks across devices.
    void setVariant(const GrowVariant& variant);
    // Until a variant is chosen, the panel follows the device: the fastest
    // variant there (rgx::fastestVariantOn). This goes back to that.
    void followFastestVariant();
    bool variantChosen() const { return variantChosen_; }
    // A run's host time with this device and variant on inputs named by
    // `inputs` (image, seeds, parameters): the panel compares the chosen
    // variant with the fastest one where both ran on the same inputs.
    void noteRunTime(const std::string& deviceId, const GrowVariant& variant, const std::string& inputs,
                     double milliseconds);
    // Why the current device cannot run the current variant; nullopt when it can.
    std::optional<std::string> currentProblem() const;

    // The "Check for races" button shows this action (Run menu's twin);
    // the line under it says what the last check found or that one runs.
    void setRaceCheckAction(QAction* action);
    void setRaceCheckStatus(const QString& text);
    QString raceCheckStatus() const;

    // The readable capability summary of a device (tooltips and details).
    static QString capabilitiesText(const DeviceInfo& device);

signals:
    void deviceChanged();
    void variantChanged();

private:
    void fillCombos();
    void refreshAvailability();
    void onDeviceSelectionChanged();
    void onComboChanged();
    void applyVariant(const GrowVariant& variant);
    void refreshFastestLine();

    std::vector<DeviceInfo> devices_;
    QTreeWidget* deviceList_;
    QLabel* deviceDetails_;
    QComboBox* driverCombo_;
    QComboBox* frontierCombo_;
    QComboBox* collectivesCombo_;
    QComboBox* tileCombo_;
    QComboBox* fusionCombo_;
    QLabel* variantText_;
    QLabel* variantReason_;
    QLabel* unavailableList_;
    QLabel* fastestLine_;
    QToolButton* fastestButton_;
    bool variantChosen_ = false;
    // Host times of the variants that ran on the current inputs and device.
    std::string timedInputs_;
    std::map<std::string, double> runTimes_; // by variant text
    QToolButton* raceCheckButton_;
    QLabel* raceCheckStatus_;
    bool updating_ = false;
};

} // namespace rgx::ui
