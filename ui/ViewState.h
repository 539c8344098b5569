// What the image view shows: the image, the shown result's frame as playback
// and the display options choose it, the corruption view (differences from
// the CPU reference), the partial pictures of a running run, and the line
// that sums up the differences. The view renders each at its own size.
#pragma once

#include "EngineTypes.h"
#include "ImageView.h"
#include "Overlay.h"
#include "PictureLayers.h"
#include <QImage>
#include <QObject>
#include <QPixmap>
#include <QPoint>
#include <functional>
#include <memory>
#include <utility>

namespace rgx::ui {

class Document;
class ImageView;
class Notices;
class PlaybackPanel;
class VolumeView;

class ViewState : public QObject {
    Q_OBJECT
public:
    ViewState(Document* document, ImageView* view, PlaybackPanel* playback, Notices* notices, QObject* parent = nullptr);
    // Where a volume is shown (its three slices) instead of the image view.
    void setVolumeView(VolumeView* volumeView) { volumeView_ = volumeView; }
    bool showsVolume() const;

    bool corruptionView() const { return corruption_; }
    // The picture the view shows now (without seed markers), whole: rendered
    // at full size on demand for images the view renders part by part; for
    // a volume, its axial slice shown.
    QImage currentPicture();
    // The status bar's line for the pixel under the cursor, or the voxel.
    QString pixelInfo(QPoint pixel, bool inside) const;
    QString voxelInfo(const Seed& voxel, bool inside) const;
    // How many partial pictures of running runs were drawn so far.
    int partialPictures() const { return partialPictures_; }
    // The frame playback shows.
    uint32_t frame() const;
    // The layers drawn over every picture of an image (the work-group map,
    // the race markers), asked for each time the picture changes.
    void setPictureLayers(std::function<PictureLayersPtr()> source) { pictureLayers_ = std::move(source); }


public slots:
    // The corruption view: the regions over the darkened image, pixels that
    // differ from the CPU reference in magenta.
    void setCorruptionView(bool on);
    // The result no longer matches the panels (empty: it does): its regions
    // are drawn faint, under a line that says why.
    void setStale(const QString& reason);
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
    // The last frame playback offers, and playback moved to it where it changed.
    uint32_t lastFrame() const;
    bool updateFrameCount();
    OverlayStyle overlayStyle(uint32_t frame) const;
    void showInView(GrowResultPtr result, const OverlayStyle& style, ViewLayers layers, bool newImage,
                    std::shared_ptr<const void> keepAlive = {});
    // The picture the regions are drawn on: the image, or the prefilter's output.
    const QImage& baseImage();

    Document* document_;
    ImageView* view_;
    VolumeView* volumeView_ = nullptr;
    PlaybackPanel* playback_;
    Notices* notices_;
    bool corruption_ = false;
    QString stale_;

    GrowResultPtr result_;
    GrowResultPtr beforePostfilter_; // result_ with the labels and stamps before the postfilter
    GrowResultPtr reference_;
    std::shared_ptr<const ResultDiff> diff_;
    quint64 renderSerial_ = 0; // of what the view renders
    ImageView::Renderer shownRenderer_; // what the view shows, for currentPicture()
    QSize shownSize_;
    // The prefilter's output, grey, built when first shown, and the output it shows.
    QImage filteredImage_;
    std::shared_ptr<const std::vector<uint16_t>> filteredOf_;
    int partialPictures_ = 0;  // drawn while runs were still going
    std::function<PictureLayersPtr()> pictureLayers_;
};

} // namespace rgx::ui
