// A volume in the centre: its axial, coronal and sagittal slices through one
// point (the crosshair), each a SliceView with its slider, under a bar with
// the volume's size and spacing, the crosshair's voxel, and the window and
// level. Each view draws only the slice it shows, cut out of the volume
// when that slice, the run's frame or the window changes, at its own size,
// in the standard display where the file gives an orientation (Plane).
// Seeds are voxels: the views' edits come out as (x, y, z).
#pragma once

#include "Image.h"
#include "Overlay.h"
#include "PictureLayers.h"
#include "Result.h"
#include "Seeds.h"
#include "VolumeSlice.h"
#include <QImage>
#include <QWidget>
#include <array>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QTimer;

namespace rgx::ui {

class SliceView;

class VolumeView : public QWidget {
    Q_OBJECT
public:
    explicit VolumeView(QWidget* parent = nullptr);
    ~VolumeView() override;

    // A new volume: the crosshair at its centre, the window automatic.
    void setVolume(std::shared_ptr<const LumaImage> volume);
    void clear();
    bool hasVolume() const { return volume_ != nullptr; }

    // What the views draw: a frame of a run over the volume (ViewState
    // chooses it as for an image).
    struct Frame {
        GrowResultPtr result;  // null: the volume alone
        OverlayStyle style;
        ViewLayers layers;     // differences and reference stamps, one per voxel
        // Drawn under the regions instead of the volume (its prefilter output); null: the volume.
        std::shared_ptr<const std::vector<uint16_t>> luma;
        std::shared_ptr<const void> keepAlive; // what the layers point into
        // Drawn over each slice after the overlay: the work-group map (null: nothing).
        PictureLayersPtr over;
    };
    void showFrame(const Frame& frame);

    void setSeeds(const std::vector<Seed>& seeds);
    int selectedSeed() const { return selected_; }
    void setSelectedSeed(int index);
    // Selects seed `index` and moves the crosshair to it.
    void showSeed(int index);
    void setBanner(const QString& text);
    QString banner() const;

    // The point the three slices go through; slice(plane) is its coordinate
    // on the plane's axis.
    Seed crosshair() const { return crosshair_; }
    void setCrosshair(const Seed& voxel);
    // Whether a seed click starts a run (live segmentation). Then the
    // crosshair goes to the new seed with the run's region, or after
    // regionWaitMs where the region takes longer: each view paints its new
    // slice once, with the region, not once before it and once after.
    void setRegionsFollowSeedClicks(bool on) { regionsFollowClicks_ = on; }
    static constexpr int regionWaitMs = 40;
    int slice(Plane plane) const { return sliceOf(axes(plane), crosshair_); }
    void setSlice(Plane plane, int slice);
    WindowLevel windowLevel() const { return window_; }
    void setWindowLevel(const WindowLevel& window);

    // How a plane's view lies over the voxels: every pixel <-> voxel
    // conversion of the views goes through it (voxelAt, slicePixel).
    const SliceAxes& axes(Plane plane) const { return axes_[size_t(plane)]; }
    Seed voxelAt(Plane plane, QPoint pixel) const;
    QPoint slicePixel(Plane plane, const Seed& voxel) const;
    // Radiological (the patient's right on the screen's left) or
    // neurological, for the axial and coronal views of an oriented volume.
    DisplayConvention convention() const { return convention_; }
    void setConvention(DisplayConvention convention);
    // Checked: neurological (a toggle for the View menu).
    QAction* neurologicalAction() const { return neurological_; }

    SliceView* sliceView(Plane plane) const;
    // The slice shown in a plane, whole at one pixel per voxel, without
    // seed markers or crosshair (tests, the overlay export).
    QImage slicePicture(Plane plane);
    // How many slices the views have cut out of the volume and its maps so
    // far: a slice step cuts the stepped plane's slice only (tests count).
    quint64 slicesCut() const { return slicesCut_; }

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomActualSize();
    void automaticWindowLevel();
    void fullRangeWindowLevel();

signals:
    void seedAddRequested(rgx::Seed voxel);
    void seedMoveRequested(int index, rgx::Seed from, rgx::Seed to);
    void seedDragged(int index, rgx::Seed voxel);
    void seedDragFinished();
    void seedRemoveRequested(int index);
    void seedSelected(int index);
    // The voxel under the cursor; inside is false when the cursor left the slice.
    void hoverVoxel(rgx::Seed voxel, bool inside);
    void zoomChanged(double zoom);
    void crosshairChanged(rgx::Seed voxel);
    void windowLevelChanged(rgx::ui::WindowLevel window);
    // A view painted: what its render and its whole paint took.
    void painted(double renderMs, double totalMs);

private:
    struct Pane;
    struct SliceContent;
    void buildControls(QWidget* panel);
    void connectPane(Pane& pane);
    // The planes' axes for the volume and the convention, and what follows
    // from them: slider ranges, pixel aspects, edge letters.
    void applyAxes();
    // The plane's slice, cut when what it shows changed since it was last cut.
    const SliceContent& content(Plane plane);
    // A new picture for a plane: its slice, the frame or the window changed.
    void refreshPlane(Plane plane, bool newPicture = false);
    void refreshAll();
    void updateSeeds();
    void updateLabels();
    // The crosshair a seed click asked for, where it waits for the region.
    void settleCrosshair();
    void dragWindow(int dx, int dy);
    Pane& pane(Plane plane) { return *panes_[size_t(plane)]; }

    std::shared_ptr<const LumaImage> volume_;
    VolumeSize size_;
    Seed crosshair_;
    WindowLevel window_;
    std::vector<uint8_t> table_;
    quint64 tableSerial_ = 0;
    quint64 slicesCut_ = 0;
    Frame frame_;
    std::vector<Seed> seeds_;
    int selected_ = -1;
    quint64 renderSerial_ = 0;
    std::array<std::unique_ptr<Pane>, 3> panes_;
    std::array<SliceAxes, 3> axes_{voxelOrderAxes(Plane::Axial), voxelOrderAxes(Plane::Coronal),
                                   voxelOrderAxes(Plane::Sagittal)};
    DisplayConvention convention_ = DisplayConvention::Radiological;
    QAction* neurological_ = nullptr;
    QCheckBox* neurologicalBox_ = nullptr;

    QString banner_;
    QLabel* info_ = nullptr;
    QLabel* position_ = nullptr;
    QDoubleSpinBox* level_ = nullptr;
    QDoubleSpinBox* width_ = nullptr;
    bool updating_ = false;
    bool regionsFollowClicks_ = false;
    std::optional<Seed> waitingCrosshair_;
    bool framePending_ = false; // a frame shown while the crosshair waited, not drawn yet
    QTimer* crosshairWait_ = nullptr;
};

} // namespace rgx::ui

Q_DECLARE_METATYPE(rgx::ui::WindowLevel)
