// The lab area: two tabs. The binary-search lab: array size, key count and
// driver in, rounds, times, verification against std::lower_bound and a
// launch timeline out. The grid-barrier residency lab (ResidencyLabPanel).
// Both run on the engine thread (the binary search through RunController).
#pragma once

#include "EngineTypes.h"
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace rgx::ui {

class ResidencyLabPanel;
class TimelineBars;
class TimelinePlot;

class LabPanel : public QWidget {
    Q_OBJECT
public:
    explicit LabPanel(QWidget* parent = nullptr);

    // The device the lab runs on: device-enqueue is offered only where it can run.
    void setDevice(const DeviceInfo* device);
    void setBusy(bool busy);
    void showOutcome(const LabOutcome& outcome);
    // Chooses the driver (false when the device cannot run it) and presses Run.
    bool setDriver(Driver driver);
    void start();
    QString resultText() const;
    TimelinePlot* timelinePlot() const { return plot_; }
    TimelineBars* timeline() const;

    // The residency lab's tab; its runs go to `engineWorker`'s thread.
    ResidencyLabPanel* residencyLab() const { return residency_; }
    void attachEngine(QObject* engineWorker);
    void showResidencyLab();
    void showBinarySearchLab();

signals:
    void runRequested(quint64 size, quint64 keys, rgx::Driver driver);

private:
    QSpinBox* size_;
    QSpinBox* keys_;
    QComboBox* driver_;
    QLabel* driverNote_;
    QPushButton* runButton_;
    QLabel* result_;
    TimelinePlot* plot_;
    QTabWidget* tabs_;
    ResidencyLabPanel* residency_;
};

} // namespace rgx::ui
