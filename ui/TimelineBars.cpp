// Timeline bars: each at least one pixel wide, so that even the shortest
// launch stays visible next to the gaps around it.
#include "TimelineBars.h"

#include <algorithm>

namespace rgx::ui {

TimelineBars::TimelineBars(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
    setAntialiasedFill(false);
}

void TimelineBars::setSegments(std::vector<Segment> segments) { segments_ = std::move(segments); }

QRectF TimelineBars::pixelRect(const Segment& segment) const
{
    const QPointF a = coordsToPixels(segment.start, segment.row - barHeight_ / 2);
    const QPointF b = coordsToPixels(segment.end, segment.row + barHeight_ / 2);
    QRectF rect = QRectF(a, b).normalized();
    if (rect.width() < 1.0)
        rect.setWidth(1.0);
    return rect;
}

int TimelineBars::segmentAt(const QPointF& pixel) const
{
    int best = -1;
    double bestDistance = 4.0; // pixels of slack for thin bars
    for (size_t i = 0; i < segments_.size(); ++i) {
        const QRectF rect = pixelRect(segments_[i]);
        if (pixel.y() < rect.top() || pixel.y() > rect.bottom())
            continue;
        double distance = 0.0;
        if (pixel.x() < rect.left())
            distance = rect.left() - pixel.x();
        else if (pixel.x() > rect.right())
            distance = pixel.x() - rect.right();
        if (distance < bestDistance || (distance == 0.0 && bestDistance == 0.0)) {
            bestDistance = distance;
            best = int(i);
        }
    }
    return best;
}

double TimelineBars::selectTest(const QPointF& pos, bool onlySelectable, QVariant* details) const
{
    if (onlySelectable && !selectable())
        return -1;
    const int index = segmentAt(pos);
    if (index < 0)
        return -1;
    if (details)
        details->setValue(QCPDataSelection(QCPDataRange(index, index + 1)));
    return 0;
}

QCPRange TimelineBars::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = !segments_.empty();
    if (!foundRange)
        return {};
    QCPRange range(segments_.front().start, segments_.front().end);
    for (const Segment& segment : segments_) {
        range.lower = std::min(range.lower, segment.start);
        range.upper = std::max(range.upper, segment.end);
    }
    return range;
}

QCPRange TimelineBars::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = !segments_.empty();
    if (!foundRange)
        return {};
    QCPRange range(segments_.front().row, segments_.front().row);
    for (const Segment& segment : segments_) {
        range.lower = std::min(range.lower, segment.row);
        range.upper = std::max(range.upper, segment.row);
    }
    range.lower -= 0.5;
    range.upper += 0.5;
    return range;
}

void TimelineBars::draw(QCPPainter* painter)
{
    const QCPRange visible = keyAxis()->range();
    painter->setPen(Qt::NoPen);
    for (const Segment& segment : segments_) {
        if (segment.end < visible.lower || segment.start > visible.upper)
            continue;
        painter->fillRect(pixelRect(segment), segment.colour);
    }
}

void TimelineBars::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    painter->fillRect(rect, QColor(90, 90, 90));
}

} // namespace rgx::ui
