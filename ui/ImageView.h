// The image in the centre: zoom (wheel, fit, 1:1), pan, the current frame's
// picture, and the seeds as numbered markers that can be added, dragged and removed.
#pragma once

#include "Seeds.h"
#include <QHash>
#include <QImage>
#include <QPixmap>
#include <QPoint>
#include <QWidget>
#include <functional>
#include <vector>

namespace rgx::ui {

class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    // Draws the image rectangle `source` (image pixels) into all of `out`.
    using Renderer = std::function<void(const QRectF& source, QImage& out)>;
    // A picture too large to hold whole at full size (and its frames): the
    // renderer draws the visible part at the view's own resolution whenever
    // the view changes; `serial` names what it draws (a new one, a new frame).
    void setRenderedPicture(QSize imageSize, Renderer renderer, quint64 serial, bool newImage);
    void clear();
    bool hasPicture() const { return bool(renderer_); }
    // What the view shows now, at its own size (the rendered part included).
    QImage grabShown();
    QSize imageSize() const { return imageSize_; }
    // The last paint: milliseconds spent rendering the overlay (0 when the
    // part shown was rendered before) and in the whole paint event.
    struct PaintTimes {
        double renderMs = 0;
        double totalMs = 0;
    };
    const PaintTimes& lastPaint() const { return lastPaint_; }

    // Seeds at their pixels (x, y), seed k-1 numbered k; hidden[i] (where
    // given) leaves seed i out (a volume's slice shows the seeds on it only).
    void setSeeds(const std::vector<Seed>& seeds, std::vector<bool> hidden = {});
    // The height of a pixel on screen over its width (a volume's slice of
    // anisotropic voxels); 1 for images.
    void setPixelAspect(double aspect);
    double pixelAspect() const { return aspect_; }
    // A line drawn across the top of the view (empty: none), e.g. why the
    // picture is stale.
    void setBanner(const QString& text);
    QString banner() const { return banner_; }
    int selectedSeed() const { return selected_; }
    void setSelectedSeed(int index);

    double zoom() const { return scale_; }
    // Moves the picture so that image point `point` (in pixels) is at the
    // view's centre, zoomed in to at least `scale` (a race marker's pixel).
    void centreOn(const QPointF& point, double scale);
    // Widget position of the centre of pixel (x, y), and the pixel under a
    // widget position (possibly outside the image).
    QPointF pixelCentre(int x, int y) const;
    QPoint pixelAt(const QPointF& widgetPosition) const;
    bool contains(const QPoint& pixel) const;

    // Index of the seed whose marker is under a widget position, or -1.
    int seedAt(const QPointF& widgetPosition) const;

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomActualSize();

signals:
    void seedAddRequested(QPoint pixel);
    void seedMoveRequested(int index, QPoint from, QPoint to);
    // While a seed is dragged: each new pixel under it, then the release
    // (whether or not a move is requested).
    void seedDragged(int index, QPoint pixel);
    void seedDragFinished();
    void seedRemoveRequested(int index);
    void seedSelected(int index);
    // The pixel under the cursor; inside is false when the cursor left the image.
    void hoverPixel(QPoint pixel, bool inside);
    void zoomChanged(double zoom);
    // A paint event ended (lastPaint() says what it cost).
    void painted();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    // Drawn over the picture, under the seed markers (a slice's crosshair).
    virtual void paintOverPicture(QPainter&) {}
    bool seedShown(size_t index) const { return index >= hidden_.size() || !hidden_[index]; }

private:
    void paintView();
    void zoomAround(double factor, const QPointF& anchor);
    void setScale(double scale, const QPointF& anchor);
    void drawSeeds(QPainter& painter);
    void drawBanner(QPainter& painter);
    const QPixmap& marker(int index, bool selected);
    QPoint clampToImage(const QPoint& pixel) const;

    Renderer renderer_;
    quint64 rendererSerial_ = 0;
    // The last rendered part, drawn again while nothing it depends on changed.
    QImage rendered_;
    QRectF renderedSource_;
    quint64 renderedSerial_ = 0;
    QSize imageSize_;
    PaintTimes lastPaint_;
    double scale_ = 1.0;      // screen pixels per image pixel, across
    double aspect_ = 1.0;     // a pixel's height over its width on screen
    QPointF offset_;          // widget position of the image's top-left corner
    bool fitting_ = true;     // keep fitting on resize until the user zooms

    std::vector<Seed> seeds_;
    std::vector<bool> hidden_;
    QHash<quint64, QPixmap> markers_; // by seed index and selection
    QString banner_;
    int selected_ = -1;

    enum class Drag { None, Pending, Pan, Seed };
    Drag drag_ = Drag::None;
    QPointF pressPosition_;
    QPointF lastPosition_;
    int dragIndex_ = -1;
    QPoint dragPixel_;
};

} // namespace rgx::ui
