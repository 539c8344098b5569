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

// Axial: the xy plane at z; coronal: xz at y; sagittal: yz at x. A slice's
// columns run along its first axis (x, x, y), its rows along the second
// (y down; z up in coronal and sagittal, the last slice at the top, as
// medical viewers show them).
enum class Plane { Axial = 0, Coronal = 1, Sagittal = 2 };
constexpr Plane allPlanes[] = {Plane::Axial, Plane::Coronal, Plane::Sagittal};

QString planeName(Plane plane);
// The volume axis a plane's slices step along: 2 (z), 1 (y), 0 (x).
int sliceAxis(Plane plane);

struct VolumeSize {
    int width = 0;
    int height = 0;
    int depth = 1;
    static VolumeSize of(const LumaImage& volume) { return {volume.width, volume.height, volume.depth}; }
};

// Slices of a plane, and a slice's columns and rows.
int sliceCount(Plane plane, VolumeSize size);
QSize sliceSize(Plane plane, VolumeSize size);
// Millimetres between a slice's columns and between its rows.
QSizeF pixelSpacing(Plane plane, const VolumeInfo& info);

// The patient's side at each edge of a slice: R or L, A or P, S or I, the
// one the voxel axis points most towards in the file's orientation (RAS).
// Slices keep the voxel order, so a NIfTI file stored in RAS shows its axial
// slices with A at the bottom and a DICOM series with A at the top: the
// letters say which. All empty where the file gives no orientation.
struct EdgeLetters {
    QString left, right, top, bottom;
    bool isEmpty() const { return left.isEmpty(); }
};
EdgeLetters edgeLetters(Plane plane, const VolumeInfo& info);
// The voxel under slice pixel `pixel` of slice `slice`, and back.
Seed voxelAt(Plane plane, int slice, QPoint pixel, VolumeSize size);
QPoint slicePixel(Plane plane, const Seed& voxel, VolumeSize size);
int sliceOf(Plane plane, const Seed& voxel);
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
QImage sliceGrey(Plane plane, int slice, const std::vector<uint16_t>& luma, VolumeSize size,
                 const std::vector<uint8_t>& table);

// A run's maps (full or box, SPEC's layout) cut to one slice: a result of
// the slice's size, sharing the volume's maps where the slice is a run of
// rows in them (axial slices), copied otherwise. Null for a null result.
GrowResultPtr sliceResult(Plane plane, int slice, const GrowResultPtr& result);

// A per-voxel map (a diff's mask, a reference's stamps) cut to one slice.
template <typename T>
std::vector<T> sliceOfMap(Plane plane, int slice, const std::vector<T>& map, VolumeSize size)
{
    const QSize shape = sliceSize(plane, size);
    std::vector<T> cut(size_t(shape.width()) * size_t(shape.height()));
    if (map.size() < size_t(size.width) * size_t(size.height) * size_t(size.depth))
        return {};
    for (int row = 0; row < shape.height(); ++row)
        for (int column = 0; column < shape.width(); ++column) {
            const Seed voxel = voxelAt(plane, slice, QPoint(column, row), size);
            cut[size_t(row) * size_t(shape.width()) + size_t(column)] =
                map[size_t(seedIndex(voxel, size.width, size.height))];
        }
    return cut;
}

} // namespace rgx::ui
