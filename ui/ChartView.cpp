// Chart ranges, their limits and the playback marker.
#include "ChartView.h"

#include <algorithm>

namespace rgx::ui {

namespace {

QCPRange rangeProperty(const QCustomPlot* plot, const char* name)
{
    const QPointF value = plot->property(name).toPointF();
    return QCPRange(value.x(), value.y());
}

bool hasHome(const QCustomPlot* plot) { return plot->property("homeKeys").isValid(); }

// Within [home.lower, ceiling]: a zoom out that passes the home range stops
// there; a drag past an end slides back.
QCPRange clamped(const QCPRange& range, const QCPRange& home, double ceiling)
{
    const double span = std::min(range.size(), ceiling - home.lower);
    double lower = std::max(range.lower, home.lower);
    double upper = lower + span;
    if (upper > ceiling) {
        upper = ceiling;
        lower = upper - span;
    }
    return QCPRange(lower, upper);
}

} // namespace

void setHomeRanges(QCustomPlot* plot, const QCPRange& keys, const QCPRange& values, double valueCeiling)
{
    plot->setProperty("homeKeys", QPointF(keys.lower, keys.upper));
    plot->setProperty("homeValues", QPointF(values.lower, values.upper));
    plot->setProperty("valueCeiling", std::max(valueCeiling, values.upper));
    plot->xAxis->setRange(keys);
    plot->yAxis->setRange(values);
}

bool resetToHome(QCustomPlot* plot)
{
    if (!hasHome(plot))
        return false;
    plot->xAxis->setRange(rangeProperty(plot, "homeKeys"));
    plot->yAxis->setRange(rangeProperty(plot, "homeValues"));
    return true;
}

void keepWithinHome(QCustomPlot* plot)
{
    if (plot->property("keptWithinHome").toBool())
        return;
    plot->setProperty("keptWithinHome", true);
    QObject::connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), plot, [plot](const QCPRange& range) {
        if (!hasHome(plot))
            return;
        const QCPRange home = rangeProperty(plot, "homeKeys");
        const QCPRange limited = clamped(range, home, home.upper);
        if (limited.lower != range.lower || limited.upper != range.upper)
            plot->xAxis->setRange(limited);
    });
    QObject::connect(plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), plot, [plot](const QCPRange& range) {
        if (!hasHome(plot))
            return;
        const QCPRange home = rangeProperty(plot, "homeValues");
        // Bars and lines stand on zero: the value axis keeps its baseline
        // (a reversed row axis, the timeline's, scrolls instead).
        QCPRange limited = clamped(range, home, plot->property("valueCeiling").toDouble());
        if (!plot->yAxis->rangeReversed())
            limited = QCPRange(home.lower, std::max(limited.upper, home.lower + 1e-9));
        if (limited.lower != range.lower || limited.upper != range.upper)
            plot->yAxis->setRange(limited);
    });
    QObject::connect(plot, &QCustomPlot::mouseDoubleClick, plot, [plot] {
        if (resetToHome(plot))
            plot->replot();
    });
}

void markKey(QCustomPlot* plot, double key, const QString& label)
{
    auto* line = plot->findChild<QCPItemStraightLine*>(QStringLiteral("keyMarker"));
    auto* text = plot->findChild<QCPItemText*>(QStringLiteral("keyMarkerLabel"));
    if (!line) {
        line = new QCPItemStraightLine(plot);
        line->setObjectName(QStringLiteral("keyMarker"));
        line->setPen(QPen(QColor(200, 30, 30), 1.5, Qt::DashLine));
        line->setLayer(QStringLiteral("overlay"));
        text = new QCPItemText(plot);
        text->setObjectName(QStringLiteral("keyMarkerLabel"));
        text->setColor(QColor(200, 30, 30));
        text->setFont(QFont(plot->font().family(), 8));
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->setLayer(QStringLiteral("overlay"));
    }
    const bool shown = key >= 0;
    line->setVisible(shown);
    text->setVisible(shown);
    if (!shown)
        return;
    line->point1->setCoords(key, 0);
    line->point2->setCoords(key, 1);
    text->position->setCoords(key, 0.97);
    // Beside the line, on the side with room.
    const bool rightHalf = key > plot->xAxis->range().center();
    text->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom);
    text->setText(rightHalf ? label + QStringLiteral(" ") : QStringLiteral(" ") + label);
}

} // namespace rgx::ui
