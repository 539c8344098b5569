// View state: turns the document, the shown result and the display options
// into the view's picture, which the view renders for the part it shows, at
// its own resolution, from the result's maps (full or box): an edit costs the
// screen's size, not the image's.
#include "ViewState.h"

#include "Document.h"
#include "Format.h"
#include "ImageView.h"
#include "Notices.h"
#include "PlaybackPanel.h"
#include "VolumeView.h"
#include <algorithm>

namespace rgx::ui {

ViewState::ViewState(Document* document, ImageView* view, PlaybackPanel* playback, Notices* notices, QObject* parent)
    : QObject(parent), document_(document), view_(view), playback_(playback), notices_(notices)
{
    connect(playback_, &PlaybackPanel::frameChanged, this, &ViewState::refreshPicture);
    connect(playback_, &PlaybackPanel::displayChanged, this, &ViewState::refreshPicture);
    updateDiffLabel();
}

uint32_t ViewState::frame() const { return playback_->frame(); }

bool ViewState::showsVolume() const { return volumeView_ && document_->isVolume(); }

void ViewState::setCorruptionView(bool on)
{
    if (corruption_ == on)
        return;
    corruption_ = on;
    emit corruptionViewChanged(on);
    updateDiffLabel();
    if (!updateFrameCount())
        refreshPicture();
}

// The result's iterations, or in the corruption view the result's or the
// reference's, whichever ran longer: where a wrong run stopped early, the
// damage still spreads while the reference grows on.
uint32_t ViewState::lastFrame() const
{
    uint32_t last = result_ ? result_->iterations : 0;
    if (corruption_ && diff_ && !diff_->perIteration.empty())
        last = std::max(last, uint32_t(diff_->perIteration.size() - 1));
    return last;
}

bool ViewState::updateFrameCount()
{
    if (!result_ || playback_->lastFrame() == lastFrame())
        return false;
    playback_->setFrameCount(lastFrame());
    // setFrameCount moves the slider silently: the picture and the chart's marker follow this.
    emit playback_->frameChanged(playback_->frame());
    return true;
}

void ViewState::setStale(const QString& reason)
{
    if (reason == stale_)
        return;
    stale_ = reason;
    const QString banner = reason.isEmpty() ? QString()
                                            : QStringLiteral("Stale: %1. Run (F5) to see the current settings.").arg(reason);
    view_->setBanner(banner);
    if (volumeView_)
        volumeView_->setBanner(banner);
    refreshPicture();
}

void ViewState::showImage()
{
    filteredImage_ = QImage();
    filteredOf_.reset();
    if (showsVolume()) {
        view_->clear();
        volumeView_->setVolume(document_->luma());
    } else if (volumeView_) {
        volumeView_->clear();
    }
    showInView(nullptr, OverlayStyle(), ViewLayers(), true);
}

void ViewState::showResult(const RunOutcome& outcome)
{
    result_ = outcome.result;
    reference_ = outcome.reference;
    diff_ = outcome.diff;
    beforePostfilter_.reset();
    if (!result_) {
        playback_->setFilteredAvailable(false);
        playback_->setBeforePostfilterAvailable(false);
        playback_->clearFrames();
        updateDiffLabel();
        return;
    }
    playback_->setFilteredAvailable(result_->filteredLuma != nullptr);
    if (!result_->labelsBeforePostfilter.empty()) {
        auto before = std::make_shared<GrowResult>(*result_);
        before->labels = result_->labelsBeforePostfilter;
        before->stamps = result_->stampsBeforePostfilter;
        beforePostfilter_ = std::move(before);
    }
    playback_->setBeforePostfilterAvailable(beforePostfilter_ != nullptr);
    playback_->setFrameCount(lastFrame());
    updateDiffLabel();
    refreshPicture();
}

void ViewState::showReference(GrowResultPtr reference, std::shared_ptr<const ResultDiff> diff)
{
    reference_ = std::move(reference);
    diff_ = std::move(diff);
    updateDiffLabel();
    if (!updateFrameCount())
        refreshPicture();
}

void ViewState::showPartial(GrowResultPtr partial)
{
    if (!document_->hasImage() || partial->width != document_->luma()->width)
        return;
    // A volume's preview must have its shape (the engine's stacked slices).
    if (document_->isVolume() && (partial->height != document_->luma()->height || partial->depth != document_->luma()->depth))
        return;
    // The regions so far, over the image: the run streams its growth (the
    // maps of a large image hold every n-th pixel; the view draws each pixel
    // from the sample at or before it).
    OverlayStyle style = overlayStyle(partial->iterations);
    style.frontier = false;
    showInView(partial, style, ViewLayers(), false);
    ++partialPictures_;
}

void ViewState::updateDiffLabel()
{
    QString label;
    if (!corruption_)
        label = QStringLiteral("Corruption view off (Ctrl+D shows the pixels that differ from the CPU reference).");
    else if (!result_)
        label = QStringLiteral("Run the pipeline to compare it with the CPU reference.");
    else if (!diff_)
        label = QStringLiteral("Computing the CPU reference...");
    else if (diff_->differingPixels == 0)
        label = document_->isVolume() ? QStringLiteral("Identical to the CPU reference: no voxel differs.")
                                      : QStringLiteral("Identical to the CPU reference: no pixel differs.");
    else {
        const double share = 100.0 * double(diff_->differingPixels) / double(std::max<size_t>(1, diff_->mask.size()));
        label = QStringLiteral("%1 %2 differ from the CPU reference (%3 % of the %4); first at iteration %5.")
                    .arg(formatCount(diff_->differingPixels))
                    .arg(document_->isVolume() ? QStringLiteral("voxels") : QStringLiteral("pixels"))
                    .arg(share, 0, 'f', share < 0.01 ? 4 : 2)
                    .arg(document_->isVolume() ? QStringLiteral("volume") : QStringLiteral("image"))
                    .arg(diff_->firstDifferingIteration);
    }
    playback_->setDiffText(label);
    if (corruption_ && diff_)
        notices_->status(label, 10000);
}

// ---- pictures -------------------------------------------------------------

// What the display settings show of frame `frame`: the result drawn over
// (the filtered) image, or under the corruption view the regions over the
// darkened image with the differences on top.
ViewState::Frame ViewState::frameLayers(uint32_t frame) const
{
    Frame shown;
    shown.style = overlayStyle(frame);
    if (!result_ || (!playback_->overlayShown() && !corruption_)) {
        shown.layers.regions = false;
        shown.result = result_;
        return shown;
    }
    if (corruption_) {
        shown.result = result_;
        shown.layers.baseDivisor = 3;
        if (diff_) {
            shown.differences = diff_;
            shown.layers.differences = &diff_->mask;
            shown.reference = reference_;
            shown.layers.referenceStamps = reference_ ? &reference_->stamps : nullptr;
            shown.layers.allDifferences = frame >= playback_->lastFrame();
        }
        return shown;
    }
    shown.result = playback_->showBeforePostfilter() && beforePostfilter_ ? beforePostfilter_ : result_;
    return shown;
}

QImage ViewState::currentPicture()
{
    if (showsVolume())
        return volumeView_->slicePicture(Plane::Axial);
    if (!document_->hasImage() || !shownRenderer_)
        return QImage();
    QImage picture(shownSize_, QImage::Format_RGB32);
    shownRenderer_(QRectF(QPointF(0, 0), QSizeF(shownSize_)), picture);
    return picture;
}

// The view renders what it shows itself: the frame's layers, kept alive by
// the renderer, drawn at screen size.
void ViewState::showInView(GrowResultPtr result, const OverlayStyle& style, ViewLayers layers, bool newImage,
                           std::shared_ptr<const void> keepAlive)
{
    if (showsVolume()) {
        // The volume view cuts the slices it shows from the frame's maps.
        VolumeView::Frame frame;
        frame.result = std::move(result);
        frame.style = style;
        frame.layers = layers;
        frame.keepAlive = std::move(keepAlive);
        const bool filtered = layers.baseDivisor <= 1 && playback_->showFiltered() && result_ && result_->filteredLuma
            && result_->filteredLuma->size() == document_->luma()->luma.size();
        if (filtered)
            frame.luma = result_->filteredLuma;
        frame.over = pictureLayers_ ? pictureLayers_() : nullptr;
        if (frame.over && !frame.over->grid)
            frame.over.reset(); // no work-group map: the slices cost what they did without it
        volumeView_->showFrame(frame);
        return;
    }
    const QImage base = layers.baseDivisor > 1 ? document_->image() : baseImage();
    PictureLayersPtr over = pictureLayers_ ? pictureLayers_() : nullptr;
    if (over && over->empty())
        over.reset(); // nothing to draw: the picture costs what it did without layers
    auto renderer = [base, result, style, layers, keepAlive, over](const QRectF& source, QImage& out) {
        renderOverlayView(base, result.get(), style, layers, source, out);
        if (over)
            over->draw(base.size(), source, out);
    };
    shownRenderer_ = renderer;
    shownSize_ = base.size();
    view_->setRenderedPicture(base.size(), renderer, ++renderSerial_, newImage);
}

OverlayStyle ViewState::overlayStyle(uint32_t frame) const
{
    OverlayStyle style;
    style.opacity = playback_->opacity() * (stale_.isEmpty() ? 1.0 : 0.35);
    style.outlines = playback_->outlines();
    style.frontier = playback_->frontier();
    style.frame = frame;
    return style;
}

const QImage& ViewState::baseImage()
{
    const QImage& image = document_->image();
    if (!playback_->showFiltered() || !result_ || !result_->filteredLuma
        || result_->filteredLuma->size() != size_t(image.width()) * size_t(image.height()))
        return image;
    // Made once per prefilter output: the edits of one prefilter share it.
    if (filteredImage_.isNull() || filteredOf_ != result_->filteredLuma) {
        filteredOf_ = result_->filteredLuma;
        // 16-bit luma is shown by its high byte, as lumaToQImage does.
        QImage grey(image.width(), image.height(), QImage::Format_Grayscale8);
        const int shift = document_->luma()->bitDepth > 8 ? 8 : 0;
        for (int y = 0; y < grey.height(); ++y) {
            uchar* line = grey.scanLine(y);
            for (int x = 0; x < grey.width(); ++x)
                line[x] = uchar((*filteredOf_)[size_t(y) * size_t(grey.width()) + size_t(x)] >> shift);
        }
        filteredImage_ = grey;
    }
    return filteredImage_;
}

void ViewState::refreshPicture()
{
    if (!document_->hasImage()) {
        view_->clear();
        if (volumeView_)
            volumeView_->clear();
        return;
    }
    const Frame shown = frameLayers(playback_->frame());
    auto keep = std::make_shared<std::pair<std::shared_ptr<const ResultDiff>, GrowResultPtr>>(shown.differences,
                                                                                              shown.reference);
    showInView(shown.result, shown.style, shown.layers, false, keep);
}

QString ViewState::voxelInfo(const Seed& voxel, bool inside) const
{
    const std::shared_ptr<const LumaImage> luma = document_->luma();
    if (!inside || !luma || !document_->contains(voxel))
        return QString();
    const int value = luma->at(voxel.x, voxel.y, voxel.z);
    const int32_t shift = luma->volume.valueShift;
    QString info = QStringLiteral("x %1  y %2  z %3  luma %4").arg(voxel.x).arg(voxel.y).arg(voxel.z).arg(value);
    if (shift != 0)
        info += QStringLiteral(" (value %1)").arg(value - shift);
    if (result_ && result_->width == luma->width && result_->height == luma->height && result_->depth == luma->depth) {
        // The maps stack the slices one below the other (engine/Result.h).
        const BoxMaps maps = mapsView(*result_);
        const int row = voxel.z * luma->height + voxel.y;
        const uint32_t stamp = maps.stamp(voxel.x, row);
        const size_t p = size_t(seedIndex(voxel, luma->width, luma->height));
        if (result_->filteredLuma && result_->filteredLuma->size() == luma->luma.size())
            info += QStringLiteral(" (filtered %1)").arg((*result_->filteredLuma)[p]);
        info += QStringLiteral("  label %1  stamp %2")
                    .arg(maps.label(voxel.x, row))
                    .arg(stamp == unclassifiedStamp ? QStringLiteral("-") : QString::number(stamp));
    }
    return info;
}

QString ViewState::pixelInfo(QPoint pixel, bool inside) const
{
    const std::shared_ptr<const LumaImage> luma = document_->luma();
    if (!inside || !luma || !luma->width)
        return QString();
    QString info = QStringLiteral("x %1  y %2  luma %3").arg(pixel.x()).arg(pixel.y()).arg(luma->at(pixel.x(), pixel.y()));
    if (result_ && result_->width == luma->width && result_->height == luma->height) {
        const size_t p = size_t(pixel.y()) * size_t(luma->width) + size_t(pixel.x());
        const BoxMaps maps = mapsView(*result_);
        const uint32_t stamp = maps.stamp(pixel.x(), pixel.y());
        if (result_->filteredLuma && result_->filteredLuma->size() == luma->luma.size())
            info += QStringLiteral(" (filtered %1)").arg((*result_->filteredLuma)[p]);
        info += QStringLiteral("  label %1  stamp %2")
                    .arg(maps.label(pixel.x(), pixel.y()))
                    .arg(stamp == unclassifiedStamp ? QStringLiteral("-") : QString::number(stamp));
    }
    return info;
}

} // namespace rgx::ui
