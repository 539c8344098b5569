// Binary-search lab: the form, the answer and its timeline (one row per
// kernel, drawn with the timings panel's TimelineBars).
#include "LabPanel.h"

#include "Format.h"
#include "TimelineBars.h"
#include "Timing.h"
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

const QColor rowColours[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),
                             QColor(214, 39, 40), QColor(148, 103, 189), QColor(140, 86, 75)};

} // namespace

LabPanel::LabPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("labPanel"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* formSide = new QWidget(this);
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

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("labTimelinePlot"));
    plot_->setMinimumSize(320, 180);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, QStringLiteral("Launch timeline of the lab run"),
                                                             QFont(plot_->font().family(), 10, QFont::Bold)));
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setLabelFont(QFont(plot_->font().family(), 9));
        axis->setTickLabelFont(QFont(plot_->font().family(), 8));
    }
    plot_->yAxis->setRangeReversed(true);
    plot_->yAxis->setSubTicks(false);
    plot_->yAxis->grid()->setVisible(false);
    layout->addWidget(plot_, 1);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int index = timeline_ ? timeline_->segmentAt(event->position()) : -1;
        if (index >= 0)
            QToolTip::showText(event->globalPosition().toPoint(), timeline_->segments()[size_t(index)].toolTip, plot_);
        else
            QToolTip::hideText();
    });

    connect(runButton_, &QPushButton::clicked, this, &LabPanel::start);
    setDevice(nullptr);
}

void LabPanel::setDevice(const DeviceInfo* device)
{
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
    plot_->clearPlottables();
    timeline_ = new TimelineBars(plot_->xAxis, plot_->yAxis);
    const TimeUnit unit = timeUnitFor(double(summary.spanNs));
    auto rowName = [](const std::string& kernel) {
        if (kernel.rfind("write:", 0) == 0)
            return QStringLiteral("copies to device");
        if (kernel.rfind("read:", 0) == 0)
            return QStringLiteral("copies to host");
        return QString::fromStdString(kernel);
    };
    QStringList rows;
    uint64_t origin = 0;
    for (const TimingRecord& record : result.timings) {
        if (!rows.contains(rowName(record.kernel)))
            rows << rowName(record.kernel);
        if (record.queued && (!origin || record.queued < origin))
            origin = record.queued;
    }
    std::vector<TimelineBars::Segment> segments;
    for (const TimingRecord& record : result.timings) {
        if (!record.measured)
            continue;
        TimelineBars::Segment segment;
        segment.row = double(rows.indexOf(rowName(record.kernel)));
        segment.start = double(record.start - origin) / unit.nanoseconds;
        segment.end = std::max(segment.start, double(record.end - origin) / unit.nanoseconds);
        segment.colour = rowColours[size_t(segment.row) % (sizeof(rowColours) / sizeof(rowColours[0]))];
        segment.toolTip = QStringLiteral("%1%2\nstart %3, duration %4")
                              .arg(text(record.kernel))
                              .arg(record.iteration >= 0 ? QStringLiteral(", round %1").arg(record.iteration) : QString())
                              .arg(formatDuration(double(record.start - origin)), formatDuration(double(record.duration())));
        segments.push_back(segment);
    }
    timeline_->setSegments(std::move(segments));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int k = 0; k < rows.size(); ++k)
        ticker->addTick(double(k), rows[k]);
    plot_->yAxis->setTicker(ticker);
    plot_->xAxis->setLabel(QStringLiteral("Time since the first command was queued (%1); gaps are host overhead").arg(unit.symbol));
    if (timeline_->segments().empty()) {
        plot_->xAxis->setRange(0, 1);
        plot_->yAxis->setRange(-0.5, 0.5);
    } else {
        plot_->rescaleAxes();
        const QCPRange x = plot_->xAxis->range();
        plot_->xAxis->setRange(std::min(0.0, x.lower), x.upper + (x.upper - x.lower) * 0.02);
        plot_->yAxis->setRange(-0.6, double(rows.size()) - 0.4);
    }
    plot_->replot();
}

} // namespace rgx::ui
