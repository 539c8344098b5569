// The lab area's tabs. Binary-search lab: the form, the answer and its
// timeline (one row per kernel, the timings panel's TimelinePlot).
#include "LabPanel.h"

#include "Format.h"
#include "ResidencyLabPanel.h"
#include "TimelinePlot.h"
#include "Timing.h"
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

} // namespace

LabPanel::LabPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("labPanel"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("labTabs"));
    tabs_->setDocumentMode(true);
    outer->addWidget(tabs_);
    auto* binarySearch = new QWidget(tabs_);
    binarySearch->setObjectName(QStringLiteral("binarySearchLab"));
    auto* layout = new QHBoxLayout(binarySearch);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* formSide = new QWidget(binarySearch);
    auto* formLayout = new QVBoxLayout(formSide);
    formLayout->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    size_ = new QSpinBox(formSide);
    size_->setObjectName(QStringLiteral("labSize"));
    size_->setRange(1, 100000000);
    size_->setValue(1000000);
    size_->setGroupSeparatorShown(true);
    size_->setToolTip(QStringLiteral("Sorted values in the array (with repeats and gaps, from a seeded generator)"));
    keys_ = new QSpinBox(formSide);
    keys_->setObjectName(QStringLiteral("labKeys"));
    keys_->setRange(1, 10000000);
    keys_->setValue(100000);
    keys_->setGroupSeparatorShown(true);
    keys_->setToolTip(QStringLiteral("Keys searched: present, absent, below and above the range"));
    driver_ = new QComboBox(formSide);
    driver_->setObjectName(QStringLiteral("labDriver"));
    for (Driver driver : {Driver::HostSync, Driver::HostBatched, Driver::DeviceEnqueue}) {
        driver_->addItem(text(driverName(driver)), int(driver));
        driver_->setItemData(driver_->count() - 1, text(describe(driver)), Qt::ToolTipRole);
    }
    form->addRow(QStringLiteral("Array size"), size_);
    form->addRow(QStringLiteral("Keys"), keys_);
    form->addRow(QStringLiteral("Driver"), driver_);
    formLayout->addLayout(form);
    driverNote_ = new QLabel(formSide);
    driverNote_->setObjectName(QStringLiteral("labDriverNote"));
    driverNote_->setWordWrap(true);
    driverNote_->setStyleSheet(QStringLiteral("color: #666;"));
    formLayout->addWidget(driverNote_);
    runButton_ = new QPushButton(QStringLiteral("Run binary search"), formSide);
    runButton_->setObjectName(QStringLiteral("labRunButton"));
    formLayout->addWidget(runButton_);
    result_ = new QLabel(QStringLiteral("One round per launch: the host starts each round, in batches, "
                                        "or the device enqueues the next round itself."),
                         formSide);
    result_->setObjectName(QStringLiteral("labResult"));
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formLayout->addWidget(result_);
    formLayout->addStretch(1);
    formSide->setMinimumWidth(300);
    formSide->setMaximumWidth(420);
    layout->addWidget(formSide);

    plot_ = new TimelinePlot(QStringLiteral("Launch timeline of the lab run"), binarySearch);
    plot_->setObjectName(QStringLiteral("labTimelinePlot"));
    plot_->setMinimumSize(320, 180);
    layout->addWidget(plot_, 1);
    tabs_->addTab(binarySearch, QStringLiteral("Binary search"));
    residency_ = new ResidencyLabPanel(tabs_);
    tabs_->addTab(residency_, QStringLiteral("Grid barrier residency"));

    connect(runButton_, &QPushButton::clicked, this, &LabPanel::start);
    setDevice(nullptr);
}

void LabPanel::attachEngine(QObject* engineWorker) { residency_->attachEngine(engineWorker); }

void LabPanel::showResidencyLab() { tabs_->setCurrentWidget(residency_); }
void LabPanel::showBinarySearchLab() { tabs_->setCurrentIndex(0); }

void LabPanel::setDevice(const DeviceInfo* device)
{
    residency_->setDevice(device);
    auto* model = qobject_cast<QStandardItemModel*>(driver_->model());
    const int row = driver_->findData(int(Driver::DeviceEnqueue));
    const bool enqueue = device && device->deviceEnqueue;
    QString reason;
    if (device && !enqueue)
        reason = QStringLiteral("device-enqueue is off: %1 has no device-side enqueue (OpenCL 2.0 enqueue_kernel).")
                     .arg(text(device->name));
    if (model && row >= 0) {
        QStandardItem* item = model->item(row);
        item->setEnabled(enqueue || !device);
        item->setToolTip(reason.isEmpty() ? text(describe(Driver::DeviceEnqueue)) : reason);
    }
    if (!enqueue && device && driver_->currentIndex() == row)
        driver_->setCurrentIndex(driver_->findData(int(Driver::HostSync)));
    driverNote_->setText(device ? (reason.isEmpty() ? QStringLiteral("Runs on %1.").arg(text(device->name))
                                                    : QStringLiteral("Runs on %1. %2").arg(text(device->name), reason))
                                : QStringLiteral("Waiting for the device list..."));
    runButton_->setEnabled(device != nullptr);
}

bool LabPanel::setDriver(Driver driver)
{
    const int row = driver_->findData(int(driver));
    auto* model = qobject_cast<QStandardItemModel*>(driver_->model());
    if (row < 0 || (model && !model->item(row)->isEnabled()))
        return false;
    driver_->setCurrentIndex(row);
    return true;
}

void LabPanel::start()
{
    if (!runButton_->isEnabled())
        return;
    emit runRequested(quint64(size_->value()), quint64(keys_->value()), Driver(driver_->currentData().toInt()));
}

void LabPanel::setBusy(bool busy)
{
    runButton_->setEnabled(!busy);
    runButton_->setText(busy ? QStringLiteral("Running...") : QStringLiteral("Run binary search"));
    if (busy)
        result_->setText(QStringLiteral("Running on the engine thread..."));
}

QString LabPanel::resultText() const { return result_->text(); }

TimelineBars* LabPanel::timeline() const { return plot_->bars(); }

void LabPanel::showOutcome(const LabOutcome& outcome)
{
    setBusy(false);
    if (!outcome.result) {
        result_->setText(QStringLiteral("The lab could not run: %1").arg(outcome.error.toHtmlEscaped()));
        return;
    }
    const BinarySearchResult& result = *outcome.result;
    const TimelineSummary summary = summarizeTimeline(result.timings);
    result_->setText(QStringLiteral("<b>%1</b> on %2<br>%3 sorted values, %4 keys, %5 chunk(s) per key<br>"
                                    "<b>%6 rounds</b>; host %7; device busy %8, idle gaps %9, %10 commands<br>"
                                    "<b>%11 keys differ from std::lower_bound</b>")
                         .arg(text(result.variant).toHtmlEscaped(), text(result.device).toHtmlEscaped())
                         .arg(formatCount(outcome.request.size), formatCount(outcome.request.keys))
                         .arg(result.chunksPerKey)
                         .arg(result.rounds)
                         .arg(formatDuration(result.hostMilliseconds * 1e6), formatDuration(double(summary.busyNs)),
                              formatDuration(double(summary.gapNs)))
                         .arg(result.timings.size())
                         .arg(outcome.differingKeys));

    // One row per kernel (transfers per direction), as in the timings panel.
    const TimelineLayout layout = timelineLayout(result.timings);
    const uint64_t origin = layout.origin;
    const TimeUnit unit = timeUnitFor(double(summary.spanNs));
    KernelColours colours;
    std::vector<TimelineBars::Segment> segments = timelineSegments(
        result.timings, layout, 0.0, unit,
        [&](const QString& row) { return colours.colour(row); },
        [origin](const TimingRecord& record) {
            return QStringLiteral("%1%2\nstart %3, duration %4")
                .arg(text(record.kernel))
                .arg(record.iteration >= 0 ? QStringLiteral(", round %1").arg(record.iteration) : QString())
                .arg(formatDuration(double(record.start - origin)), formatDuration(double(record.duration())));
        });
    QMap<double, QString> rowNames;
    for (int k = 0; k < layout.rows.size(); ++k)
        rowNames.insert(double(k), layout.rows[k]);
    plot_->showTimeline(std::move(segments), rowNames,
                        QStringLiteral("Time since the first command was queued (%1); gaps are host overhead")
                            .arg(unit.symbol),
                        QCPRange(-0.6, double(layout.rows.size()) - 0.4));
}

} // namespace rgx::ui
