// Image view: painting only the visible part, from a level of detail that
// fits the zoom, with seed markers on top; mouse editing of seeds.
#include "ImageView.h"

#include "io/Overlay.h"
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <cmath>

namespace rgx::ui {

namespace {
constexpr double minimumScale = 1.0 / 64.0;
constexpr double maximumScale = 64.0;
constexpr double markerRadius = 9.0;
constexpr double wheelStep = 1.25;
} // namespace

ImageView::ImageView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("imageView"));
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(240, 180);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(QStringLiteral("Click: add a seed; drag a seed: move it; right-click a seed: remove it.\n"
                              "Drag elsewhere or with the middle button: pan; wheel: zoom."));
}

void ImageView::setRenderedPicture(QSize imageSize, Renderer renderer, quint64 serial, bool newImage)
{
    renderer_ = std::move(renderer);
    rendererSerial_ = serial;
    const QSize previousSize = imageSize_;
    imageSize_ = imageSize;
    if (newImage || previousSize != imageSize_) {
        fitting_ = true;
        zoomToFit();
    }
    update();
}

QImage ImageView::grabShown()
{
    return grab().toImage();
}

void ImageView::clear()
{
    renderer_ = nullptr;
    rendered_ = QImage();
    imageSize_ = QSize();
    seeds_.clear();
    selected_ = -1;
    update();
}

void ImageView::setSeeds(const std::vector<Seed>& seeds, std::vector<bool> hidden)
{
    seeds_ = seeds;
    hidden_ = std::move(hidden);
    if (selected_ >= int(seeds_.size()))
        selected_ = -1;
    update();
}

void ImageView::setBanner(const QString& text)
{
    if (text == banner_)
        return;
    banner_ = text;
    update();
}

void ImageView::drawBanner(QPainter& painter)
{
    if (banner_.isEmpty())
        return;
    painter.setRenderHint(QPainter::Antialiasing, false);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    const QRect band(0, 0, width(), painter.fontMetrics().height() + 10);
    painter.fillRect(band, QColor(160, 90, 0, 215));
    painter.setPen(Qt::white);
    painter.drawText(band.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft,
                     painter.fontMetrics().elidedText(banner_, Qt::ElideRight, band.width() - 16));
}

void ImageView::setSelectedSeed(int index)
{
    selected_ = (index >= 0 && index < int(seeds_.size())) ? index : -1;
    update();
}

void ImageView::setPixelAspect(double aspect)
{
    if (aspect <= 0 || aspect == aspect_)
        return;
    aspect_ = aspect;
    fitting_ = true;
    zoomToFit();
}

QPointF ImageView::pixelCentre(int x, int y) const
{
    return offset_ + QPointF((x + 0.5) * scale_, (y + 0.5) * scale_ * aspect_);
}

QPoint ImageView::pixelAt(const QPointF& widgetPosition) const
{
    const QPointF offset = widgetPosition - offset_;
    return QPoint(int(std::floor(offset.x() / scale_)), int(std::floor(offset.y() / (scale_ * aspect_))));
}

bool ImageView::contains(const QPoint& pixel) const
{
    return pixel.x() >= 0 && pixel.y() >= 0 && pixel.x() < imageSize_.width()
        && pixel.y() < imageSize_.height();
}

QPoint ImageView::clampToImage(const QPoint& pixel) const
{
    return QPoint(std::clamp(pixel.x(), 0, std::max(0, imageSize_.width() - 1)),
                  std::clamp(pixel.y(), 0, std::max(0, imageSize_.height() - 1)));
}

int ImageView::seedAt(const QPointF& widgetPosition) const
{
    // The last drawn marker is on top, so search from the end.
    const double reach = std::max(markerRadius, scale_ * 0.5) + 2.0;
    for (int i = int(seeds_.size()) - 1; i >= 0; --i) {
        if (!seedShown(size_t(i)))
            continue;
        const QPointF centre = pixelCentre(seeds_[size_t(i)].x, seeds_[size_t(i)].y);
        if (QLineF(centre, widgetPosition).length() <= reach)
            return i;
    }
    return -1;
}

void ImageView::zoomIn() { zoomAround(wheelStep, QRectF(rect()).center()); }
void ImageView::zoomOut() { zoomAround(1.0 / wheelStep, QRectF(rect()).center()); }

void ImageView::zoomToFit()
{
    if (imageSize_.isEmpty())
        return;
    fitting_ = true;
    const double margin = 8.0;
    const double scale = std::min((width() - 2 * margin) / imageSize_.width(),
                                  (height() - 2 * margin) / (imageSize_.height() * aspect_));
    scale_ = std::clamp(scale, minimumScale, maximumScale);
    offset_ = QPointF((width() - imageSize_.width() * scale_) / 2.0,
                      (height() - imageSize_.height() * scale_ * aspect_) / 2.0);
    emit zoomChanged(scale_);
    update();
}

void ImageView::zoomActualSize()
{
    fitting_ = false;
    setScale(1.0, QRectF(rect()).center());
}

void ImageView::centreOn(const QPointF& point, double scale)
{
    if (imageSize_.isEmpty())
        return;
    fitting_ = false;
    scale_ = std::clamp(std::max(scale_, scale), minimumScale, maximumScale);
    offset_ = QRectF(rect()).center() - QPointF(point.x() * scale_, point.y() * scale_ * aspect_);
    emit zoomChanged(scale_);
    update();
}

void ImageView::zoomAround(double factor, const QPointF& anchor)
{
    fitting_ = false;
    setScale(scale_ * factor, anchor);
}

void ImageView::setScale(double scale, const QPointF& anchor)
{
    if (imageSize_.isEmpty())
        return;
    scale = std::clamp(scale, minimumScale, maximumScale);
    // Keep the image point under the anchor where it is.
    const QPointF imagePoint((anchor.x() - offset_.x()) / scale_, (anchor.y() - offset_.y()) / (scale_ * aspect_));
    scale_ = scale;
    offset_ = anchor - QPointF(imagePoint.x() * scale_, imagePoint.y() * scale_ * aspect_);
    emit zoomChanged(scale_);
    update();
}

void ImageView::paintEvent(QPaintEvent*)
{
    QElapsedTimer clock;
    clock.start();
    lastPaint_ = PaintTimes();
    paintView();
    lastPaint_.totalMs = double(clock.nsecsElapsed()) / 1e6;
    emit painted();
}

void ImageView::paintView()
{
    QPainter painter(this);
    painter.fillRect(rect(), QColor(58, 60, 64));
    if (renderer_) {
        // The visible part, rendered at the view's resolution; again only
        // when the part, its size or what it draws changed.
        const double scaleY = scale_ * aspect_;
        const QRectF shown = QRectF(offset_, QSizeF(imageSize_.width() * scale_, imageSize_.height() * scaleY))
                                 .intersected(QRectF(rect()));
        if (!shown.isEmpty()) {
            const QRectF source((shown.left() - offset_.x()) / scale_, (shown.top() - offset_.y()) / scaleY,
                                shown.width() / scale_, shown.height() / scaleY);
            const qreal ratio = devicePixelRatioF();
            const QSize size(std::max(1, int(std::lround(shown.width() * ratio))),
                             std::max(1, int(std::lround(shown.height() * ratio))));
            if (rendered_.size() != size || renderedSource_ != source || renderedSerial_ != rendererSerial_) {
                QElapsedTimer clock;
                clock.start();
                rendered_ = QImage(size, QImage::Format_RGB32);
                renderer_(source, rendered_);
                lastPaint_.renderMs = double(clock.nsecsElapsed()) / 1e6;
                rendered_.setDevicePixelRatio(ratio);
                renderedSource_ = source;
                renderedSerial_ = rendererSerial_;
            }
            painter.drawImage(shown.topLeft(), rendered_);
        }
        paintOverPicture(painter);
        drawSeeds(painter);
        drawBanner(painter);
        return;
    }
    painter.setPen(QColor(220, 220, 220));
    painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
                     QStringLiteral("Open an image (Ctrl+O), a sample (File > Open Sample),\n"
                                    "or drop an image or session file here."));
}

// A seed's numbered marker, drawn once and kept: text and antialiased
// circles cost more than the rest of a paint when there are dozens of seeds.
const QPixmap& ImageView::marker(int index, bool selected)
{
    const qreal ratio = devicePixelRatioF();
    const quint64 key = (quint64(index) << 1) | (selected ? 1u : 0u);
    auto cached = markers_.find(key);
    if (cached != markers_.end() && qFuzzyCompare(cached->devicePixelRatio(), ratio))
        return *cached;
    const QString number = QString::number(index + 1);
    const double radius = std::max(markerRadius, 4.0 + 3.5 * number.size());
    const double side = 2 * radius + 4;
    QPixmap pixmap(QSize(int(std::ceil(side * ratio)), int(std::ceil(side * ratio))));
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing, true);
    QFont font = this->font();
    font.setBold(true);
    font.setPointSizeF(7.5);
    painter.setFont(font);
    const QColor colour = regionColour(index + 1);
    const QPointF centre(side / 2, side / 2);
    painter.setPen(QPen(selected ? QColor(255, 255, 255) : QColor(0, 0, 0), selected ? 3.0 : 1.5));
    painter.setBrush(colour);
    painter.drawEllipse(centre, radius, radius);
    const double luminance = 0.299 * colour.redF() + 0.587 * colour.greenF() + 0.114 * colour.blueF();
    painter.setPen(luminance > 0.55 ? Qt::black : Qt::white);
    painter.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius), Qt::AlignCenter, number);
    painter.end();
    return *markers_.insert(key, pixmap);
}

void ImageView::drawSeeds(QPainter& painter)
{
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (size_t i = 0; i < seeds_.size(); ++i) {
        if (!seedShown(i))
            continue;
        QPoint pixel(seeds_[i].x, seeds_[i].y);
        if (drag_ == Drag::Seed && int(i) == dragIndex_)
            pixel = dragPixel_;
        const QPointF centre = pixelCentre(pixel.x(), pixel.y());
        if (!QRectF(rect()).adjusted(-20, -20, 20, 20).contains(centre))
            continue;
        const bool selected = int(i) == selected_;
        if (scale_ >= 6.0) {
            // Close up, outline the seed's pixel itself.
            painter.setPen(QPen(Qt::white, 1.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(offset_ + QPointF(pixel.x() * scale_, pixel.y() * scale_ * aspect_),
                                    QSizeF(scale_, scale_ * aspect_)));
        }
        const QPixmap& picture = marker(int(i), selected);
        const QSizeF size = picture.deviceIndependentSize();
        painter.drawPixmap(centre - QPointF(size.width() / 2, size.height() / 2), picture);
    }
}

void ImageView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (fitting_)
        zoomToFit();
}

void ImageView::wheelEvent(QWheelEvent* event)
{
    if (!hasPicture())
        return;
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0)
        zoomAround(std::pow(wheelStep, steps), event->position());
    event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (!hasPicture())
        return;
    pressPosition_ = event->position();
    lastPosition_ = event->position();
    const int hit = seedAt(event->position());
    if (event->button() == Qt::LeftButton) {
        if (hit >= 0) {
            drag_ = Drag::Seed;
            dragIndex_ = hit;
            dragPixel_ = QPoint(seeds_[size_t(hit)].x, seeds_[size_t(hit)].y);
            setSelectedSeed(hit);
            emit seedSelected(hit);
        } else {
            // A click adds a seed on release; a drag pans instead.
            drag_ = Drag::Pending;
        }
    } else if (event->button() == Qt::MiddleButton) {
        drag_ = Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    } else if (event->button() == Qt::RightButton && hit >= 0) {
        emit seedRemoveRequested(hit);
    }
    event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF position = event->position();
    if (hasPicture()) {
        const QPoint pixel = pixelAt(position);
        emit hoverPixel(pixel, contains(pixel));
    }
    switch (drag_) {
    case Drag::Pending:
        if ((position - pressPosition_).manhattanLength() >= QApplication::startDragDistance()) {
            drag_ = Drag::Pan;
            setCursor(Qt::ClosedHandCursor);
        } else {
            break;
        }
        [[fallthrough]];
    case Drag::Pan:
        fitting_ = false;
        offset_ += position - lastPosition_;
        update();
        break;
    case Drag::Seed: {
        // Seeds cannot leave the image: the marker stops at its edge.
        const QPoint pixel = clampToImage(pixelAt(position));
        if (pixel != dragPixel_) {
            dragPixel_ = pixel;
            emit seedDragged(dragIndex_, pixel);
        }
        update();
        break;
    }
    case Drag::None:
        setCursor(seedAt(position) >= 0 ? Qt::OpenHandCursor : Qt::CrossCursor);
        break;
    }
    lastPosition_ = position;
}

void ImageView::mouseReleaseEvent(QMouseEvent* event)
{
    const Drag drag = drag_;
    drag_ = Drag::None;
    unsetCursor();
    if (drag == Drag::Seed && event->button() == Qt::LeftButton) {
        const QPoint from(seeds_[size_t(dragIndex_)].x, seeds_[size_t(dragIndex_)].y);
        const QPoint to = clampToImage(pixelAt(event->position()));
        const int index = dragIndex_;
        dragIndex_ = -1;
        if (to != from)
            emit seedMoveRequested(index, from, to);
        emit seedDragFinished();
        update();
    } else if (drag == Drag::Pending && event->button() == Qt::LeftButton) {
        const QPoint pixel = pixelAt(event->position());
        if (contains(pixel))
            emit seedAddRequested(pixel);
    }
    event->accept();
}

void ImageView::leaveEvent(QEvent* event)
{
    emit hoverPixel(QPoint(-1, -1), false);
    QWidget::leaveEvent(event);
}

} // namespace rgx::ui
