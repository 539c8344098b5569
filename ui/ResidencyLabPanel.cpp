// Residency lab: the button, the rule, the figures; the run on the engine thread.
#include "ResidencyLabPanel.h"

#include "Errors.h"
#include "Format.h"
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value).toHtmlEscaped(); }

QString milliseconds(double value) { return formatDuration(value * 1e6); }

QString runLine(const QString& what, const ResidencyRun& run)
{
    QString line = QStringLiteral("%1, %2 work-groups: <b>%3</b> in %4 launch(es)")
                       .arg(what)
                       .arg(run.groups)
                       .arg(milliseconds(run.growMilliseconds))
                       .arg(run.launches);
    line += run.fellBack ? QStringLiteral(" (the roll call failed after %1, then one launch per level)")
                               .arg(milliseconds(run.firstLaunchMilliseconds))
                         : QStringLiteral(" (grid barriers between levels)");
    line += run.exact ? QStringLiteral(", exact") : QStringLiteral(", <b>differs from the CPU reference</b>");
    return line;
}

} // namespace

ResidencyLabRunner::ResidencyLabRunner(std::shared_ptr<const std::atomic<bool>> cancel) : cancel_(std::move(cancel)) {}

void ResidencyLabRunner::run(const DeviceInfo& device, const ResidencyOptions& options)
{
    ResidencyOutcome outcome;
    outcome.deviceId = device.id();
    QElapsedTimer clock;
    clock.start();
    try {
        // A device of its own: the lab also needs one described with more
        // compute units (the forced fallback), and leaves the worker's
        // resident session alone.
        ComputeDevice opened(device);
        RunControl control;
        control.cancel = cancel_.get();
        outcome.result = std::make_shared<const ResidencyResult>(runResidencyLab(opened, options, control));
    } catch (const OpenClError& error) {
        outcome.error = QString::fromUtf8(error.what());
        if (!error.buildLog().empty())
            outcome.error += QLatin1Char('\n') + QString::fromStdString(error.buildLog());
    } catch (const std::exception& error) {
        outcome.error = QString::fromUtf8(error.what());
    }
    outcome.seconds = double(clock.elapsed()) / 1000.0;
    emit finished(outcome);
}

ResidencyLabPanel::ResidencyLabPanel(QWidget* parent) : QWidget(parent)
{
    qRegisterMetaType<rgx::ui::ResidencyOutcome>("rgx::ui::ResidencyOutcome");
    setObjectName(QStringLiteral("residencyLabPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    rule_ = new QLabel(QString::fromStdString(residencyRule()), this);
    rule_->setObjectName(QStringLiteral("residencyRule"));
    rule_->setWordWrap(true);
    layout->addWidget(rule_);
    deviceNote_ = new QLabel(this);
    deviceNote_->setObjectName(QStringLiteral("residencyDeviceNote"));
    deviceNote_->setWordWrap(true);
    deviceNote_->setStyleSheet(QStringLiteral("color: #666;"));
    layout->addWidget(deviceNote_);
    runButton_ = new QPushButton(QStringLiteral("Find the resident work-groups"), this);
    runButton_->setObjectName(QStringLiteral("residencyRunButton"));
    runButton_->setToolTip(QStringLiteral("Launches the fused kernel (grow_levels) with 1, 2, 4, ... work-groups until "
                                          "its roll call fails, bisects, then shows a launch with more and what RGX "
                                          "does with it. Takes seconds; a failed roll call waits before it gives up."));
    layout->addWidget(runButton_, 0, Qt::AlignLeft);
    result_ = new QLabel(QStringLiteral("Not run yet."), this);
    result_->setObjectName(QStringLiteral("residencyResult"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(result_);
    layout->addStretch(1);

    connect(runButton_, &QPushButton::clicked, this, &ResidencyLabPanel::start);
    // Quitting stops a search between two launches rather than waiting for it.
    connect(qApp, &QCoreApplication::aboutToQuit, this, [cancel = cancel_] { cancel->store(true); });
    setDevice(nullptr);
}

ResidencyLabPanel::~ResidencyLabPanel()
{
    cancel_->store(true);
}

void ResidencyLabPanel::attachEngine(QObject* engineWorker)
{
    if (runner_ || !engineWorker)
        return;
    runner_ = new ResidencyLabRunner(cancel_);
    runner_->moveToThread(engineWorker->thread());
    // Owned by the worker from its own thread, so it goes when the worker goes.
    QPointer<ResidencyLabRunner> runner = runner_;
    QMetaObject::invokeMethod(
        engineWorker, [runner, engineWorker] { if (runner) runner->setParent(engineWorker); }, Qt::QueuedConnection);
    connect(runner_, &ResidencyLabRunner::finished, this, &ResidencyLabPanel::showOutcome);
    updateButton();
}

void ResidencyLabPanel::setDevice(const DeviceInfo* device)
{
    device_ = device ? std::make_unique<DeviceInfo>(*device) : nullptr;
    deviceNote_->setText(device ? QStringLiteral("Runs on %1 (%2 compute units).")
                                      .arg(QString::fromStdString(device->name))
                                      .arg(device->computeUnits)
                                : QStringLiteral("Waiting for the device list..."));
    updateButton();
}

void ResidencyLabPanel::updateButton()
{
    runButton_->setEnabled(device_ && runner_ && !running_);
    runButton_->setText(running_ ? QStringLiteral("Running...") : QStringLiteral("Find the resident work-groups"));
}

void ResidencyLabPanel::start()
{
    if (!device_ || !runner_ || running_)
        return;
    running_ = true;
    cancel_->store(false);
    updateButton();
    result_->setText(QStringLiteral("Running on the engine thread: launches of 1, 2, 4, ... work-groups until the "
                                    "roll call fails, then bisection..."));
    ResidencyLabRunner* runner = runner_;
    const DeviceInfo device = *device_;
    const ResidencyOptions options = options_;
    QMetaObject::invokeMethod(
        runner_, [runner, device, options] { runner->run(device, options); }, Qt::QueuedConnection);
}

QString ResidencyLabPanel::resultText() const { return result_->text(); }

void ResidencyLabPanel::showOutcome(const ResidencyOutcome& outcome)
{
    running_ = false;
    updateButton();
    last_ = outcome.result;
    if (!outcome.result) {
        result_->setText(QStringLiteral("The lab could not run: %1").arg(outcome.error.toHtmlEscaped()));
        emit finished(false);
        return;
    }
    const ResidencyResult& r = *outcome.result;
    QString probes;
    for (const ResidencyProbe& probe : r.probes)
        probes += QStringLiteral(" %1%2").arg(probe.groups).arg(probe.resident ? QString() : QStringLiteral("&#10007;"));
    QStringList lines;
    lines << QStringLiteral("<b>Resident work-groups: %1</b> on %2").arg(r.residentGroups).arg(text(r.device));
    lines << QStringLiteral("Search (&#10007;: not resident):%1, %2 s").arg(probes).arg(r.searchSeconds, 0, 'f', 2);
    if (!r.searchNote.empty())
        lines << QStringLiteral("Note: %1").arg(text(r.searchNote));
    QString kernel = QStringLiteral("Kernel: %1 (%2, %3): %4 work-items and %5 bytes of local memory per work-group")
                         .arg(text(r.kernel), text(r.program), text(r.variant))
                         .arg(r.workGroupSize)
                         .arg(r.localMemoryBytes);
    if (r.registers >= 0)
        kernel += QStringLiteral(", %1 registers per work-item").arg(r.registers);
    lines << kernel;
    lines << QStringLiteral("Compute units: %1; RGX's fused launches: %2 work-groups (%3)")
                 .arg(r.computeUnits)
                 .arg(r.fusedGroups)
                 .arg(r.fusedGroups <= r.residentGroups ? QStringLiteral("resident")
                                                        : QStringLiteral("<b>more than resident</b>: they fall back"));
    if (r.over.groups != 0)
        lines << QStringLiteral("A launch of %1 work-groups: roll call verdict <b>%2</b> after %3%4")
                     .arg(r.over.groups)
                     .arg(r.over.resident ? QStringLiteral("go") : QStringLiteral("not resident"))
                     .arg(milliseconds(r.over.milliseconds))
                     .arg(r.over.resident ? QStringLiteral(" (resident after all: the search ended too low)")
                                          : QStringLiteral("; it did nothing and returned, no hang"));
    if (r.runsDone) {
        lines << QStringLiteral("What RGX does then, on a %1 (%2 levels):").arg(text(r.runImage)).arg(r.fused.levels);
        lines << QStringLiteral("&nbsp;&nbsp;") + runLine(QStringLiteral("fused"), r.fused);
        lines << QStringLiteral("&nbsp;&nbsp;") + runLine(QStringLiteral("forced"), r.forced);
        if (r.fused.growMilliseconds > 0)
            lines << QStringLiteral("The fallback took <b>%1&times;</b> the fused run's time here, %2 of it the "
                                    "failed roll call's wait.")
                         .arg(r.forced.growMilliseconds / r.fused.growMilliseconds, 0, 'f', 2)
                         .arg(milliseconds(r.forced.firstLaunchMilliseconds));
    }
    lines << QStringLiteral("<span style='color:#666'>The whole lab took %1 s on the engine thread.</span>")
                 .arg(outcome.seconds, 0, 'f', 1);
    result_->setText(lines.join(QStringLiteral("<br>")));
    emit finished(true);
}

} // namespace rgx::ui
