// The three planes of a volume and one slice of each as a picture: which
// voxel lies under a slice pixel, a slice's size and pixel spacing, the
// window that maps luma to grey, and the slice's grey picture and run maps
// cut out of the volume at the slice's own size (a view then draws them at
// its own, as it draws an image). Cutting costs one slice, never the volume.
#pragma once

#include "Image.h"
#include "Result.h"
#include "Seeds.h"
#include <QImage>
#include <QPoint>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

namespace rgx::ui {

// The three planes as a volume's views show them. Where the file gives an
// orientation (VolumeInfo::toWorld, RAS), each in the standard display:
// axial seen from the feet, anterior up; coronal seen from the front,
// superior up; both with the patient's right on the screen's left
// (radiological; neurological: the left on the left); sagittal seen from
// the patient's left, anterior on the left, superior up. Without one, the
// voxel order: axial x right and y down at z; coronal x right and z up at y;
// sagittal y right and z up at x.
enum class Plane { Axial = 0, Coronal = 1, Sagittal = 2 };
constexpr Plane allPlanes[] = {Plane::Axial, Plane::Coronal, Plane::Sagittal};

QString planeName(Plane plane);

// Which side of the patient the axial and coronal views show on the left.
enum class DisplayConvention { Radiological, Neurological };

// How one plane's slices lie on screen: the voxel axis along its columns and
// the one down its rows (0 x, 1 y, 2 z), each maybe reversed (column or row
// 0 at the axis's last voxel), and the axis its slices step along. The
// views choose these axes and never resample: every conversion between a
// slice pixel and a voxel (clicks, seeds, crosshair, overlay, the cuts) goes
// through voxelAt and slicePixel below.
struct SliceAxes {
    int across = 0;
    bool acrossReversed = false;
    int down = 1;
    bool downReversed = false;
    int through = 2;
    bool operator==(const SliceAxes& other) const
    {
        return across == other.across && acrossReversed == other.acrossReversed && down == other.down
            && downReversed == other.downReversed && through == other.through;
    }
};
// A plane's axes for a volume: the standard display with the voxel axes
// nearest to the screen's directions where info.hasOrientation, the voxel
// order otherwise (see Plane).
SliceAxes sliceAxes(Plane plane, const VolumeInfo& info,
                    DisplayConvention convention = DisplayConvention::Radiological);
SliceAxes voxelOrderAxes(Plane plane);

struct VolumeSize {
    int width = 0;
    int height = 0;
    int depth = 1;
    static VolumeSize of(const LumaImage& volume) { return {volume.width, volume.height, volume.depth}; }
    int along(int axis) const { return axis == 0 ? width : axis == 1 ? height : depth; }
};

// Slices of a plane, and a slice's columns and rows.
int sliceCount(const SliceAxes& axes, VolumeSize size);
QSize sliceSize(const SliceAxes& axes, VolumeSize size);
// Millimetres between a slice's columns and between its rows.
QSizeF pixelSpacing(const SliceAxes& axes, const VolumeInfo& info);

// The patient's side at each edge of a slice shown on `axes`: R or L, A or
// P, S or I, that of the world axis the voxel axis is nearest to (the one
// sliceAxes chose it for). All empty where the file gives no orientation.
struct EdgeLetters {
    QString left, right, top, bottom;
    bool isEmpty() const { return left.isEmpty(); }
};
EdgeLetters edgeLetters(const SliceAxes& axes, const VolumeInfo& info);
// The voxel under slice pixel `pixel` of slice `slice`, and back: the one
// mapping between what a view shows and voxels.
Seed voxelAt(const SliceAxes& axes, int slice, QPoint pixel, VolumeSize size);
QPoint slicePixel(const SliceAxes& axes, const Seed& voxel, VolumeSize size);
int sliceOf(const SliceAxes& axes, const Seed& voxel);
// The same in the voxel order (a volume without orientation, as the bench's
// phantoms); VolumeView::axes(plane) gives what a view shows.
inline QPoint slicePixel(Plane plane, const Seed& voxel, VolumeSize size)
{
    return slicePixel(voxelOrderAxes(plane), voxel, size);
}
inline int sliceOf(Plane plane, const Seed& voxel) { return sliceOf(voxelOrderAxes(plane), voxel); }
inline int sliceCount(Plane plane, VolumeSize size) { return sliceCount(voxelOrderAxes(plane), size); }
int coordinate(const Seed& voxel, int axis);
void setCoordinate(Seed& voxel, int axis, int value);

// Window and level in luma units: luma `centre - width / 2` is black,
// `centre + width / 2` white. Applied when drawing only.
struct WindowLevel {
    double centre = 127.5;
    double width = 256.0;
    bool operator==(const WindowLevel& other) const { return centre == other.centre && width == other.width; }
    bool operator!=(const WindowLevel& other) const { return !(*this == other); }
};
// Every luma of the bit depth: 0 black, the largest white.
WindowLevel fullRangeWindow(int bitDepth);
// The luma between the 0.5th and the 99.5th percentile of the volume (read
// from about a million voxels spread over it): what a CT or a microscope
// stack shows best at first.
WindowLevel automaticWindow(const LumaImage& volume);
// Grey of every luma of the bit depth (256 or 65536 entries).
std::vector<uint8_t> windowTable(const WindowLevel& window, int bitDepth);

// One slice's grey picture (Grayscale8), through a window table.
QImage sliceGrey(const SliceAxes& axes, int slice, const std::vector<uint16_t>& luma, VolumeSize size,
                 const std::vector<uint8_t>& table);

// A run's maps (full or box, SPEC's layout) cut to one slice: a result of
// the slice's size, sharing the volume's maps where the slice is a run of
// rows in them (an axial slice in the voxel order), copied otherwise. Null
// for a null result.
GrowResultPtr sliceResult(const SliceAxes& axes, int slice, const GrowResultPtr& result);

// A per-voxel map (a diff's mask, a reference's stamps) cut to one slice.
template <typename T>
std::vector<T> sliceOfMap(const SliceAxes& axes, int slice, const std::vector<T>& map, VolumeSize size)
{
    const QSize shape = sliceSize(axes, size);
    std::vector<T> cut(size_t(shape.width()) * size_t(shape.height()));
    if (map.size() < size_t(size.width) * size_t(size.height) * size_t(size.depth))
        return {};
    for (int row = 0; row < shape.height(); ++row)
        for (int column = 0; column < shape.width(); ++column) {
            const Seed voxel = voxelAt(axes, slice, QPoint(column, row), size);
            cut[size_t(row) * size_t(shape.width()) + size_t(column)] =
                map[size_t(seedIndex(voxel, size.width, size.height))];
        }
    return cut;
}

} // namespace rgx::ui
