// Region colours and the overlay picture: one frame of SPEC.md's animation,
// rebuilt from the final label and stamp maps.
#include "Overlay.h"

#include <algorithm>
#include <cstring>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <type_traits>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rgx {

namespace {

// Drawn over the pixels classified in the frame shown: bright, and far from
// every region colour's darker outline.
constexpr QRgb frontierColour = 0xFFFFFF40u;

// How much darker an outline is than its region's fill (QColor::darker %).
constexpr int outlineDarkness = 140;

// How the regions of one picture are painted: fill and outline colours of
// labels 0..largestLabel, computed once per picture (HSV conversions per pixel
// would dominate on large images), and the style's frame, frontier, outlines
// and opacity.
struct RegionPaint {
    std::vector<QRgb> fill, outline;
    uint32_t frame = 0;
    bool showFrontier = false;
    bool outlines = false;
    int alpha = 0; // opacity in 1/256

    // The colour of a pixel of region `label`, classified at `stamp`, over
    // `under`; onBorder() is asked only where outlines are drawn.
    template <typename OnBorder>
    QRgb colour(QRgb under, int label, uint32_t stamp, OnBorder onBorder) const
    {
        if (showFrontier && stamp == frame)
            return frontierColour;
        if (outlines && onBorder())
            return outline[size_t(label)];
        const QRgb over = fill[size_t(label)];
        const auto blend = [this](int below, int above) { return (below * (256 - alpha) + above * alpha + 128) >> 8; };
        return qRgb(blend(qRed(under), qRed(over)), blend(qGreen(under), qGreen(over)), blend(qBlue(under), qBlue(over)));
    }
};

RegionPaint regionPaint(const OverlayStyle& style, int largestLabel);

} // namespace

QColor regionColour(int region)
{
    if (region < 1)
        return QColor(128, 128, 128);
    // The golden angle spreads consecutive hues as far apart as possible and
    // never repeats one exactly; saturation and value cycle with periods 3
    // and 2 so that regions of similar hue still differ. Both stay in ranges
    // that are never close to black, white or grey.
    constexpr double goldenAngleDegrees = 137.50776405003785;
    const double hue = std::fmod(double(region - 1) * goldenAngleDegrees, 360.0);
    static const double saturations[] = {0.85, 0.60, 0.95};
    static const double values[] = {0.95, 0.75};
    const double saturation = saturations[(region - 1) % 3];
    const double value = values[((region - 1) / 3) % 2];
    return QColor::fromHsvF(float(hue / 360.0), float(saturation), float(value));
}

namespace {

RegionPaint regionPaint(const OverlayStyle& style, int largestLabel)
{
    RegionPaint paint;
    paint.fill.assign(size_t(largestLabel) + 1, 0);
    paint.outline.assign(size_t(largestLabel) + 1, 0);
    for (int k = 1; k <= largestLabel; ++k) {
        const QColor colour = regionColour(k);
        paint.fill[size_t(k)] = colour.rgb();
        paint.outline[size_t(k)] = colour.darker(outlineDarkness).rgb();
    }
    paint.frame = style.frame;
    paint.showFrontier = style.frontier && style.frame != std::numeric_limits<uint32_t>::max();
    paint.outlines = style.outlines;
    paint.alpha = std::clamp(int(std::lround(style.opacity * 256.0)), 0, 256);
    return paint;
}

} // namespace

QImage renderOverlay(const QImage& base, const GrowResult& boxOrFull, const OverlayStyle& style)
{
    // The whole picture is drawn from full maps (made here for a box result).
    GrowResult widened;
    const GrowResult& result = fullMapsOf(boxOrFull, widened);
    const int width = result.width;
    const int height = result.height;
    if (base.width() != width || base.height() != height) {
        throw std::invalid_argument("renderOverlay: the base picture is " + std::to_string(base.width()) + "x"
                                    + std::to_string(base.height()) + ", the result "
                                    + std::to_string(width) + "x" + std::to_string(height));
    }
    const size_t pixelCount = size_t(width) * size_t(height);
    if (result.labels.size() != pixelCount || result.stamps.size() != pixelCount)
        throw std::invalid_argument("renderOverlay: label or stamp map does not match the image size");

    QImage picture = base.convertToFormat(QImage::Format_RGB32);
    if (pixelCount == 0)
        return picture;

    const int largestLabel = int(*std::max_element(result.labels.begin(), result.labels.end()));
    const RegionPaint paint = regionPaint(style, std::max(largestLabel, int(result.regions.size())));
    const uint32_t frame = style.frame;

    const uint16_t* labels = result.labels.data();
    const uint32_t* stamps = result.stamps.data();
    // Label of pixel i as frame `frame` shows it: 0 until it is classified.
    const auto visible = [&](size_t i) -> int { return stamps[i] <= frame ? labels[i] : 0; };

    for (int y = 0; y < height; ++y) {
        auto* row = reinterpret_cast<QRgb*>(picture.scanLine(y));
        const size_t rowStart = size_t(y) * size_t(width);
        for (int x = 0; x < width; ++x) {
            const size_t i = rowStart + size_t(x);
            const int label = visible(i);
            if (label == 0)
                continue;
            row[x] = paint.colour(row[x], label, stamps[i], [&] {
                return (x > 0 && visible(i - 1) != label) || (x + 1 < width && visible(i + 1) != label) ||
                       (y > 0 && visible(i - size_t(width)) != label) ||
                       (y + 1 < height && visible(i + size_t(width)) != label);
            });
        }
    }
    return picture;
}

namespace {

// The picture's colour at (x, y), for the formats a view is given.
inline QRgb basePixel(const QImage& base, int x, int y)
{
    const uchar* line = base.constScanLine(y);
    if (base.format() == QImage::Format_Grayscale8) {
        const int grey = line[x];
        return qRgb(grey, grey, grey);
    }
    return reinterpret_cast<const QRgb*>(line)[x];
}

} // namespace

namespace {

// Per-pixel reads of a result's maps, full or box (BoxMaps::label and
// stamp, inline and with the map's byte widths fixed at compile time: a view
// asks for millions of pixels a frame).
template <int LabelBytes, int StampBytes>
class MapReader {
public:
    explicit MapReader(const BoxMaps& maps)
        : maps_(maps), x1_(maps.x0 + maps.boxWidth * maps.step), y1_(maps.y0 + maps.boxHeight * maps.step)
    {
    }

    uint32_t stamp(int x, int y) const
    {
        const int64_t i = index(x, y);
        return i < 0 ? unclassifiedStamp : stampAt(size_t(i), x, y);
    }
    // The label of (x, y) as frame `frame` shows it (0 until it is
    // classified), and its stamp.
    int visible(int x, int y, uint32_t frame, uint32_t& stamp) const
    {
        const int64_t i = index(x, y);
        stamp = i < 0 ? unclassifiedStamp : stampAt(size_t(i), x, y);
        return stamp <= frame ? labelAt(size_t(i), stamp) : 0;
    }
    int visible(int x, int y, uint32_t frame) const
    {
        uint32_t stamp;
        return visible(x, y, frame, stamp);
    }

private:
    int64_t index(int x, int y) const
    {
        if (x < maps_.x0 || y < maps_.y0 || x >= x1_ || y >= y1_)
            return -1;
        if (maps_.step == 1)
            return int64_t(y - maps_.y0) * maps_.boxWidth + (x - maps_.x0);
        return int64_t((y - maps_.y0) / maps_.step) * maps_.boxWidth + (x - maps_.x0) / maps_.step;
    }
    // Sample i, at pixel (x, y) of the image.
    uint32_t stampAt(size_t i, int x, int y) const
    {
        if constexpr (StampBytes == 1) { // narrow maps hold every pixel (step 1)
            return maps_.narrowStamp(size_t(y - maps_.y0), size_t(x - maps_.x0));
        } else if constexpr (StampBytes == 2) {
            uint16_t value;
            std::memcpy(&value, maps_.stamps + 2 * i, 2);
            return value == 0xFFFF ? unclassifiedStamp : value;
        } else {
            uint32_t value;
            std::memcpy(&value, maps_.stamps + 4 * i, 4);
            return value;
        }
    }
    int labelAt(size_t i, uint32_t stamp) const
    {
        if constexpr (LabelBytes == 0) {
            return stamp == unclassifiedStamp ? 0 : 1;
        } else if constexpr (LabelBytes == 1) {
            return maps_.labels[i];
        } else {
            uint16_t value;
            std::memcpy(&value, maps_.labels + 2 * i, 2);
            return value;
        }
    }

    const BoxMaps& maps_;
    const int x1_, y1_;
};

// Threads that render bands of a view, started once and kept: starting a
// dozen threads for every frame cost a few hundred microseconds of it. The
// caller renders bands too, and returns when every band is done. Renders
// from several threads take turns.
class BandPool {
public:
    static BandPool& instance()
    {
        static BandPool pool(std::clamp<int>(int(std::thread::hardware_concurrency()), 1, 16) - 1);
        return pool;
    }
    int threads() const { return int(workers_.size()) + 1; }

    void run(int bands, const std::function<void(int)>& band)
    {
        const std::lock_guard<std::mutex> turn(turn_);
        std::unique_lock<std::mutex> lock(mutex_);
        job_ = &band;
        bandCount_ = bands;
        nextBand_ = 0;
        pending_ = bands;
        ++generation_;
        lock.unlock();
        wake_.notify_all();
        work(generation_);
        lock.lock();
        done_.wait(lock, [this] { return pending_ == 0; });
        job_ = nullptr;
    }

    ~BandPool()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread& worker : workers_)
            worker.join();
    }

private:
    explicit BandPool(int workers)
    {
        for (int i = 0; i < workers; ++i)
            workers_.emplace_back([this] {
                uint64_t seen = 0;
                for (;;) {
                    std::unique_lock<std::mutex> lock(mutex_);
                    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
                    if (stopping_)
                        return;
                    seen = generation_;
                    lock.unlock();
                    work(seen);
                }
            });
    }

    // Takes bands until none is left.
    void work(uint64_t generation)
    {
        for (;;) {
            std::unique_lock<std::mutex> lock(mutex_);
            if (generation != generation_ || nextBand_ >= bandCount_)
                return;
            const int band = nextBand_++;
            const std::function<void(int)>* job = job_;
            lock.unlock();
            (*job)(band);
            lock.lock();
            if (--pending_ == 0)
                done_.notify_all();
        }
    }

    std::mutex turn_;  // one render at a time
    std::mutex mutex_; // the job and its counters
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;
    const std::function<void(int)>* job_ = nullptr;
    int bandCount_ = 0, nextBand_ = 0, pending_ = 0;
    uint64_t generation_ = 0;
    bool stopping_ = false;
};

// Rows [first, end) of the output in bands on the pool's threads where the
// output is large enough to pay for them.
template <typename RenderRows>
void renderInBands(int outWidth, int outHeight, RenderRows renderRows)
{
    constexpr int64_t pixelsPerBand = 16 * 1024;
    const int64_t pixels = int64_t(outWidth) * outHeight;
    const int bands = int(std::clamp<int64_t>(pixels / pixelsPerBand, 1, 64));
    if (bands == 1 || BandPool::instance().threads() == 1) {
        renderRows(0, outHeight);
        return;
    }
    const int rowsPerBand = (outHeight + bands - 1) / bands;
    BandPool::instance().run(bands, [&](int band) {
        const int first = band * rowsPerBand;
        if (first < outHeight)
            renderRows(first, std::min(outHeight, first + rowsPerBand));
    });
}

// What renderOverlayView draws, for one way of reading the maps.
struct ViewJob {
    const QImage& base;
    const OverlayStyle& style;
    const ViewLayers& layers;
    const RegionPaint& paint;
    const std::vector<int>& columns;
    const std::vector<int>& rows;
    int reachX, reachY;
    bool regions;
    bool hasResult;
    QImage& out;
};

template <int LabelBytes, int StampBytes>
void renderView(const ViewJob& job, const BoxMaps& maps)
{
    const MapReader<LabelBytes, StampBytes> reader(maps);
    const int width = job.base.width(), height = job.base.height();
    const int outWidth = job.out.width(), outHeight = job.out.height();
    const uint32_t frame = job.style.frame;
    const int divisor = std::max(1, job.layers.baseDivisor);
    const int reachX = job.reachX, reachY = job.reachY;
    const std::vector<uint8_t>* differences = job.layers.differences;
    const std::vector<uint32_t>* referenceStamps = job.layers.referenceStamps;
    renderInBands(outWidth, outHeight, [&](int firstRow, int endRow) {
        for (int j = firstRow; j < endRow; ++j) {
            const int y = job.rows[size_t(j)];
            auto* line = reinterpret_cast<QRgb*>(job.out.scanLine(j));
            // Zoomed in, output rows and columns repeat image ones: a pixel's
            // colour depends on its image pixel alone, so it is made once.
            if (j > firstRow && job.rows[size_t(j - 1)] == y) {
                std::memcpy(line, job.out.constScanLine(j - 1), size_t(outWidth) * sizeof(QRgb));
                continue;
            }
            for (int i = 0; i < outWidth; ++i) {
                const int x = job.columns[size_t(i)];
                if (i > 0 && job.columns[size_t(i - 1)] == x) {
                    line[i] = line[i - 1];
                    continue;
                }
                QRgb colour = basePixel(job.base, x, y);
                if (divisor > 1)
                    colour = qRgb(qRed(colour) / divisor, qGreen(colour) / divisor, qBlue(colour) / divisor);
                uint32_t stamp = unclassifiedStamp;
                const int label = job.regions ? reader.visible(x, y, frame, stamp) : 0;
                if (label > 0 && label < int(job.paint.fill.size()))
                    colour = job.paint.colour(colour, label, stamp, [&] {
                        return (x >= reachX && reader.visible(x - reachX, y, frame) != label) ||
                               (x + reachX < width && reader.visible(x + reachX, y, frame) != label) ||
                               (y >= reachY && reader.visible(x, y - reachY, frame) != label) ||
                               (y + reachY < height && reader.visible(x, y + reachY, frame) != label);
                    });
                const size_t p = size_t(y) * size_t(width) + size_t(x);
                if (differences && p < differences->size() && (*differences)[p]) {
                    // A pixel is lit in the frames where the two runs' states
                    // differ (Result.h, differsAt), so playback shows the damage spread.
                    const uint32_t stamp = job.hasResult ? reader.stamp(x, y) : 0;
                    const uint32_t other = referenceStamps && p < referenceStamps->size() ? (*referenceStamps)[p] : stamp;
                    if (job.layers.allDifferences || differsAt((*differences)[p], stamp, other, frame)) {
                        const QRgb original = basePixel(job.base, x, y);
                        colour = qRgb(191 + qRed(original) / 4, qGreen(original) / 4, 191 + qBlue(original) / 4);
                    }
                }
                line[i] = colour;
            }
        }
    });
}

} // namespace

void renderOverlayView(const QImage& base, const GrowResult* result, const OverlayStyle& style,
                       const ViewLayers& layers, const QRectF& source, QImage& out)
{
    if (out.format() != QImage::Format_RGB32)
        out = out.convertToFormat(QImage::Format_RGB32);
    const int width = base.width(), height = base.height();
    const int outWidth = out.width(), outHeight = out.height();
    if (width == 0 || height == 0 || outWidth == 0 || outHeight == 0 || source.isEmpty())
        return;
    if (result && (result->width != width || result->height != height))
        throw std::invalid_argument("renderOverlayView: the result does not match the picture's size");
    if (base.format() != QImage::Format_Grayscale8 && base.format() != QImage::Format_RGB32 &&
        base.format() != QImage::Format_ARGB32)
        throw std::invalid_argument("renderOverlayView: the picture must be RGB32, ARGB32 or Grayscale8");

    // The image column and row under the centre of each output pixel.
    std::vector<int> columns(static_cast<size_t>(outWidth));
    std::vector<int> rows(static_cast<size_t>(outHeight));
    const double stepX = source.width() / outWidth, stepY = source.height() / outHeight;
    for (int i = 0; i < outWidth; ++i)
        columns[size_t(i)] = std::clamp(int(std::floor(source.left() + (i + 0.5) * stepX)), 0, width - 1);
    for (int j = 0; j < outHeight; ++j)
        rows[size_t(j)] = std::clamp(int(std::floor(source.top() + (j + 0.5) * stepY)), 0, height - 1);
    // A neighbour for outlines: the next image pixel, or the next output
    // pixel's when that is farther (zoomed out).
    const int reachX = std::max(1, int(std::lround(stepX))), reachY = std::max(1, int(std::lround(stepY)));

    const bool regions = layers.regions && result;
    // Labels past the palette (a wrong-on-purpose run's) stay uncoloured.
    const RegionPaint paint = regionPaint(style, regions ? int(result->regions.size()) + 1 : 0);
    const BoxMaps maps = result ? mapsView(*result) : BoxMaps();
    out.bits(); // detached here, before the bands write their rows
    const ViewJob job{base, style, layers, paint, columns, rows, reachX, reachY, regions, result != nullptr, out};
    // The maps' byte widths, fixed at compile time for each pair.
    const auto render = [&](auto labelBytes) {
        constexpr int L = decltype(labelBytes)::value;
        switch (maps.stampBytes) {
        case 1: renderView<L, 1>(job, maps); break;
        case 2: renderView<L, 2>(job, maps); break;
        default: renderView<L, 4>(job, maps); break;
        }
    };
    switch (maps.labelBytes) {
    case 0: render(std::integral_constant<int, 0>()); break;
    case 1: render(std::integral_constant<int, 1>()); break;
    default: render(std::integral_constant<int, 2>()); break;
    }
}

} // namespace rgx
