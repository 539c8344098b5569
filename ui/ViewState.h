// What the image view shows: the image, the shown result's frame as playback
// and the display options choose it, the corruption view (differences from
// the CPU reference), the partial pictures of a running run, and the line
// that sums up the differences. The frames drawn are cached per result.
#pragma once

#include "EngineTypes.h"
#include "Overlay.h"
#include <QCache>
#include <QImage>
#include <QObject>
#include <QPixmap>
#include <QPoint>
#include <memory>
#include <utility>

namespace rgx::ui {

class Document;
class ImageView;
class Notices;
class PlaybackPanel;

class ViewState : public QObject {
    Q_OBJECT
public:
    ViewState(Document* document, ImageView* view, PlaybackPanel* playback, Notices* notices, QObject* parent = nullptr);

    bool corruptionView() const { return corruption_; }
    // The picture the view shows now (without seed markers), whole: rendered
    // at full size on demand for images the view renders part by part.
    QImage currentPicture();
    // The status bar's line for the pixel under the cursor.
    QString pixelInfo(QPoint pixel, bool inside) const;
    // How many partial pictures of running runs were drawn so far.
    int partialPictures() const { return partialPictures_; }
    // The frame playback shows.
    uint32_t frame() const;
    // Milliseconds spent drawing whole pictures since the last call.
    double takePictureMs() { return std::exchange(pictureMs_, 0.0); }

public slots:
    // The corruption view: the regions over the darkened image, pixels that
    // differ from the CPU reference in magenta.
    void setCorruptionView(bool on);
    // A new image in the document: the image alone.
    void showImage();
    // A new result (an empty outcome: none).
    void showResult(const rgx::ui::RunOutcome& outcome);
    void showReference(rgx::GrowResultPtr reference, std::shared_ptr<const rgx::ResultDiff> diff);
    // A running run's regions so far, drawn at once.
    void showPartial(rgx::GrowResultPtr partial);
    void refreshPicture();
    void updateDiffLabel();

signals:
    void corruptionViewChanged(bool on);

private:
    // The layers of a frame as the display settings show it, and what keeps them alive.
    struct Frame {
        GrowResultPtr result;
        OverlayStyle style;
        ViewLayers layers;
        std::shared_ptr<const ResultDiff> differences;
        GrowResultPtr reference;
    };
    Frame frameLayers(uint32_t frame) const;
    QImage framePicture(uint32_t frame);
    OverlayStyle overlayStyle(uint32_t frame) const;
    bool renderedInView() const;
    void showInView(GrowResultPtr result, const OverlayStyle& style, ViewLayers layers, bool newImage,
                    std::shared_ptr<const void> keepAlive = {});
    // The picture the regions are drawn on: the image, or the prefilter's output.
    const QImage& baseImage();

    Document* document_;
    ImageView* view_;
    PlaybackPanel* playback_;
    Notices* notices_;
    bool corruption_ = false;

    GrowResultPtr result_;
    GrowResultPtr beforePostfilter_; // result_ with the labels and stamps before the postfilter
    GrowResultPtr reference_;
    std::shared_ptr<const ResultDiff> diff_;
    quint64 resultSerial_ = 0;
    // Frames already drawn, keyed by result, frame and display options; cost in KiB.
    QCache<QString, QPixmap> frameCache_{256 * 1024};

    QPixmap basePixmap_;       // the image as a pixmap, for images drawn whole
    QImage shrunkImage_;       // it shrunk to the partial pictures of a large image
    quint64 renderSerial_ = 0; // of what the view renders itself (large images)
    QImage filteredImage_;     // the prefilter's output of result_, grey, built when first shown
    QPixmap currentPicture_;
    int partialPictures_ = 0;  // drawn while runs were still going
    double pictureMs_ = 0;
};

} // namespace rgx::ui
