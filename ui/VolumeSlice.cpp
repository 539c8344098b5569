// Volume slices: plane geometry, the window, and slices cut out of the
// volume's luma and a run's maps.
#include "VolumeSlice.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <future>
#include <thread>

namespace rgx::ui {

namespace {

// Rows [0, rows) of a slice, in bands on threads of their own where the
// slice is large: a coronal or sagittal cut reads voxels far apart in
// memory, and several threads keep more of those reads in flight.
template <typename CutRows>
void cutInBands(int rows, int columns, CutRows cutRows)
{
    constexpr int64_t pixelsPerBand = 64 * 1024;
    const int threads = std::clamp(int(std::thread::hardware_concurrency()), 1, 8);
    const int bands = int(std::clamp<int64_t>(int64_t(rows) * columns / pixelsPerBand, 1, threads));
    if (bands == 1) {
        cutRows(0, rows);
        return;
    }
    const int rowsPerBand = (rows + bands - 1) / bands;
    std::vector<std::future<void>> others;
    for (int band = 1; band < bands; ++band) {
        const int first = band * rowsPerBand;
        if (first < rows)
            others.push_back(std::async(std::launch::async, cutRows, first, std::min(rows, first + rowsPerBand)));
    }
    cutRows(0, std::min(rows, rowsPerBand));
    for (std::future<void>& band : others)
        band.get();
}

} // namespace

QString planeName(Plane plane)
{
    switch (plane) {
    case Plane::Axial: return QStringLiteral("Axial");
    case Plane::Coronal: return QStringLiteral("Coronal");
    case Plane::Sagittal: return QStringLiteral("Sagittal");
    }
    return {};
}

int sliceAxis(Plane plane)
{
    switch (plane) {
    case Plane::Axial: return 2;
    case Plane::Coronal: return 1;
    case Plane::Sagittal: return 0;
    }
    return 2;
}

EdgeLetters edgeLetters(Plane plane, const VolumeInfo& info)
{
    if (!info.hasOrientation)
        return {};
    // The side voxel axis `axis` points towards (`sign` -1: away from): the
    // largest world component of its column of toWorld.
    const auto side = [&info](int axis, int sign) {
        const std::array<double, 3> direction{info.toWorld[size_t(axis)], info.toWorld[size_t(4 + axis)],
                                              info.toWorld[size_t(8 + axis)]};
        int largest = 0;
        for (int k = 1; k < 3; ++k)
            if (std::abs(direction[size_t(k)]) > std::abs(direction[size_t(largest)]))
                largest = k;
        const bool towards = (direction[size_t(largest)] >= 0) == (sign > 0);
        static const char* const letters[3][2] = {{"L", "R"}, {"P", "A"}, {"I", "S"}};
        return QString::fromLatin1(letters[largest][towards ? 1 : 0]);
    };
    // Columns run along the first axis; rows down y (axial) or down from the
    // last slice (coronal, sagittal: -z).
    const int columns = plane == Plane::Sagittal ? 1 : 0;
    const int rows = plane == Plane::Axial ? 1 : 2;
    const int down = plane == Plane::Axial ? 1 : -1;
    return EdgeLetters{side(columns, -1), side(columns, 1), side(rows, -down), side(rows, down)};
}

int coordinate(const Seed& voxel, int axis) { return axis == 0 ? voxel.x : axis == 1 ? voxel.y : voxel.z; }

void setCoordinate(Seed& voxel, int axis, int value)
{
    (axis == 0 ? voxel.x : axis == 1 ? voxel.y : voxel.z) = value;
}

int sliceCount(Plane plane, VolumeSize size)
{
    const int axis = sliceAxis(plane);
    return axis == 0 ? size.width : axis == 1 ? size.height : size.depth;
}

QSize sliceSize(Plane plane, VolumeSize size)
{
    switch (plane) {
    case Plane::Axial: return QSize(size.width, size.height);
    case Plane::Coronal: return QSize(size.width, size.depth);
    case Plane::Sagittal: return QSize(size.height, size.depth);
    }
    return {};
}

QSizeF pixelSpacing(Plane plane, const VolumeInfo& info)
{
    const auto& s = info.spacing;
    switch (plane) {
    case Plane::Axial: return QSizeF(s[0], s[1]);
    case Plane::Coronal: return QSizeF(s[0], s[2]);
    case Plane::Sagittal: return QSizeF(s[1], s[2]);
    }
    return QSizeF(1, 1);
}

Seed voxelAt(Plane plane, int slice, QPoint pixel, VolumeSize size)
{
    // Rows of coronal and sagittal slices run up the z axis.
    const int up = size.depth - 1 - pixel.y();
    switch (plane) {
    case Plane::Axial: return Seed{pixel.x(), pixel.y(), slice};
    case Plane::Coronal: return Seed{pixel.x(), slice, up};
    case Plane::Sagittal: return Seed{slice, pixel.x(), up};
    }
    return {};
}

QPoint slicePixel(Plane plane, const Seed& voxel, VolumeSize size)
{
    switch (plane) {
    case Plane::Axial: return QPoint(voxel.x, voxel.y);
    case Plane::Coronal: return QPoint(voxel.x, size.depth - 1 - voxel.z);
    case Plane::Sagittal: return QPoint(voxel.y, size.depth - 1 - voxel.z);
    }
    return {};
}

int sliceOf(Plane plane, const Seed& voxel) { return coordinate(voxel, sliceAxis(plane)); }

// ---- the window ---------------------------------------------------------------

WindowLevel fullRangeWindow(int bitDepth)
{
    const double levels = bitDepth > 8 ? 65536.0 : 256.0;
    return WindowLevel{(levels - 1) / 2.0, levels};
}

WindowLevel automaticWindow(const LumaImage& volume)
{
    const size_t count = volume.luma.size();
    if (count == 0)
        return fullRangeWindow(volume.bitDepth);
    // A prime stride spreads the samples over rows and slices alike.
    constexpr size_t wanted = 1u << 20;
    size_t stride = std::max<size_t>(1, count / wanted);
    if (stride > 1)
        stride |= 1;
    std::vector<uint32_t> histogram(volume.bitDepth > 8 ? 65536 : 256, 0);
    size_t samples = 0;
    for (size_t i = 0; i < count; i += stride, ++samples)
        ++histogram[std::min<size_t>(volume.luma[i], histogram.size() - 1)];
    const auto percentile = [&](double share) {
        const size_t target = size_t(share * double(samples));
        size_t seen = 0;
        for (size_t value = 0; value < histogram.size(); ++value) {
            seen += histogram[value];
            if (seen > target)
                return double(value);
        }
        return double(histogram.size() - 1);
    };
    const double low = percentile(0.005);
    const double high = percentile(0.995);
    if (high <= low)
        return WindowLevel{low, 2.0};
    return WindowLevel{(low + high) / 2.0, high - low + 1.0};
}

std::vector<uint8_t> windowTable(const WindowLevel& window, int bitDepth)
{
    std::vector<uint8_t> table(bitDepth > 8 ? 65536 : 256);
    const double width = std::max(window.width, 1.0);
    const double black = window.centre - width / 2.0;
    for (size_t value = 0; value < table.size(); ++value) {
        const double grey = (double(value) - black) / width * 255.0;
        table[value] = uint8_t(std::clamp(std::lround(grey), 0L, 255L));
    }
    return table;
}

QImage sliceGrey(Plane plane, int slice, const std::vector<uint16_t>& luma, VolumeSize size,
                 const std::vector<uint8_t>& table)
{
    const QSize shape = sliceSize(plane, size);
    QImage grey(shape, QImage::Format_Grayscale8);
    if (luma.size() < size_t(size.width) * size_t(size.height) * size_t(size.depth) || table.empty())
        return QImage();
    const size_t limit = table.size() - 1;
    const size_t rowLength = size_t(size.width);
    const size_t sliceLength = rowLength * size_t(size.height);
    grey.bits(); // detached before the bands write their rows
    cutInBands(shape.height(), shape.width(), [&](int firstRow, int endRow) {
        for (int row = firstRow; row < endRow; ++row) {
            uchar* line = grey.scanLine(row);
            const int up = size.depth - 1 - row;
            if (plane == Plane::Sagittal) {
                // Down the rows of slice z: one voxel of each (the costly plane).
                const uint16_t* column = luma.data() + size_t(up) * sliceLength + size_t(slice);
                constexpr int ahead = 8;
                for (int y = 0; y < shape.width(); ++y) {
                    if (y + ahead < shape.width())
                        __builtin_prefetch(column + size_t(y + ahead) * rowLength);
                    line[y] = table[std::min<size_t>(column[size_t(y) * rowLength], limit)];
                }
                continue;
            }
            const uint16_t* source = plane == Plane::Axial
                                         ? luma.data() + size_t(slice) * sliceLength + size_t(row) * rowLength
                                         : luma.data() + size_t(up) * sliceLength + size_t(slice) * rowLength;
            for (int x = 0; x < shape.width(); ++x)
                line[x] = table[std::min<size_t>(source[x], limit)];
        }
    });
    return grey;
}

// ---- run maps ---------------------------------------------------------------------

namespace {

// One sample of box maps whose byte widths are known at compile time (a
// slice reads a quarter of a million of them per step).
template <int LabelBytes, int StampBytes>
inline void readSample(const BoxMaps& maps, size_t i, uint16_t& label, uint32_t& stamp)
{
    if constexpr (StampBytes == 2) {
        uint16_t value;
        std::memcpy(&value, maps.stamps + 2 * i, 2);
        stamp = value == 0xFFFF ? unclassifiedStamp : value;
    } else {
        std::memcpy(&stamp, maps.stamps + 4 * i, 4);
    }
    if constexpr (LabelBytes == 0)
        label = stamp == unclassifiedStamp ? 0 : 1;
    else if constexpr (LabelBytes == 1)
        label = maps.labels[i];
    else
        std::memcpy(&label, maps.labels + 2 * i, 2);
}

// A coronal or sagittal slice of step-1 box maps (the volume's slices
// stacked: voxel (x, y, z) is row z * height + y), row by row of the slice.
template <int LabelBytes, int StampBytes>
void cutAcross(Plane plane, int slice, const BoxMaps& maps, VolumeSize size, uint16_t* labels, uint32_t* stamps)
{
    const QSize shape = sliceSize(plane, size);
    const int columns = shape.width();
    const int firstRow = maps.y0, endRow = maps.y0 + maps.boxHeight;
    const int firstColumn = maps.x0, endColumn = maps.x0 + maps.boxWidth;
    const size_t boxWidth = size_t(maps.boxWidth);
    const auto cutRow = [&](int v) {
        const int z = size.depth - 1 - v;
        uint16_t* labelRow = labels + size_t(v) * size_t(columns);
        uint32_t* stampRow = stamps + size_t(v) * size_t(columns);
        std::fill(labelRow, labelRow + columns, uint16_t(0));
        std::fill(stampRow, stampRow + columns, unclassifiedStamp);
        if (plane == Plane::Coronal) {
            const int row = z * size.height + slice;
            if (row < firstRow || row >= endRow)
                return;
            const size_t start = size_t(row - firstRow) * boxWidth;
            for (int x = std::max(0, firstColumn); x < std::min(columns, endColumn); ++x)
                readSample<LabelBytes, StampBytes>(maps, start + size_t(x - firstColumn), labelRow[x], stampRow[x]);
            return;
        }
        if (slice < firstColumn || slice >= endColumn)
            return;
        const int first = std::max(0, firstRow - z * size.height);
        const int end = std::min(size.height, endRow - z * size.height);
        // Voxels a row of the maps apart: fetched a few ahead, or each waits for memory.
        constexpr int ahead = 8;
        for (int y = first; y < end; ++y) {
            const size_t i = size_t(z * size.height + y - firstRow) * boxWidth + size_t(slice - firstColumn);
            if (y + ahead < end) {
                const size_t later = i + ahead * boxWidth;
                __builtin_prefetch(maps.stamps + later * StampBytes);
                if constexpr (LabelBytes > 0)
                    __builtin_prefetch(maps.labels + later * LabelBytes);
            }
            readSample<LabelBytes, StampBytes>(maps, i, labelRow[y], stampRow[y]);
        }
    };
    cutInBands(shape.height(), columns, [&](int firstSliceRow, int endSliceRow) {
        for (int v = firstSliceRow; v < endSliceRow; ++v)
            cutRow(v);
    });
}

// The rows [z * height, (z + 1) * height) of stacked box maps as the maps of
// slice z alone, pointing into the same memory.
BoxMaps axialRows(const BoxMaps& maps, int slice, int width, int height)
{
    BoxMaps cut = maps;
    cut.width = width;
    cut.height = height;
    cut.depth = 1;
    const int first = std::max(maps.y0, slice * height);
    const int end = std::min(maps.y0 + maps.boxHeight, (slice + 1) * height);
    if (maps.boxWidth == 0 || end <= first) {
        cut.boxWidth = cut.boxHeight = 0;
        cut.x0 = cut.y0 = 0;
        return cut;
    }
    const size_t skipped = size_t(first - maps.y0) * size_t(maps.boxWidth);
    cut.y0 = first - slice * height;
    cut.boxHeight = end - first;
    cut.labels = maps.labels ? maps.labels + skipped * size_t(maps.labelBytes) : nullptr;
    cut.stamps = maps.stamps + skipped * size_t(maps.stampBytes);
    return cut;
}

} // namespace

GrowResultPtr sliceResult(Plane plane, int slice, const GrowResultPtr& result)
{
    if (!result)
        return nullptr;
    const VolumeSize size{result->width, result->height, result->depth};
    const QSize shape = sliceSize(plane, size);
    auto cut = std::make_shared<GrowResult>();
    cut->width = shape.width();
    cut->height = shape.height();
    cut->regions = result->regions; // their number sets the palette
    cut->iterations = result->iterations;
    cut->stoppedAtCap = result->stoppedAtCap;
    const BoxMaps maps = mapsView(*result);
    if (plane == Plane::Axial && maps.step == 1) {
        cut->box = axialRows(maps, slice, size.width, size.height);
        // The maps live in the result (full maps) or in its storage.
        cut->box.storage = maps.storage ? maps.storage : std::shared_ptr<const void>(result, result.get());
        return cut;
    }
    cut->labels.resize(size_t(shape.width()) * size_t(shape.height()));
    cut->stamps.resize(cut->labels.size());
    if (maps.step != 1) {
        // A preview's samples: each voxel takes the one at or before it.
        for (int row = 0; row < shape.height(); ++row)
            for (int column = 0; column < shape.width(); ++column) {
                const Seed voxel = voxelAt(plane, slice, QPoint(column, row), size);
                const size_t i = size_t(row) * size_t(shape.width()) + size_t(column);
                cut->labels[i] = maps.label(voxel.x, voxel.z * size.height + voxel.y);
                cut->stamps[i] = maps.stamp(voxel.x, voxel.z * size.height + voxel.y);
            }
        return cut;
    }
    uint16_t* labels = cut->labels.data();
    uint32_t* stamps = cut->stamps.data();
    const bool narrowStamps = maps.stampBytes == 2;
    switch (maps.labelBytes) {
    case 0:
        narrowStamps ? cutAcross<0, 2>(plane, slice, maps, size, labels, stamps)
                     : cutAcross<0, 4>(plane, slice, maps, size, labels, stamps);
        break;
    case 1:
        narrowStamps ? cutAcross<1, 2>(plane, slice, maps, size, labels, stamps)
                     : cutAcross<1, 4>(plane, slice, maps, size, labels, stamps);
        break;
    default:
        narrowStamps ? cutAcross<2, 2>(plane, slice, maps, size, labels, stamps)
                     : cutAcross<2, 4>(plane, slice, maps, size, labels, stamps);
        break;
    }
    return cut;
}

} // namespace rgx::ui
