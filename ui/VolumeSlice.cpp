// Volume slices: plane geometry, the window, and slices cut out of the
// volume's luma and a run's maps.
#include "VolumeSlice.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <future>
#include <thread>
#include <type_traits>

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

namespace {

// For each voxel axis, the world axis (0 R-L, 1 A-P, 2 S-I) its direction is
// nearest to, and +1 where it points to R, A or S (-1: away). One voxel
// axis a world axis, the largest cosine chosen first, so that an oblique
// volume still gets one axis for each screen direction.
struct NearestWorldAxes {
    std::array<int, 3> world{0, 1, 2};
    std::array<int, 3> sign{1, 1, 1};
    int voxelAxis(int worldAxis) const
    {
        return int(std::find(world.begin(), world.end(), worldAxis) - world.begin());
    }
};

NearestWorldAxes nearestWorldAxes(const VolumeInfo& info)
{
    std::array<std::array<double, 3>, 3> cosine{}; // [voxel axis][world axis]
    for (int axis = 0; axis < 3; ++axis) {
        // Column `axis` of toWorld (row-major) is where one step along the axis goes.
        const std::array<double, 3> direction{info.toWorld[size_t(axis)], info.toWorld[size_t(4 + axis)],
                                              info.toWorld[size_t(8 + axis)]};
        const double length = std::hypot(direction[0], direction[1], direction[2]);
        for (int world = 0; world < 3; ++world)
            cosine[size_t(axis)][size_t(world)] =
                length > 0 ? direction[size_t(world)] / length : (axis == world ? 1.0 : 0.0);
    }
    NearestWorldAxes nearest;
    std::array<bool, 3> voxelTaken{}, worldTaken{};
    for (int round = 0; round < 3; ++round) {
        int bestAxis = -1, bestWorld = -1;
        for (int axis = 0; axis < 3; ++axis)
            for (int world = 0; world < 3; ++world)
                if (!voxelTaken[size_t(axis)] && !worldTaken[size_t(world)]
                    && (bestAxis < 0
                        || std::abs(cosine[size_t(axis)][size_t(world)])
                               > std::abs(cosine[size_t(bestAxis)][size_t(bestWorld)]))) {
                    bestAxis = axis;
                    bestWorld = world;
                }
        voxelTaken[size_t(bestAxis)] = worldTaken[size_t(bestWorld)] = true;
        nearest.world[size_t(bestAxis)] = bestWorld;
        nearest.sign[size_t(bestAxis)] = cosine[size_t(bestAxis)][size_t(bestWorld)] < 0 ? -1 : 1;
    }
    return nearest;
}

} // namespace

SliceAxes voxelOrderAxes(Plane plane)
{
    // Coronal and sagittal rows run up the z axis: the last slice on top.
    switch (plane) {
    case Plane::Axial: return SliceAxes{0, false, 1, false, 2};
    case Plane::Coronal: return SliceAxes{0, false, 2, true, 1};
    case Plane::Sagittal: return SliceAxes{1, false, 2, true, 0};
    }
    return {};
}

SliceAxes sliceAxes(Plane plane, const VolumeInfo& info, DisplayConvention convention)
{
    if (!info.hasOrientation)
        return voxelOrderAxes(plane);
    const NearestWorldAxes nearest = nearestWorldAxes(info);
    const int sides = nearest.voxelAxis(0), front = nearest.voxelAxis(1), up = nearest.voxelAxis(2);
    const bool towardsRight = nearest.sign[size_t(sides)] > 0;
    const bool towardsFront = nearest.sign[size_t(front)] > 0;
    const bool towardsTop = nearest.sign[size_t(up)] > 0;
    // Columns run towards the patient's left (radiological) or right; rows
    // run backwards (axial) or down (coronal, sagittal); sagittal columns
    // run backwards.
    const bool sidesReversed = convention == DisplayConvention::Radiological ? towardsRight : !towardsRight;
    switch (plane) {
    case Plane::Axial: return SliceAxes{sides, sidesReversed, front, towardsFront, up};
    case Plane::Coronal: return SliceAxes{sides, sidesReversed, up, towardsTop, front};
    case Plane::Sagittal: return SliceAxes{front, towardsFront, up, towardsTop, sides};
    }
    return {};
}

EdgeLetters edgeLetters(const SliceAxes& axes, const VolumeInfo& info)
{
    if (!info.hasOrientation)
        return {};
    const NearestWorldAxes nearest = nearestWorldAxes(info);
    // The side a step along voxel axis `axis` goes towards (`step` -1: back).
    const auto side = [&nearest](int axis, int step) {
        static const char* const letters[3][2] = {{"L", "R"}, {"P", "A"}, {"I", "S"}};
        const bool positive = nearest.sign[size_t(axis)] * step > 0;
        return QString::fromLatin1(letters[nearest.world[size_t(axis)]][positive ? 1 : 0]);
    };
    // The left edge lies where the columns come from: the axis's first
    // voxel, or its last where the columns run back along it.
    const int right = axes.acrossReversed ? -1 : 1;
    const int bottom = axes.downReversed ? -1 : 1;
    return EdgeLetters{side(axes.across, -right), side(axes.across, right), side(axes.down, -bottom),
                       side(axes.down, bottom)};
}

int coordinate(const Seed& voxel, int axis) { return axis == 0 ? voxel.x : axis == 1 ? voxel.y : voxel.z; }

void setCoordinate(Seed& voxel, int axis, int value)
{
    (axis == 0 ? voxel.x : axis == 1 ? voxel.y : voxel.z) = value;
}

int sliceCount(const SliceAxes& axes, VolumeSize size) { return size.along(axes.through); }

QSize sliceSize(const SliceAxes& axes, VolumeSize size) { return QSize(size.along(axes.across), size.along(axes.down)); }

QSizeF pixelSpacing(const SliceAxes& axes, const VolumeInfo& info)
{
    return QSizeF(info.spacing[size_t(axes.across)], info.spacing[size_t(axes.down)]);
}

Seed voxelAt(const SliceAxes& axes, int slice, QPoint pixel, VolumeSize size)
{
    Seed voxel{0, 0, 0};
    setCoordinate(voxel, axes.through, slice);
    setCoordinate(voxel, axes.across, axes.acrossReversed ? size.along(axes.across) - 1 - pixel.x() : pixel.x());
    setCoordinate(voxel, axes.down, axes.downReversed ? size.along(axes.down) - 1 - pixel.y() : pixel.y());
    return voxel;
}

QPoint slicePixel(const SliceAxes& axes, const Seed& voxel, VolumeSize size)
{
    const int across = coordinate(voxel, axes.across);
    const int down = coordinate(voxel, axes.down);
    return QPoint(axes.acrossReversed ? size.along(axes.across) - 1 - across : across,
                  axes.downReversed ? size.along(axes.down) - 1 - down : down);
}

int sliceOf(const SliceAxes& axes, const Seed& voxel) { return coordinate(voxel, axes.through); }

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

QImage sliceGrey(const SliceAxes& axes, int slice, const std::vector<uint16_t>& luma, VolumeSize size,
                 const std::vector<uint8_t>& table)
{
    const QSize shape = sliceSize(axes, size);
    QImage grey(shape, QImage::Format_Grayscale8);
    if (luma.size() < size_t(size.width) * size_t(size.height) * size_t(size.depth) || table.empty())
        return QImage();
    const size_t limit = table.size() - 1;
    // Voxels one column apart lie `step` apart in memory (x fastest): 1 on
    // an axial slice in the voxel order, a row or a slice of the volume on others.
    const std::array<ptrdiff_t, 3> stride{1, ptrdiff_t(size.width), ptrdiff_t(size.width) * size.height};
    const ptrdiff_t step = axes.acrossReversed ? -stride[size_t(axes.across)] : stride[size_t(axes.across)];
    grey.bits(); // detached before the bands write their rows
    cutInBands(shape.height(), shape.width(), [&](int firstRow, int endRow) {
        for (int row = firstRow; row < endRow; ++row) {
            uchar* line = grey.scanLine(row);
            const uint16_t* source = luma.data() + seedIndex(voxelAt(axes, slice, QPoint(0, row), size), size.width, size.height);
            if (step == 1) {
                for (int column = 0; column < shape.width(); ++column)
                    line[column] = table[std::min<size_t>(source[column], limit)];
                continue;
            }
            // Voxels far apart in memory (the costly planes): fetched a few ahead.
            constexpr int ahead = 8;
            for (int column = 0; column < shape.width(); ++column) {
                if (column + ahead < shape.width())
                    __builtin_prefetch(source + (column + ahead) * step);
                line[column] = table[std::min<size_t>(source[column * step], limit)];
            }
        }
    });
    return grey;
}

// ---- run maps ---------------------------------------------------------------------

namespace {

// One sample of box maps whose byte widths are known at compile time (a
// slice reads a quarter of a million of them per step).
template <int LabelBytes, int StampBytes>
// Sample i is `column` of box row `row` (slices stacked).
inline void readSample(const BoxMaps& maps, size_t i, size_t row, size_t column, uint16_t& label, uint32_t& stamp)
{
    if constexpr (StampBytes == 1) {
        stamp = maps.narrowStamp(row, column);
    } else if constexpr (StampBytes == 2) {
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

// A slice of step-1 box maps (boxHeight rows of each of boxDepth slices
// from z0 on), row by row of the slice: along a row, the box's column, row
// or slice moves by one; samples outside the box are unreached.
template <int LabelBytes, int StampBytes>
void cutSlice(const SliceAxes& axes, int slice, const BoxMaps& maps, VolumeSize size, uint16_t* labels,
              uint32_t* stamps)
{
    const QSize shape = sliceSize(axes, size);
    const int columns = shape.width();
    const int sign = axes.acrossReversed ? -1 : 1;
    const int columnStep = axes.across == 0 ? sign : 0;
    const int rowStep = axes.across == 1 ? sign : 0;
    const int slabStep = axes.across == 2 ? sign : 0;
    const ptrdiff_t boxWidth = maps.boxWidth, boxHeight = maps.boxHeight;
    const ptrdiff_t samples = ptrdiff_t(maps.samples());
    const auto cutRow = [&](int v) {
        uint16_t* labelRow = labels + size_t(v) * size_t(columns);
        uint32_t* stampRow = stamps + size_t(v) * size_t(columns);
        std::fill(labelRow, labelRow + columns, uint16_t(0));
        std::fill(stampRow, stampRow + columns, unclassifiedStamp);
        const Seed first = voxelAt(axes, slice, QPoint(0, v), size);
        // The box's column, row and slice of the row's first voxel, moving by (columnStep, rowStep, slabStep).
        ptrdiff_t column = first.x - maps.x0;
        ptrdiff_t row = first.y - maps.y0;
        ptrdiff_t slab = first.z - maps.z0;
        const ptrdiff_t sampleStep = (slabStep * boxHeight + rowStep) * boxWidth + columnStep;
        // Samples a row of the maps or more apart: fetched a few ahead, or each waits for memory.
        constexpr int ahead = 8;
        const bool far = sampleStep > 1 || sampleStep < -1;
        for (int u = 0; u < columns; ++u, column += columnStep, row += rowStep, slab += slabStep) {
            if (size_t(column) >= size_t(boxWidth) || size_t(row) >= size_t(boxHeight) ||
                size_t(slab) >= size_t(maps.boxDepth))
                continue;
            const ptrdiff_t i = (slab * boxHeight + row) * boxWidth + column;
            if (far && u + ahead < columns) {
                const ptrdiff_t later = i + ahead * sampleStep;
                if (later >= 0 && later < samples) {
                    __builtin_prefetch(maps.stamps + later * StampBytes);
                    if constexpr (LabelBytes > 0)
                        __builtin_prefetch(maps.labels + later * LabelBytes);
                }
            }
            readSample<LabelBytes, StampBytes>(maps, size_t(i), size_t(slab * boxHeight + row), size_t(column),
                                               labelRow[u], stampRow[u]);
        }
    };
    cutInBands(shape.height(), columns, [&](int firstSliceRow, int endSliceRow) {
        for (int v = firstSliceRow; v < endSliceRow; ++v)
            cutRow(v);
    });
}

// Slice z of step-1 box maps as the maps of that slice alone, pointing into
// the same memory.
BoxMaps axialRows(const BoxMaps& maps, int slice, int width, int height)
{
    BoxMaps cut = maps;
    cut.width = width;
    cut.height = height;
    cut.depth = 1;
    cut.z0 = 0;
    cut.boxDepth = 1;
    if (maps.boxWidth == 0 || slice < maps.z0 || slice >= maps.z0 + maps.boxDepth) {
        cut.boxWidth = cut.boxHeight = 0;
        cut.x0 = cut.y0 = 0;
        return cut;
    }
    const size_t skippedRows = size_t(slice - maps.z0) * size_t(maps.boxHeight);
    const size_t skipped = skippedRows * size_t(maps.boxWidth);
    cut.labels = maps.labels ? maps.labels + skipped * size_t(maps.labelBytes) : nullptr;
    cut.stamps = maps.stamps + skipped * size_t(maps.stampBytes);
    if (maps.stampBytes == 1)
        cut.stampBases = maps.stampBases + skippedRows * size_t(maps.runsPerRow());
    return cut;
}

} // namespace

GrowResultPtr sliceResult(const SliceAxes& axes, int slice, const GrowResultPtr& result)
{
    if (!result)
        return nullptr;
    const VolumeSize size{result->width, result->height, result->depth};
    const QSize shape = sliceSize(axes, size);
    auto cut = std::make_shared<GrowResult>();
    cut->width = shape.width();
    cut->height = shape.height();
    cut->regions = result->regions; // their number sets the palette
    cut->iterations = result->iterations;
    cut->stoppedAtCap = result->stoppedAtCap;
    const BoxMaps maps = mapsView(*result);
    if (axes == voxelOrderAxes(Plane::Axial) && maps.step == 1) {
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
                const Seed voxel = voxelAt(axes, slice, QPoint(column, row), size);
                const size_t i = size_t(row) * size_t(shape.width()) + size_t(column);
                cut->labels[i] = maps.label(voxel.x, voxel.z * size.height + voxel.y);
                cut->stamps[i] = maps.stamp(voxel.x, voxel.z * size.height + voxel.y);
            }
        return cut;
    }
    uint16_t* labels = cut->labels.data();
    uint32_t* stamps = cut->stamps.data();
    // The maps' byte widths, fixed at compile time for each pair.
    const auto cutWith = [&](auto labelBytes) {
        constexpr int L = decltype(labelBytes)::value;
        switch (maps.stampBytes) {
        case 1: cutSlice<L, 1>(axes, slice, maps, size, labels, stamps); break;
        case 2: cutSlice<L, 2>(axes, slice, maps, size, labels, stamps); break;
        default: cutSlice<L, 4>(axes, slice, maps, size, labels, stamps); break;
        }
    };
    switch (maps.labelBytes) {
    case 0: cutWith(std::integral_constant<int, 0>()); break;
    case 1: cutWith(std::integral_constant<int, 1>()); break;
    default: cutWith(std::integral_constant<int, 2>()); break;
    }
    return cut;
}

} // namespace rgx::ui
