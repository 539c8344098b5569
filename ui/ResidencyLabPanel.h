// The grid-barrier residency lab tab (issue 29, item 4): a Run button, the
// rule in a few words, and what the lab found (engine/lab/ResidencyLab.h):
// how many work-groups of the fused kernel the device keeps resident, RGX's
// own count, the roll call's verdict on a launch with more, the fallback's cost.
// The lab runs on the engine thread, through a small runner object of its own
// that lives there beside the engine worker.
#pragma once

#include "Device.h"
#include "lab/ResidencyLab.h"
#include <QObject>
#include <QString>
#include <QWidget>
#include <atomic>
#include <memory>

class QLabel;
class QPushButton;

namespace rgx::ui {

struct ResidencyOutcome {
    std::string deviceId;
    std::shared_ptr<const ResidencyResult> result; // null when the lab failed
    QString error;
    double seconds = 0;                            // the whole lab, on the engine thread
};

// Lives on the engine thread; run() is called there (queued), finished() comes back queued.
class ResidencyLabRunner : public QObject {
    Q_OBJECT
public:
    explicit ResidencyLabRunner(std::shared_ptr<const std::atomic<bool>> cancel);
    void run(const rgx::DeviceInfo& device, const rgx::ResidencyOptions& options);

signals:
    void finished(const rgx::ui::ResidencyOutcome& outcome);

private:
    std::shared_ptr<const std::atomic<bool>> cancel_;
};

class ResidencyLabPanel : public QWidget {
    Q_OBJECT
public:
    explicit ResidencyLabPanel(QWidget* parent = nullptr);
    ~ResidencyLabPanel() override;

    // The lab's runs go to the thread of `engineWorker` (EngineThread::worker()),
    // never the GUI's; until then Run stays off.
    void attachEngine(QObject* engineWorker);
    void setDevice(const DeviceInfo* device);
    // Presses Run (nothing while it runs or without a device or engine).
    void start();
    bool isRunning() const { return running_; }
    QString resultText() const;
    // What the last run found (null before one, or when it failed).
    std::shared_ptr<const ResidencyResult> lastResult() const { return last_; }
    // Smaller limits for tests: the search's time and the corridor's size.
    void setOptions(const ResidencyOptions& options) { options_ = options; }

signals:
    void finished(bool succeeded);

private:
    void showOutcome(const ResidencyOutcome& outcome);
    void updateButton();

    QLabel* rule_;
    QLabel* deviceNote_;
    QPushButton* runButton_;
    QLabel* result_;
    ResidencyLabRunner* runner_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
    std::unique_ptr<DeviceInfo> device_;
    ResidencyOptions options_;
    std::shared_ptr<const ResidencyResult> last_;
    bool running_ = false;
};

} // namespace rgx::ui

Q_DECLARE_METATYPE(rgx::ui::ResidencyOutcome)
