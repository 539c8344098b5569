// View state: turns the document, the shown result and the display options
// into the view's picture, drawn whole for ordinary images and by the view
// itself, at its own size, for large ones.
#include "ViewState.h"

#include "Document.h"
#include "Format.h"
#include "ImageView.h"
#include "Notices.h"
#include "PlaybackPanel.h"
#include <QElapsedTimer>
#include <algorithm>

namespace rgx::ui {

namespace {

// Images larger than this are not drawn whole at full size: the view
// renders each frame for what it shows, at its own resolution.
constexpr uint64_t renderedInViewAbove = uint64_t(2048) * 2048;

} // namespace

ViewState::ViewState(Document* document, ImageView* view, PlaybackPanel* playback, Notices* notices, QObject* parent)
    : QObject(parent), document_(document), view_(view), playback_(playback), notices_(notices)
{
    connect(playback_, &PlaybackPanel::frameChanged, this, &ViewState::refreshPicture);
    connect(playback_, &PlaybackPanel::displayChanged, this, &ViewState::refreshPicture);
    updateDiffLabel();
}

uint32_t ViewState::frame() const { return playback_->frame(); }

void ViewState::setCorruptionView(bool on)
{
    if (corruption_ == on)
        return;
    corruption_ = on;
    emit corruptionViewChanged(on);
    updateDiffLabel();
    refreshPicture();
}

void ViewState::showImage()
{
    shrunkImage_ = QImage();
    if (renderedInView()) {
        basePixmap_ = QPixmap();
        currentPicture_ = QPixmap();
        showInView(nullptr, OverlayStyle(), ViewLayers(), true);
    } else {
        basePixmap_ = QPixmap::fromImage(document_->image());
        currentPicture_ = basePixmap_;
        view_->setPicture(basePixmap_, true);
    }
}

void ViewState::showResult(const RunOutcome& outcome)
{
    result_ = outcome.result;
    reference_ = outcome.reference;
    diff_ = outcome.diff;
    ++resultSerial_;
    frameCache_.clear();
    filteredImage_ = QImage();
    beforePostfilter_.reset();
    if (!result_) {
        playback_->setFilteredAvailable(false);
        playback_->setBeforePostfilterAvailable(false);
        playback_->clearFrames();
        updateDiffLabel();
        return;
    }
    playback_->setFilteredAvailable(!result_->filteredLuma.empty());
    if (!result_->labelsBeforePostfilter.empty()) {
        auto before = std::make_shared<GrowResult>(*result_);
        before->labels = result_->labelsBeforePostfilter;
        before->stamps = result_->stampsBeforePostfilter;
        beforePostfilter_ = std::move(before);
    }
    playback_->setBeforePostfilterAvailable(beforePostfilter_ != nullptr);
    playback_->setFrameCount(result_->iterations);
    updateDiffLabel();
    refreshPicture();
}

void ViewState::showReference(GrowResultPtr reference, std::shared_ptr<const ResultDiff> diff)
{
    reference_ = std::move(reference);
    diff_ = std::move(diff);
    frameCache_.clear();
    updateDiffLabel();
    refreshPicture();
}

void ViewState::showPartial(GrowResultPtr partial)
{
    const std::shared_ptr<const LumaImage> luma = document_->luma();
    const QImage& image = document_->image();
    if (!luma || partial->width <= 0)
        return;
    // The regions so far, over the image: the run streams its growth.
    OverlayStyle style = overlayStyle(partial->iterations);
    style.frontier = false;
    if (partial->width != luma->width) {
        // Every step-th pixel of a large image: drawn over the image
        // shrunk as much, the view's coordinates scaled to it.
        const double step = double(luma->width) / double(partial->width);
        if (shrunkImage_.width() != partial->width || shrunkImage_.height() != partial->height)
            shrunkImage_ = image.scaled(partial->width, partial->height, Qt::IgnoreAspectRatio, Qt::FastTransformation);
        const QImage base = shrunkImage_;
        auto renderer = [base, partial, style, step](const QRectF& source, QImage& out) {
            renderOverlayView(base, partial.get(), style, ViewLayers(),
                              QRectF(source.topLeft() / step, source.size() / step), out);
        };
        view_->setRenderedPicture(image.size(), renderer, ++renderSerial_, false);
    } else if (renderedInView()) {
        showInView(partial, style, ViewLayers(), false);
    } else {
        QImage picture(image.size(), QImage::Format_RGB32);
        renderOverlayView(baseImage(), partial.get(), style, ViewLayers(), QRectF(QPointF(0, 0), QSizeF(image.size())),
                          picture);
        currentPicture_ = QPixmap::fromImage(picture);
        view_->setPicture(currentPicture_, false);
    }
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
        label = QStringLiteral("Identical to the CPU reference: no pixel differs.");
    else {
        const double share = 100.0 * double(diff_->differingPixels) / double(std::max<size_t>(1, diff_->mask.size()));
        label = QStringLiteral("%1 pixels differ from the CPU reference (%2 % of the image); first at iteration %3.")
                    .arg(formatCount(diff_->differingPixels))
                    .arg(share, 0, 'f', share < 0.01 ? 4 : 2)
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

QImage ViewState::framePicture(uint32_t frame)
{
    QElapsedTimer clock;
    clock.start();
    struct Count {
        QElapsedTimer& clock;
        double& total;
        ~Count() { total += double(clock.nsecsElapsed()) / 1e6; }
    } count{clock, pictureMs_};
    const Frame shown = frameLayers(frame);
    const QImage& base = shown.layers.baseDivisor > 1 ? document_->image() : baseImage();
    QImage picture(base.size(), QImage::Format_RGB32);
    renderOverlayView(base, shown.result.get(), shown.style, shown.layers, QRectF(QPointF(0, 0), QSizeF(base.size())),
                      picture);
    return picture;
}

QImage ViewState::currentPicture()
{
    return currentPicture_.isNull() && document_->hasImage() ? framePicture(playback_->frame()) : currentPicture_.toImage();
}

bool ViewState::renderedInView() const
{
    return document_->hasImage() && document_->luma()->pixelCount() > renderedInViewAbove;
}

// Above renderedInViewAbove pixels the view renders what it shows itself:
// the frame's layers, kept alive by the renderer, drawn at screen size.
void ViewState::showInView(GrowResultPtr result, const OverlayStyle& style, ViewLayers layers, bool newImage,
                           std::shared_ptr<const void> keepAlive)
{
    const QImage base = layers.baseDivisor > 1 ? document_->image() : baseImage();
    auto renderer = [base, result, style, layers, keepAlive](const QRectF& source, QImage& out) {
        renderOverlayView(base, result.get(), style, layers, source, out);
    };
    view_->setRenderedPicture(base.size(), renderer, ++renderSerial_, newImage);
}

OverlayStyle ViewState::overlayStyle(uint32_t frame) const
{
    OverlayStyle style;
    style.opacity = playback_->opacity();
    style.outlines = playback_->outlines();
    style.frontier = playback_->frontier();
    style.frame = frame;
    return style;
}

const QImage& ViewState::baseImage()
{
    const QImage& image = document_->image();
    if (!playback_->showFiltered() || !result_ || result_->filteredLuma.size() != size_t(image.width()) * size_t(image.height()))
        return image;
    if (filteredImage_.isNull()) {
        // 16-bit luma is shown by its high byte, as lumaToQImage does.
        QImage grey(image.width(), image.height(), QImage::Format_Grayscale8);
        const int shift = document_->luma()->bitDepth > 8 ? 8 : 0;
        for (int y = 0; y < grey.height(); ++y) {
            uchar* line = grey.scanLine(y);
            for (int x = 0; x < grey.width(); ++x)
                line[x] = uchar(result_->filteredLuma[size_t(y) * size_t(grey.width()) + size_t(x)] >> shift);
        }
        filteredImage_ = grey;
    }
    return filteredImage_;
}

void ViewState::refreshPicture()
{
    if (!document_->hasImage()) {
        view_->clear();
        return;
    }
    const uint32_t frame = playback_->frame();
    if (renderedInView()) {
        const Frame shown = frameLayers(frame);
        auto keep = std::make_shared<std::pair<std::shared_ptr<const ResultDiff>, GrowResultPtr>>(shown.differences,
                                                                                                  shown.reference);
        showInView(shown.result, shown.style, shown.layers, false, keep);
        return;
    }
    QPixmap picture;
    if (!result_ || (!playback_->overlayShown() && !corruption_)) {
        picture = playback_->showFiltered() && result_ ? QPixmap::fromImage(baseImage()) : basePixmap_;
    } else {
        const QString key = QStringLiteral("%1/%2/%3/%4/%5/%6/%7")
                                .arg(resultSerial_)
                                .arg(frame)
                                .arg(corruption_ ? (diff_ ? 2 : 1) : 0)
                                .arg(playback_->opacity())
                                .arg(playback_->outlines())
                                .arg(playback_->frontier())
                                .arg(frame >= playback_->lastFrame())
                                + (playback_->showFiltered() ? QStringLiteral("/filtered") : QString())
                                + (playback_->showBeforePostfilter() ? QStringLiteral("/before") : QString());
        if (QPixmap* cached = frameCache_.object(key)) {
            picture = *cached;
        } else {
            picture = QPixmap::fromImage(framePicture(frame));
            frameCache_.insert(key, new QPixmap(picture),
                               std::max<qsizetype>(1, qsizetype(picture.width()) * picture.height() * 4 / 1024));
        }
    }
    currentPicture_ = picture;
    view_->setPicture(picture, false);
}

QString ViewState::pixelInfo(QPoint pixel, bool inside) const
{
    const std::shared_ptr<const LumaImage> luma = document_->luma();
    if (!inside || !luma || !luma->width)
        return QString();
    QString info = QStringLiteral("x %1  y %2  luma %3").arg(pixel.x()).arg(pixel.y()).arg(luma->at(pixel.x(), pixel.y()));
    if (result_ && result_->width == luma->width) {
        const size_t p = size_t(pixel.y()) * size_t(luma->width) + size_t(pixel.x());
        const uint32_t stamp = result_->stamps[p];
        if (result_->filteredLuma.size() == result_->labels.size())
            info += QStringLiteral(" (filtered %1)").arg(result_->filteredLuma[p]);
        info += QStringLiteral("  label %1  stamp %2")
                    .arg(result_->labels[p])
                    .arg(stamp == unclassifiedStamp ? QStringLiteral("-") : QString::number(stamp));
    }
    return info;
}

} // namespace rgx::ui
