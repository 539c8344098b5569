// Comparing two results pixel by pixel (the corruption view and --verify).
#include "Result.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace rgx {

int64_t BoxMaps::sampleAt(int x, int y) const
{
    // The sample's slice of the box, and its row there: with one slice, y
    // itself may be the row (the slices stacked, the box a band of rows).
    const int64_t below = int64_t(y) - int64_t(z0) * sliceHeight();
    const int64_t slice = boxDepth > 1 ? below / sliceHeight() : 0;
    const int64_t row = (boxDepth > 1 ? below % sliceHeight() : below) - y0;
    if (x < x0 || x >= x0 + boxWidth * step || below < 0 || slice >= boxDepth || row < 0 || row >= boxHeight * step)
        return -1;
    return (slice * boxHeight + row / step) * int64_t(boxWidth) + int64_t((x - x0) / step);
}

uint16_t BoxMaps::label(int x, int y) const
{
    const int64_t sample = sampleAt(x, y);
    if (sample < 0)
        return 0;
    const size_t i = size_t(sample);
    if (labelBytes == 0)
        return stamp(x, y) == unclassifiedStamp ? 0 : 1;
    if (labelBytes == 1)
        return labels[i];
    uint16_t value;
    std::memcpy(&value, labels + 2 * i, 2);
    return value;
}

uint32_t BoxMaps::stamp(int x, int y) const
{
    const int64_t sample = sampleAt(x, y);
    if (sample < 0)
        return unclassifiedStamp;
    const size_t i = size_t(sample);
    if (stampBytes == 1)
        return narrowStamp(i / size_t(boxWidth), i % size_t(boxWidth));
    if (stampBytes == 2) {
        uint16_t value;
        std::memcpy(&value, stamps + 2 * i, 2);
        return value == 0xFFFF ? unclassifiedStamp : value;
    }
    uint32_t value;
    std::memcpy(&value, stamps + 4 * i, 4);
    return value;
}

void BoxMaps::widen(std::vector<uint16_t>& fullLabels, std::vector<uint32_t>& fullStamps) const
{
    if (step != 1)
        throw std::invalid_argument("BoxMaps::widen: the maps hold every " + std::to_string(step) + "th pixel only");
    const size_t count = size_t(width) * size_t(height);
    if (fullLabels.size() != count)
        fullLabels.assign(count, 0);
    if (fullStamps.size() != count)
        fullStamps.assign(count, unclassifiedStamp);
    for (int row = 0; row < boxHeight * boxDepth; ++row) {
        const size_t from = size_t(row) * size_t(boxWidth);
        const size_t slice = size_t(z0 + row / boxHeight), rowInSlice = size_t(y0 + row % boxHeight);
        const size_t to = (slice * size_t(sliceHeight()) + rowInSlice) * size_t(width) + size_t(x0);
        uint16_t* labelRow = fullLabels.data() + to;
        uint32_t* stampRow = fullStamps.data() + to;
        if (stampBytes == 1) {
            for (int x = 0; x < boxWidth; ++x)
                stampRow[x] = narrowStamp(size_t(row), size_t(x));
        } else if (stampBytes == 2) {
            const uint16_t* narrow = reinterpret_cast<const uint16_t*>(stamps) + from;
            for (int x = 0; x < boxWidth; ++x)
                stampRow[x] = narrow[x] == 0xFFFF ? unclassifiedStamp : narrow[x];
        } else {
            std::memcpy(stampRow, stamps + 4 * from, 4 * size_t(boxWidth));
        }
        if (labelBytes == 0)
            for (int x = 0; x < boxWidth; ++x)
                labelRow[x] = stampRow[x] == unclassifiedStamp ? 0 : 1;
        else if (labelBytes == 1)
            std::copy(labels + from, labels + from + size_t(boxWidth), labelRow);
        else
            std::memcpy(labelRow, labels + 2 * from, 2 * size_t(boxWidth));
    }
}

namespace {

// Everything but the maps.
GrowResult resultWithoutMaps(const ClickResult& click)
{
    GrowResult result;
    result.width = click.maps.width;
    result.height = click.maps.height / std::max(click.maps.depth, 1);
    result.depth = click.maps.depth;
    result.regions = click.regions;
    result.iterations = click.iterations;
    result.stoppedAtCap = click.stoppedAtCap;
    result.filteredLuma = click.filteredLuma;
    result.device = click.device;
    result.variant = click.variant;
    result.timings = click.timings;
    result.kernels = click.kernels;
    result.hostMilliseconds = click.hostMilliseconds;
    result.note = click.note;
    result.grownIn = click.grownIn;
    return result;
}

} // namespace

GrowResult ClickResult::toGrowResult() const
{
    GrowResult result = resultWithoutMaps(*this);
    maps.widen(result.labels, result.stamps);
    return result;
}

GrowResult ClickResult::toBoxResult() const
{
    GrowResult result = resultWithoutMaps(*this);
    result.box = maps;
    return result;
}

BoxMaps mapsView(const GrowResult& result)
{
    if (!result.hasFullMaps()) {
        BoxMaps box = result.box;
        box.width = result.width;
        box.height = result.height * result.depth;
        box.depth = result.depth;
        return box;
    }
    BoxMaps whole;
    whole.width = whole.boxWidth = result.width;
    whole.height = result.height * result.depth;
    whole.boxHeight = result.height;
    whole.depth = whole.boxDepth = result.depth;
    whole.labelBytes = 2;
    whole.stampBytes = 4;
    whole.labels = reinterpret_cast<const uint8_t*>(result.labels.data());
    whole.stamps = reinterpret_cast<const uint8_t*>(result.stamps.data());
    return whole;
}

const GrowResult& fullMapsOf(const GrowResult& result, GrowResult& storage)
{
    if (result.hasFullMaps() || result.box.step != 1 || result.width <= 0 || result.height <= 0)
        return result;
    storage.width = result.width;
    storage.height = result.height;
    storage.depth = result.depth;
    storage.regions = result.regions;
    storage.iterations = result.iterations;
    mapsView(result).widen(storage.labels, storage.stamps);
    return storage;
}

GrowResultPtr withFullMaps(const GrowResultPtr& result)
{
    if (!result || result->hasFullMaps() || result->width <= 0 || result->height <= 0)
        return result;
    auto full = std::make_shared<GrowResult>(*result);
    full->box = BoxMaps();
    result->box.widen(full->labels, full->stamps);
    return full;
}

ResultDiff compareResults(const GrowResult& expected, const GrowResult& actualMaps)
{
    // A box result is compared through its full maps.
    GrowResult widened;
    const GrowResult& actual = actualMaps.width == expected.width && actualMaps.height == expected.height
                                   ? fullMapsOf(actualMaps, widened)
                                   : actualMaps;
    ResultDiff diff;
    const size_t count = expected.labels.size();
    diff.mask.assign(count, noDifference);
    if (actual.labels.size() != count || actual.stamps.size() != count) {
        diff.differingPixels = count;
        std::fill(diff.mask.begin(), diff.mask.end(), labelDifference);
        diff.firstDifferingIteration = 0;
        diff.firstDifferingPixel = 0;
        return diff;
    }
    // A wrong run's stamps may be anything: the counts stop at the later of
    // the two iteration counts, and an interval that starts past it is left out.
    const uint32_t last = std::max(expected.iterations, actual.iterations);
    std::vector<int64_t> changes(size_t(last) + 2, 0);
    for (size_t p = 0; p < count; ++p) {
        const uint16_t labelA = expected.labels[p], labelB = actual.labels[p];
        const uint32_t stampA = expected.stamps[p], stampB = actual.stamps[p];
        if (labelA == labelB && stampA == stampB)
            continue;
        diff.mask[p] = labelA == labelB ? stampDifference : labelDifference;
        if (diff.differingPixels == 0)
            diff.firstDifferingPixel = int64_t(p);
        diff.differingPixels += 1;
        const uint32_t earlier = std::min(stampA, stampB);
        if (diff.firstDifferingIteration < 0 || int64_t(earlier) < diff.firstDifferingIteration)
            diff.firstDifferingIteration = earlier;
        if (earlier > last)
            continue;
        changes[earlier] += 1;
        const uint32_t later = std::max(stampA, stampB);
        if (labelA == labelB && later <= last)
            changes[later] -= 1;
    }
    diff.perIteration.resize(size_t(last) + 1);
    int64_t running = 0;
    for (size_t k = 0; k <= last; ++k) {
        running += changes[k];
        diff.perIteration[k] = uint64_t(running);
    }
    return diff;
}

void recountRegions(GrowResult& result, const std::vector<uint16_t>& luma)
{
    for (RegionStats& region : result.regions)
        region = {};
    for (size_t p = 0; p < result.labels.size(); ++p) {
        const uint16_t k = result.labels[p];
        if (k == 0 || k > result.regions.size())
            continue;
        result.regions[k - 1u].count += 1;
        result.regions[k - 1u].sum += luma[p];
    }
}

} // namespace rgx
