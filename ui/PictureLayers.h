// The layers drawn over the overlay that explain a corruption: the
// work-group map (cells, and the halo of the cell under the cursor) and the
// race check's markers. One immutable value per picture, drawn by the view's
// renderer after the overlay, for the part shown at screen resolution, so
// that exports of the picture carry them too. A volume's slice views draw
// the work-group map on their slices (races are checked on images only).
#pragma once

#include "VolumeSlice.h"
#include "WorkGroupGrid.h"
#include <QImage>
#include <QPoint>
#include <QRect>
#include <QRectF>
#include <QSize>
#include <memory>
#include <optional>
#include <vector>

namespace rgx::ui {

struct RaceMarker {
    int x = 0; // image pixel
    int y = 0;
    int report = 0; // index of its race report
};

struct PictureLayers {
    std::optional<WorkGroupGrid> grid; // the work-group map, where shown (by place only)
    QPoint hover{-1, -1};              // the pixel under the cursor: its cell and halo outlined
    Seed hoverVoxel{-1, -1, -1};       // a volume's voxel under the cursor (on any of its views)
    std::vector<RaceMarker> races;
    int selectedReport = -1;           // its markers drawn highlighted
    int selectedMarker = -1;           // index into races: drawn larger, with a cross

    bool empty() const { return !grid && races.empty(); }
    // Draws over `out`, which shows the image rectangle `source` (image
    // pixels) of an image of `imageSize`.
    void draw(QSize imageSize, const QRectF& source, QImage& out) const;
    // Draws the work-group map over `out`, which shows the rectangle
    // `source` (slice pixels) of slice `slice` of a volume of `size` seen on
    // `axes`: each output pixel's voxel through voxelAt's mapping, so that
    // the cells lie where the slice's voxels are, in any orientation.
    void drawOnSlice(const SliceAxes& axes, int slice, VolumeSize size, const QRectF& source, QImage& out) const;
};

using PictureLayersPtr = std::shared_ptr<const PictureLayers>;

// The part of the image the grid's kernel ran on; the cell of the grid
// under image pixel `pixel` and the rectangle (image pixels, clipped to that
// part) its work-group reads: the cell and its halo.
QRect gridArea(const WorkGroupGrid& grid, QSize imageSize);
QRect cellRect(const WorkGroupGrid& grid, QPoint pixel, QSize imageSize);
QRect haloRect(const WorkGroupGrid& grid, QPoint pixel, QSize imageSize);

} // namespace rgx::ui
