// Drawing the work-group map and the race markers over a rendered part of
// the picture: per output pixel for the cells (a cost of the output's size,
// never the image's), with a painter for outlines and markers.
#include "PictureLayers.h"

#include <QPainter>
#include <QPen>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace rgx::ui {
namespace {

// Cells narrower than this on screen get no border lines along that axis
// (they would cover the picture), and do not alternate their tint along it.
constexpr double smallestLinedCell = 4.0;
constexpr double smallestTintedCell = 3.0;

const QRgb borderColour = qRgb(0, 215, 255);
const QColor cellOutline(255, 230, 0);
const QColor haloOutline(255, 140, 0);
const QColor raceColour(255, 60, 30);
const QColor selectedRaceColour(255, 240, 0);

QRgb tinted(QRgb colour)
{
    // A quarter of the way towards a dark cyan: alternate cells read apart
    // on the darkened corruption view and on a bright overlay alike.
    return qRgb((qRed(colour) * 3 + 0) / 4, (qGreen(colour) * 3 + 150) / 4, (qBlue(colour) * 3 + 190) / 4);
}

// The image column (row) under the centre of each output column (row), as
// renderOverlayView samples it.
std::vector<int> samples(int count, double start, double step, int limit)
{
    std::vector<int> out(size_t(std::max(count, 0)));
    for (int i = 0; i < count; ++i)
        out[size_t(i)] = std::clamp(int(std::floor(start + (i + 0.5) * step)), 0, limit - 1);
    return out;
}

void drawCells(const WorkGroupGrid& grid, QSize imageSize, const QRectF& source, QImage& out)
{
    const double stepX = source.width() / out.width(), stepY = source.height() / out.height();
    const double cellOnScreenX = grid.cellWidth / stepX, cellOnScreenY = grid.cellHeight / stepY;
    const bool linesX = cellOnScreenX >= smallestLinedCell, linesY = cellOnScreenY >= smallestLinedCell;
    const bool tintX = cellOnScreenX >= smallestTintedCell, tintY = cellOnScreenY >= smallestTintedCell;
    if (!tintX && !tintY)
        return; // cells smaller than pixels on screen: only the hovered one is drawn
    const std::vector<int> columns = samples(out.width(), source.left(), stepX, imageSize.width());
    const std::vector<int> rows = samples(out.height(), source.top(), stepY, imageSize.height());
    // Pixels outside the part the kernel ran on (a first run's window) keep
    // their colour: no work-group of it handled them.
    constexpr int outside = std::numeric_limits<int>::min();
    const QRect part = gridArea(grid, imageSize);
    std::vector<int> cellColumn(columns.size()), cellRow(rows.size());
    for (size_t i = 0; i < columns.size(); ++i)
        cellColumn[i] = columns[i] >= part.left() && columns[i] <= part.right() ? grid.column(columns[i]) : outside;
    for (size_t j = 0; j < rows.size(); ++j)
        cellRow[j] = rows[j] >= part.top() && rows[j] <= part.bottom() ? grid.row(rows[j]) : outside;
    for (int j = 0; j < out.height(); ++j) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(j));
        const int cy = cellRow[size_t(j)];
        if (cy == outside)
            continue;
        const bool rowBorder = linesY && j > 0 && cellRow[size_t(j - 1)] != cy;
        for (int i = 0; i < out.width(); ++i) {
            const int cx = cellColumn[size_t(i)];
            if (cx == outside)
                continue;
            if (rowBorder || (linesX && i > 0 && cellColumn[size_t(i - 1)] != cx)) {
                line[i] = borderColour;
                continue;
            }
            const int parity = (tintX ? cx : 0) + (tintY ? cy : 0);
            if (parity & 1)
                line[i] = tinted(line[i]);
        }
    }
}

// The output rectangle that shows image rectangle `r`.
QRectF onScreen(const QRect& r, const QRectF& source, QSize out)
{
    const double sx = out.width() / source.width(), sy = out.height() / source.height();
    return QRectF((r.left() - source.left()) * sx, (r.top() - source.top()) * sy, r.width() * sx, r.height() * sy);
}

void drawHover(const WorkGroupGrid& grid, QPoint hover, QSize imageSize, const QRectF& source, QPainter& painter,
               QSize out)
{
    if (!gridArea(grid, imageSize).contains(hover))
        return;
    QPen halo(haloOutline, 1.5, Qt::DashLine);
    painter.setPen(halo);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(onScreen(haloRect(grid, hover, imageSize), source, out));
    painter.setPen(QPen(cellOutline, 2.0));
    painter.drawRect(onScreen(cellRect(grid, hover, imageSize), source, out));
}

void drawRaces(const PictureLayers& layers, const QRectF& source, QPainter& painter, QSize out)
{
    const double sx = out.width() / source.width(), sy = out.height() / source.height();
    // A ring a few screen pixels wide when zoomed out; zoomed in, one a
    // pixel, inside it, so that neighbouring pixels' rings stay apart.
    const double radius = std::max(3.5, 0.42 * std::min(sx, sy));
    auto centre = [&](const RaceMarker& marker) {
        return QPointF((marker.x + 0.5 - source.left()) * sx, (marker.y + 0.5 - source.top()) * sy);
    };
    const QRectF visible = QRectF(QPointF(0, 0), QSizeF(out)).adjusted(-radius, -radius, radius, radius);
    painter.setBrush(Qt::NoBrush);
    // The other reports' markers first, the selected report's on top.
    for (int pass = 0; pass < 2; ++pass)
        for (const RaceMarker& marker : layers.races) {
            const bool selected = marker.report == layers.selectedReport;
            if (selected != (pass == 1))
                continue;
            const QPointF at = centre(marker);
            if (!visible.contains(at))
                continue;
            painter.setPen(QPen(QColor(0, 0, 0, 160), 3.5));
            painter.drawEllipse(at, radius, radius);
            painter.setPen(QPen(selected ? selectedRaceColour : raceColour, 1.8));
            painter.drawEllipse(at, radius, radius);
        }
    if (layers.selectedMarker >= 0 && layers.selectedMarker < int(layers.races.size())) {
        const QPointF at = centre(layers.races[size_t(layers.selectedMarker)]);
        const double big = radius + 6;
        for (const auto& [colour, width] : {std::pair{QColor(0, 0, 0, 200), 4.0}, std::pair{QColor(Qt::white), 2.0}}) {
            painter.setPen(QPen(colour, width));
            painter.drawEllipse(at, big, big);
            painter.drawLine(at - QPointF(big + 6, 0), at - QPointF(radius, 0));
            painter.drawLine(at + QPointF(radius, 0), at + QPointF(big + 6, 0));
            painter.drawLine(at - QPointF(0, big + 6), at - QPointF(0, radius));
            painter.drawLine(at + QPointF(0, radius), at + QPointF(0, big + 6));
        }
    }
}

// ---- a volume's slices --------------------------------------------------------

// Voxels a cell spans along voxel axis `axis`, for deciding whether its
// borders and tint read on screen: a tile over the stacked slices spans
// cellHeight rows of a slice, and (taller than a slice) several slices.
int cellExtent(const WorkGroupGrid& grid, int axis)
{
    if (axis == 0)
        return grid.cellWidth;
    if (grid.cellDepth > 0)
        return axis == 1 ? grid.cellHeight : grid.cellDepth;
    const int sliceHeight = std::max(grid.sliceHeight, 1);
    return axis == 1 ? std::min(grid.cellHeight, sliceHeight) : std::max(1, grid.cellHeight / sliceHeight);
}

// The voxel coordinate along `axis` (length `count`) under each output
// column or row, through the slice pixel renderOverlayView samples there.
std::vector<int> voxelCoordinates(int outCount, double start, double step, int count, bool reversed)
{
    std::vector<int> out = samples(outCount, start, step, count);
    if (reversed)
        for (int& value : out)
            value = count - 1 - value;
    return out;
}

void drawSliceCells(const WorkGroupGrid& grid, const SliceAxes& axes, int slice, VolumeSize size, const QRectF& source,
                    QImage& out)
{
    const double stepX = source.width() / out.width(), stepY = source.height() / out.height();
    const double acrossOnScreen = cellExtent(grid, axes.across) / stepX;
    const double downOnScreen = cellExtent(grid, axes.down) / stepY;
    bool linesAcross = acrossOnScreen >= smallestLinedCell, linesDown = downOnScreen >= smallestLinedCell;
    // Tiles over the stacked slices on a plane of y and z (sagittal): where
    // a tile's row ends along y moves from slice to slice, so a border is a
    // segment as long as a cell is the other way; shorter than a few pixels
    // they would only hatch the picture.
    const bool staggered = grid.cellDepth == 0 && axes.across != 0 && axes.down != 0;
    if (staggered && downOnScreen < smallestLinedCell)
        linesAcross = false;
    if (staggered && acrossOnScreen < smallestLinedCell)
        linesDown = false;
    const bool tint = acrossOnScreen >= smallestTintedCell && downOnScreen >= smallestTintedCell;
    if (!linesAcross && !linesDown && !tint)
        return;
    const std::vector<int> across =
        voxelCoordinates(out.width(), source.left(), stepX, size.along(axes.across), axes.acrossReversed);
    const std::vector<int> down =
        voxelCoordinates(out.height(), source.top(), stepY, size.along(axes.down), axes.downReversed);
    const int sliceHeight = grid.cellDepth > 0 ? size.height : std::max(grid.sliceHeight, 1);
    constexpr int outside = std::numeric_limits<int>::min();
    // The cells of the row above, to find the borders between rows.
    std::vector<std::array<int, 3>> above(size_t(out.width())), current(size_t(out.width()));
    for (int j = 0; j < out.height(); ++j) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(j));
        for (int i = 0; i < out.width(); ++i) {
            int voxel[3];
            voxel[axes.through] = slice;
            voxel[axes.across] = across[size_t(i)];
            voxel[axes.down] = down[size_t(j)];
            const int x = voxel[0], y = voxel[1], z = voxel[2];
            // Voxels outside the part the kernel ran on keep their colour.
            const bool covered = grid.cellDepth > 0 || grid.covers(x, z * sliceHeight + y);
            std::array<int, 3>& cell = current[size_t(i)];
            cell = covered ? grid.cellOf(x, y, z) : std::array<int, 3>{outside, 0, 0};
            if (!covered)
                continue;
            if ((linesDown && j > 0 && above[size_t(i)] != cell) || (linesAcross && i > 0 && current[size_t(i - 1)] != cell)) {
                line[i] = borderColour;
                continue;
            }
            if (tint && ((cell[0] + cell[1] + cell[2]) & 1))
                line[i] = tinted(line[i]);
        }
        std::swap(above, current);
    }
}

// The slice pixels (a rectangle) where box `box` cuts slice `slice`, if it does.
std::optional<QRect> boxOnSlice(const VoxelBox& box, const SliceAxes& axes, int slice, VolumeSize size)
{
    const int low[3] = {box.x0, box.y0, box.z0}, high[3] = {box.x1, box.y1, box.z1};
    if (slice < low[axes.through] || slice > high[axes.through])
        return std::nullopt;
    auto range = [&](int axis, bool reversed) {
        const int count = size.along(axis);
        return reversed ? std::pair{count - 1 - high[axis], count - 1 - low[axis]} : std::pair{low[axis], high[axis]};
    };
    const auto [u0, u1] = range(axes.across, axes.acrossReversed);
    const auto [v0, v1] = range(axes.down, axes.downReversed);
    return QRect(QPoint(u0, v0), QPoint(u1, v1));
}

void drawSliceHover(const WorkGroupGrid& grid, Seed hover, const SliceAxes& axes, int slice, VolumeSize size,
                    const QRectF& source, QPainter& painter, QSize out)
{
    const std::optional<VoxelCell> cell = voxelCell(grid, hover, size.width, size.height, size.depth);
    if (!cell)
        return;
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(haloOutline, 1.5, Qt::DashLine));
    for (const VoxelBox& box : cell->halo)
        if (const std::optional<QRect> rect = boxOnSlice(box, axes, slice, size))
            painter.drawRect(onScreen(*rect, source, out));
    painter.setPen(QPen(cellOutline, 2.0));
    for (const VoxelBox& box : cell->cell)
        if (const std::optional<QRect> rect = boxOnSlice(box, axes, slice, size))
            painter.drawRect(onScreen(*rect, source, out));
}

} // namespace

QRect gridArea(const WorkGroupGrid& grid, QSize imageSize)
{
    const QRect image(QPoint(0, 0), imageSize);
    if (grid.width <= 0 || grid.height <= 0)
        return image;
    return QRect(grid.x0, grid.y0, grid.width, grid.height).intersected(image);
}

QRect cellRect(const WorkGroupGrid& grid, QPoint pixel, QSize imageSize)
{
    const QRect cell(grid.x0 + grid.column(pixel.x()) * grid.cellWidth, grid.y0 + grid.row(pixel.y()) * grid.cellHeight,
                     grid.cellWidth, grid.cellHeight);
    return cell.intersected(gridArea(grid, imageSize));
}

QRect haloRect(const WorkGroupGrid& grid, QPoint pixel, QSize imageSize)
{
    const QRect cell = cellRect(grid, pixel, imageSize);
    return cell.adjusted(-grid.haloLeft, -grid.haloTop, grid.haloRight, grid.haloBottom)
        .intersected(gridArea(grid, imageSize));
}

void PictureLayers::draw(QSize imageSize, const QRectF& source, QImage& out) const
{
    if (empty() || out.isNull() || source.isEmpty() || imageSize.isEmpty())
        return;
    if (grid && grid->byPlace)
        drawCells(*grid, imageSize, source, out);
    QPainter painter(&out);
    painter.setRenderHint(QPainter::Antialiasing);
    if (grid && grid->byPlace)
        drawHover(*grid, hover, imageSize, source, painter, out.size());
    drawRaces(*this, source, painter, out.size());
}

void PictureLayers::drawOnSlice(const SliceAxes& axes, int slice, VolumeSize size, const QRectF& source,
                                QImage& out) const
{
    if (!grid || !grid->byPlace || out.isNull() || source.isEmpty() || size.width <= 0)
        return;
    drawSliceCells(*grid, axes, slice, size, source, out);
    if (hoverVoxel.x < 0)
        return;
    QPainter painter(&out);
    painter.setRenderHint(QPainter::Antialiasing);
    drawSliceHover(*grid, hoverVoxel, axes, slice, size, source, painter, out.size());
}

} // namespace rgx::ui
