// Volume view: three slice views through the crosshair, their sliders and
// the window and level; the slices are cut from the volume lazily, when a
// view paints, and kept while what they show is unchanged.
#include "VolumeView.h"

#include "SliceView.h"
#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <utility>

namespace rgx::ui {

namespace {

QString millimetres(double value) { return QString::number(value, 'g', 4); }

} // namespace

// One plane: its title, slider and slice label above its view; and the slice
// it last cut, with what it was cut from.
struct VolumeView::Pane {
    Plane plane;
    QLabel* title = nullptr;
    QSlider* slider = nullptr;
    QLabel* position = nullptr;
    SliceView* view = nullptr;
    std::shared_ptr<const SliceContent> content;
};

// A slice cut out of the volume and the frame's maps, and the keys of what
// it was cut from (the shared pointers keep those alive, so that an address
// is never reused while it is a key here).
struct VolumeView::SliceContent {
    int slice = -1;
    std::shared_ptr<const std::vector<uint16_t>> lumaOwner;
    const std::vector<uint16_t>* luma = nullptr;
    quint64 tableSerial = 0;
    QImage grey;
    GrowResultPtr source;
    std::shared_ptr<const void> layersOwner;
    const std::vector<uint8_t>* sourceDifferences = nullptr;
    const std::vector<uint32_t>* sourceReferenceStamps = nullptr;
    GrowResultPtr result; // the slice's maps
    std::shared_ptr<const std::vector<uint8_t>> differences;
    std::shared_ptr<const std::vector<uint32_t>> referenceStamps;

    // The frame's layers, pointing at this slice's cuts.
    ViewLayers layers(ViewLayers frameLayers) const
    {
        frameLayers.differences = differences ? differences.get() : nullptr;
        frameLayers.referenceStamps = referenceStamps ? referenceStamps.get() : nullptr;
        return frameLayers;
    }
};

VolumeView::VolumeView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("volumeView"));
    crosshairWait_ = new QTimer(this);
    crosshairWait_->setSingleShot(true);
    crosshairWait_->setInterval(regionWaitMs);
    connect(crosshairWait_, &QTimer::timeout, this, &VolumeView::settleCrosshair);
    neurological_ = new QAction(QStringLiteral("Neurological (patient's left on the left)"), this);
    neurological_->setObjectName(QStringLiteral("neurologicalAction"));
    neurological_->setCheckable(true);
    neurological_->setToolTip(QStringLiteral("Axial and coronal views with the patient's left on the screen's left, "
                                             "as seen from above and behind; unchecked: radiological, as seen from "
                                             "the feet and the front"));
    connect(neurological_, &QAction::toggled, this, [this](bool on) {
        setConvention(on ? DisplayConvention::Neurological : DisplayConvention::Radiological);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* controls = new QWidget(this);
    controls->setObjectName(QStringLiteral("volumeControls"));
    buildControls(controls);
    layout->addWidget(controls);

    // The axial slice large on the left, coronal and sagittal beside it:
    // the most room for the slice scrolled most, splitters to change it.
    auto* across = new QSplitter(Qt::Horizontal, this);
    across->setObjectName(QStringLiteral("volumeSplitter"));
    auto* right = new QSplitter(Qt::Vertical, across);
    for (Plane plane : allPlanes) {
        auto pane = std::make_unique<Pane>();
        pane->plane = plane;
        auto* frame = new QFrame(plane == Plane::Axial ? static_cast<QWidget*>(across) : right);
        frame->setObjectName(planeName(plane).toLower() + QStringLiteral("Pane"));
        auto* paneLayout = new QVBoxLayout(frame);
        paneLayout->setContentsMargins(0, 0, 0, 0);
        paneLayout->setSpacing(0);
        auto* header = new QHBoxLayout;
        header->setContentsMargins(6, 2, 6, 2);
        pane->title = new QLabel(planeName(plane), frame);
        const QColor colour = SliceView::planeColour(plane);
        pane->title->setStyleSheet(QStringLiteral("font-weight: bold; border-left: 4px solid %1; padding-left: 4px;")
                                       .arg(colour.name()));
        pane->slider = new QSlider(Qt::Horizontal, frame);
        pane->slider->setObjectName(planeName(plane).toLower() + QStringLiteral("Slider"));
        pane->slider->setToolTip(QStringLiteral("The %1 slice shown (wheel or Page Up/Down over the view)")
                                     .arg(planeName(plane).toLower()));
        pane->position = new QLabel(frame);
        pane->position->setObjectName(planeName(plane).toLower() + QStringLiteral("SliceLabel"));
        pane->position->setMinimumWidth(pane->position->fontMetrics().horizontalAdvance(QStringLiteral("z 0000 / 0000  0000.0 mm")));
        pane->position->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        header->addWidget(pane->title);
        header->addWidget(pane->slider, 1);
        header->addWidget(pane->position);
        paneLayout->addLayout(header);
        pane->view = new SliceView(plane, frame);
        paneLayout->addWidget(pane->view, 1);
        panes_[size_t(plane)] = std::move(pane);
        connectPane(*panes_[size_t(plane)]);
    }
    across->addWidget(right);
    across->setStretchFactor(0, 3);
    across->setStretchFactor(1, 2);
    layout->addWidget(across, 1);
    updateLabels();
}

VolumeView::~VolumeView() = default;

// Two rows above the views, whose height never changes with their text: the
// volume's facts, the whole width for them (a CT's spacing and value shift
// are long); the window and level, and the crosshair's voxel after them.
void VolumeView::buildControls(QWidget* panel)
{
    auto* rows = new QVBoxLayout(panel);
    rows->setContentsMargins(6, 2, 6, 2);
    rows->setSpacing(2);
    info_ = new QLabel(panel);
    info_->setObjectName(QStringLiteral("volumeInfo"));
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    position_ = new QLabel(panel);
    position_->setObjectName(QStringLiteral("crosshairLabel"));
    position_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    position_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    position_->setToolTip(QStringLiteral("The voxel where the three slices cross (Shift+click on a view moves it)"));
    rows->addWidget(info_);

    auto* window = new QHBoxLayout;
    level_ = new QDoubleSpinBox(panel);
    level_->setObjectName(QStringLiteral("windowLevelSpin"));
    level_->setDecimals(0);
    level_->setToolTip(QStringLiteral("Level: the value shown mid-grey, in the file's own values (luma minus the "
                                      "value shift: Hounsfield units for CT). Right-drag up-down on a view moves it."));
    width_ = new QDoubleSpinBox(panel);
    width_->setObjectName(QStringLiteral("windowWidthSpin"));
    width_->setDecimals(0);
    width_->setToolTip(QStringLiteral("Window: the range of values from black to white. Right-drag left-right on a "
                                      "view changes it. Drawing only: runs see the values as they are."));
    auto* automatic = new QPushButton(QStringLiteral("Auto"), panel);
    automatic->setObjectName(QStringLiteral("autoWindowButton"));
    automatic->setToolTip(QStringLiteral("From the 0.5th to the 99.5th percentile of the volume's values"));
    auto* full = new QPushButton(QStringLiteral("Full range"), panel);
    full->setObjectName(QStringLiteral("fullWindowButton"));
    full->setToolTip(QStringLiteral("Every value of the volume's bit depth"));
    window->addWidget(new QLabel(QStringLiteral("Level"), panel));
    window->addWidget(level_);
    window->addWidget(new QLabel(QStringLiteral("Window"), panel));
    window->addWidget(width_);
    window->addWidget(automatic);
    window->addWidget(full);
    // The View menu's toggle, here too: it matters only for oriented volumes.
    neurologicalBox_ = new QCheckBox(QStringLiteral("Neurological"), panel);
    neurologicalBox_->setObjectName(QStringLiteral("neurologicalCheck"));
    neurologicalBox_->setToolTip(neurological_->toolTip());
    connect(neurologicalBox_, &QCheckBox::toggled, neurological_, &QAction::setChecked);
    connect(neurological_, &QAction::toggled, neurologicalBox_, &QCheckBox::setChecked);
    window->addSpacing(12);
    window->addWidget(neurologicalBox_);
    window->addSpacing(12);
    window->addWidget(position_, 1);
    rows->addLayout(window);

    connect(automatic, &QPushButton::clicked, this, &VolumeView::automaticWindowLevel);
    connect(full, &QPushButton::clicked, this, &VolumeView::fullRangeWindowLevel);
    auto edited = [this] {
        if (updating_ || !volume_)
            return;
        setWindowLevel(WindowLevel{level_->value() + volume_->volume.valueShift, width_->value()});
    };
    connect(level_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, edited);
    connect(width_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, edited);
}

void VolumeView::connectPane(Pane& pane)
{
    SliceView* view = pane.view;
    const Plane plane = pane.plane;
    const auto voxel = [this, plane](QPoint pixel) { return voxelAt(plane, pixel); };
    connect(pane.slider, &QSlider::valueChanged, this, [this, plane](int value) {
        if (!updating_)
            setSlice(plane, value);
    });
    connect(view, &SliceView::sliceStepRequested, this,
            [this, plane](int steps) { setSlice(plane, slice(plane) + steps); });
    connect(view, &SliceView::crosshairMoveRequested, this, [this, voxel](QPoint pixel) { setCrosshair(voxel(pixel)); });
    connect(view, &SliceView::windowLevelDragged, this, &VolumeView::dragWindow);
    connect(view, &ImageView::seedAddRequested, this, [this, voxel](QPoint pixel) {
        // The crosshair goes to the new seed, so that every view shows it:
        // at once, or with the region where a live run brings one. (On the
        // H100 a ball's region came 1 ms after the click, then waited 9 ms
        // behind the paints of the new slices with the old region.)
        const Seed at = voxel(pixel);
        if (regionsFollowClicks_) {
            waitingCrosshair_ = at;
            crosshairWait_->start();
        } else {
            setCrosshair(at);
        }
        emit seedAddRequested(at);
    });
    connect(view, &ImageView::seedMoveRequested, this, [this, voxel](int index, QPoint from, QPoint to) {
        emit seedMoveRequested(index, voxel(from), voxel(to));
    });
    connect(view, &ImageView::seedDragged, this,
            [this, voxel](int index, QPoint pixel) { emit seedDragged(index, voxel(pixel)); });
    connect(view, &ImageView::seedDragFinished, this, &VolumeView::seedDragFinished);
    connect(view, &ImageView::seedRemoveRequested, this, &VolumeView::seedRemoveRequested);
    connect(view, &ImageView::seedSelected, this, [this](int index) {
        setSelectedSeed(index);
        emit seedSelected(index);
    });
    connect(view, &ImageView::hoverPixel, this, [this, view, voxel](QPoint pixel, bool inside) {
        emit hoverVoxel(voxel(pixel), inside && view->contains(pixel));
    });
    connect(view, &ImageView::zoomChanged, this, &VolumeView::zoomChanged);
    connect(view, &ImageView::painted, this,
            [this, view] { emit painted(view->lastPaint().renderMs, view->lastPaint().totalMs); });
}

SliceView* VolumeView::sliceView(Plane plane) const { return panes_[size_t(plane)]->view; }

Seed VolumeView::voxelAt(Plane plane, QPoint pixel) const
{
    return rgx::ui::voxelAt(axes(plane), slice(plane), pixel, size_);
}

QPoint VolumeView::slicePixel(Plane plane, const Seed& voxel) const
{
    return rgx::ui::slicePixel(axes(plane), voxel, size_);
}

// ---- orientation -------------------------------------------------------------------

void VolumeView::setConvention(DisplayConvention convention)
{
    if (convention == convention_)
        return;
    convention_ = convention;
    neurological_->setChecked(convention == DisplayConvention::Neurological);
    if (!volume_)
        return;
    applyAxes();
    for (Plane plane : allPlanes)
        refreshPlane(plane, true);
    setCrosshair(crosshair_);
    updateSeeds();
}

void VolumeView::applyAxes()
{
    const VolumeInfo& info = volume_->volume;
    updating_ = true;
    for (Plane plane : allPlanes) {
        axes_[size_t(plane)] = sliceAxes(plane, info, convention_);
        Pane& shown = pane(plane);
        shown.content.reset();
        shown.slider->setRange(0, sliceCount(axes(plane), size_) - 1);
        shown.slider->setValue(slice(plane));
        const QSizeF spacing = pixelSpacing(axes(plane), info);
        shown.view->setPixelAspect(spacing.width() > 0 && spacing.height() > 0 ? spacing.height() / spacing.width() : 1.0);
        shown.view->setEdgeLetters(edgeLetters(axes(plane), info));
        shown.view->setCrosshair(slicePixel(plane, crosshair_));
    }
    updating_ = false;
}

// ---- the volume -------------------------------------------------------------------

void VolumeView::setVolume(std::shared_ptr<const LumaImage> volume)
{
    volume_ = std::move(volume);
    frame_ = Frame();
    seeds_.clear();
    selected_ = -1;
    for (auto& pane : panes_)
        pane->content.reset();
    if (!volume_) {
        clear();
        return;
    }
    size_ = VolumeSize::of(*volume_);
    crosshair_ = Seed{size_.width / 2, size_.height / 2, size_.depth / 2};
    window_ = automaticWindow(*volume_);
    table_ = windowTable(window_, volume_->bitDepth);
    ++tableSerial_;
    const VolumeInfo& info = volume_->volume;
    const double levels = volume_->bitDepth > 8 ? 65536.0 : 256.0;
    updating_ = true;
    // Stored values (luma minus the shift), with room to set a window past them.
    level_->setRange(-levels - info.valueShift, 2 * levels - info.valueShift);
    width_->setRange(1, 2 * levels);
    level_->setValue(window_.centre - info.valueShift);
    width_->setValue(window_.width);
    for (Plane plane : allPlanes)
        pane(plane).view->setSeeds({});
    updating_ = false;
    applyAxes();
    info_->setText(QStringLiteral("%1 x %2 x %3 voxels of %4 x %5 x %6 mm, %7-bit%8")
                       .arg(size_.width).arg(size_.height).arg(size_.depth)
                       .arg(millimetres(info.spacing[0]), millimetres(info.spacing[1]), millimetres(info.spacing[2]))
                       .arg(volume_->bitDepth)
                       .arg(info.valueShift ? QStringLiteral(", value shift %1").arg(info.valueShift) : QString()));
    info_->setToolTip(QStringLiteral("%1%2%3").arg(info_->text(),
                                                 volume_->colour ? QStringLiteral(", from colour") : QString(),
                                                 info.format.empty() ? QString()
                                                                     : QStringLiteral(" (%1)").arg(QString::fromStdString(info.format))));
    for (Plane plane : allPlanes)
        refreshPlane(plane, true);
    setCrosshair(crosshair_);
    updateSeeds();
    updateLabels();
    emit windowLevelChanged(window_);
}

void VolumeView::clear()
{
    framePending_ = false;
    waitingCrosshair_.reset();
    crosshairWait_->stop();
    volume_.reset();
    frame_ = Frame();
    seeds_.clear();
    selected_ = -1;
    for (auto& pane : panes_) {
        pane->content.reset();
        pane->view->clear();
        pane->view->setEdgeLetters({});
    }
    updateLabels();
}

void VolumeView::showFrame(const Frame& frame)
{
    const bool newRegions = frame.result != frame_.result;
    frame_ = frame;
    if (frame_.result && volume_
        && (frame_.result->width != size_.width || frame_.result->height != size_.height
            || frame_.result->depth != size_.depth))
        frame_.result.reset(); // another volume's, or a preview of another shape
    // While a click's crosshair waits for the click's region, the old
    // regions' new look (stale, once the seeds changed) waits with it.
    if (waitingCrosshair_ && !newRegions) {
        framePending_ = true;
        return;
    }
    settleCrosshair();
    refreshAll();
}

void VolumeView::settleCrosshair()
{
    if (waitingCrosshair_)
        setCrosshair(*waitingCrosshair_);
}

// What a plane shows, cut from the volume where any of it changed: the grey
// slice (slice, luma or window) and the maps (slice, result or layers).
const VolumeView::SliceContent& VolumeView::content(Plane plane)
{
    Pane& shown = pane(plane);
    const int index = slice(plane);
    const std::vector<uint16_t>* luma = frame_.luma ? frame_.luma.get() : &volume_->luma;
    const SliceContent* old = shown.content.get();
    const bool sameGrey = old && old->slice == index && old->luma == luma && old->tableSerial == tableSerial_;
    const bool sameMaps = old && old->slice == index && old->source == frame_.result
        && old->sourceDifferences == frame_.layers.differences
        && old->sourceReferenceStamps == frame_.layers.referenceStamps;
    if (sameGrey && sameMaps)
        return *old;
    ++slicesCut_;
    auto cut = std::make_shared<SliceContent>();
    cut->slice = index;
    cut->lumaOwner = frame_.luma;
    cut->luma = luma;
    cut->tableSerial = tableSerial_;
    const SliceAxes& along = axes(plane);
    cut->grey = sameGrey ? old->grey : sliceGrey(along, index, *luma, size_, table_);
    cut->source = frame_.result;
    cut->layersOwner = frame_.keepAlive;
    cut->sourceDifferences = frame_.layers.differences;
    cut->sourceReferenceStamps = frame_.layers.referenceStamps;
    if (sameMaps) {
        cut->result = old->result;
        cut->differences = old->differences;
        cut->referenceStamps = old->referenceStamps;
    } else {
        cut->result = sliceResult(along, index, frame_.result);
        if (cut->sourceDifferences)
            cut->differences = std::make_shared<const std::vector<uint8_t>>(
                sliceOfMap(along, index, *cut->sourceDifferences, size_));
        if (cut->sourceReferenceStamps)
            cut->referenceStamps = std::make_shared<const std::vector<uint32_t>>(
                sliceOfMap(along, index, *cut->sourceReferenceStamps, size_));
    }
    shown.content = std::move(cut);
    return *shown.content;
}

// A new picture for a plane (its slice, the frame or the window changed):
// the view renders again when it next paints, and the renderer cuts the
// slice then, so that a burst of wheel steps cuts one slice, not each.
void VolumeView::refreshPlane(Plane plane, bool newPicture)
{
    if (!volume_)
        return;
    pane(plane).view->setRenderedPicture(sliceSize(axes(plane), size_), [this, plane](const QRectF& source, QImage& out) {
        const SliceContent& cut = content(plane);
        renderOverlayView(cut.grey, cut.result.get(), frame_.style, cut.layers(frame_.layers), source, out);
        if (frame_.over)
            frame_.over->drawOnSlice(axes(plane), slice(plane), size_, source, out);
    }, ++renderSerial_, newPicture);
}

void VolumeView::refreshAll()
{
    for (Plane plane : allPlanes)
        refreshPlane(plane);
}

QImage VolumeView::slicePicture(Plane plane)
{
    if (!volume_)
        return QImage();
    const QSize size = sliceSize(axes(plane), size_);
    QImage picture(size, QImage::Format_RGB32);
    const SliceContent& cut = content(plane);
    const QRectF whole(QPointF(0, 0), QSizeF(size));
    renderOverlayView(cut.grey, cut.result.get(), frame_.style, cut.layers(frame_.layers), whole, picture);
    if (frame_.over)
        frame_.over->drawOnSlice(axes(plane), slice(plane), size_, whole, picture);
    return picture;
}

// ---- crosshair and slices -----------------------------------------------------------

void VolumeView::setCrosshair(const Seed& voxel)
{
    // This move is the last word: a click's crosshair waits no longer, nor
    // the frame that waited with it.
    waitingCrosshair_.reset();
    crosshairWait_->stop();
    const bool framePending = std::exchange(framePending_, false);
    if (!volume_)
        return;
    const Seed clamped{std::clamp(voxel.x, 0, size_.width - 1), std::clamp(voxel.y, 0, size_.height - 1),
                       std::clamp(voxel.z, 0, size_.depth - 1)};
    const Seed before = crosshair_;
    crosshair_ = clamped;
    updating_ = true;
    for (Plane plane : allPlanes) {
        Pane& shown = pane(plane);
        shown.slider->setValue(slice(plane));
        shown.view->setCrosshair(slicePixel(plane, crosshair_));
        if (sliceOf(axes(plane), before) != slice(plane) || !shown.content)
            refreshPlane(plane);
    }
    updating_ = false;
    if (framePending)
        refreshAll();
    updateSeeds();
    updateLabels();
    if (!(before == crosshair_))
        emit crosshairChanged(crosshair_);
}

void VolumeView::setSlice(Plane plane, int index)
{
    Seed voxel = crosshair_;
    setCoordinate(voxel, axes(plane).through, index);
    setCrosshair(voxel);
}

void VolumeView::setSeeds(const std::vector<Seed>& seeds)
{
    seeds_ = seeds;
    if (selected_ >= int(seeds_.size()))
        selected_ = -1;
    updateSeeds();
}

// Each view marks the seeds on its slice.
void VolumeView::updateSeeds()
{
    if (!volume_)
        return;
    for (Plane plane : allPlanes) {
        std::vector<Seed> projected;
        std::vector<bool> hidden;
        projected.reserve(seeds_.size());
        hidden.reserve(seeds_.size());
        for (const Seed& seed : seeds_) {
            const QPoint pixel = slicePixel(plane, seed);
            projected.push_back(Seed{pixel.x(), pixel.y()});
            hidden.push_back(sliceOf(axes(plane), seed) != slice(plane));
        }
        SliceView* view = pane(plane).view;
        view->setSeeds(projected, std::move(hidden));
        view->setSelectedSeed(selected_);
    }
}

void VolumeView::setSelectedSeed(int index)
{
    selected_ = (index >= 0 && index < int(seeds_.size())) ? index : -1;
    for (auto& pane : panes_)
        pane->view->setSelectedSeed(selected_);
}

void VolumeView::showSeed(int index)
{
    setSelectedSeed(index);
    if (selected_ >= 0)
        setCrosshair(seeds_[size_t(selected_)]);
}

// Drawn over the top of each view, as an image's view draws it: a banner
// that came and went between the controls and the views moved the views,
// and each then cut and drew its slice again (a live click on the H100
// waited 3 ms for that when a stale banner went).
void VolumeView::setBanner(const QString& text)
{
    banner_ = text;
    for (auto& pane : panes_)
        pane->view->setBanner(text);
}

QString VolumeView::banner() const { return banner_; }

void VolumeView::updateLabels()
{
    const char axisNames[] = {'x', 'y', 'z'};
    for (Plane plane : allPlanes) {
        Pane& shown = pane(plane);
        if (!volume_) {
            shown.position->clear();
            continue;
        }
        const int axis = axes(plane).through;
        const double millimetre = slice(plane) * volume_->volume.spacing[size_t(axis)];
        shown.position->setText(QStringLiteral("%1 %2 / %3  %4 mm")
                                    .arg(QLatin1Char(axisNames[axis]))
                                    .arg(slice(plane))
                                    .arg(sliceCount(axes(plane), size_) - 1)
                                    .arg(millimetre, 0, 'f', 1));
    }
    if (!volume_) {
        position_->clear();
        info_->clear();
        return;
    }
    const int luma = volume_->at(crosshair_.x, crosshair_.y, crosshair_.z);
    const int32_t shift = volume_->volume.valueShift;
    position_->setText(QStringLiteral("Crosshair (%1, %2, %3): luma %4%5")
                           .arg(crosshair_.x).arg(crosshair_.y).arg(crosshair_.z).arg(luma)
                           .arg(shift ? QStringLiteral(" (value %1)").arg(luma - shift) : QString()));
}

// ---- window and level -----------------------------------------------------------------

void VolumeView::setWindowLevel(const WindowLevel& window)
{
    if (!volume_)
        return;
    WindowLevel next = window;
    next.width = std::max(1.0, next.width);
    updating_ = true;
    level_->setValue(next.centre - volume_->volume.valueShift);
    width_->setValue(next.width);
    updating_ = false;
    if (next == window_)
        return;
    window_ = next;
    table_ = windowTable(window_, volume_->bitDepth);
    ++tableSerial_;
    refreshAll();
    emit windowLevelChanged(window_);
}

void VolumeView::automaticWindowLevel()
{
    if (volume_)
        setWindowLevel(automaticWindow(*volume_));
}

void VolumeView::fullRangeWindowLevel()
{
    if (volume_)
        setWindowLevel(fullRangeWindow(volume_->bitDepth));
}

// As medical viewers do: right-drag left-right narrows or widens the window,
// up-down moves the level, by steps that follow the window's width.
void VolumeView::dragWindow(int dx, int dy)
{
    const double step = std::max(1.0, std::round(window_.width / 256.0));
    setWindowLevel(WindowLevel{window_.centre + dy * step, window_.width + dx * step});
}

// ---- zoom -----------------------------------------------------------------------------

void VolumeView::zoomIn()
{
    for (auto& pane : panes_)
        pane->view->zoomIn();
}

void VolumeView::zoomOut()
{
    for (auto& pane : panes_)
        pane->view->zoomOut();
}

void VolumeView::zoomToFit()
{
    for (auto& pane : panes_)
        pane->view->zoomToFit();
}

void VolumeView::zoomActualSize()
{
    for (auto& pane : panes_)
        pane->view->zoomActualSize();
}

} // namespace rgx::ui
