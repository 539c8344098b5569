// One iteration of SPEC.md is one parallel pass over the frontier: each
// unclassified neighbour is claimed by exactly one thread (a compare-and-swap
// on its pixel word), decided from the state of the previous iteration, and
// written at once; region sums gather per thread and merge after the pass.
// Everything a decision reads of a pixel sits in one 64-bit word, so that a
// visit costs one cache line, not one per array.
#include "FastCpuGrowing.h"
#include "Errors.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace rgx {
namespace {

// The word of a pixel: bit 0 set once the pixel is classified; bits 1-31 the
// last iteration that listed it as a candidate (or classified it); bits
// 32-47 its label; bits 48-63 its luma. A pixel is settled for iteration i
// when it was classified in an iteration before i; only the thread that
// claimed a pixel writes its word after the claim.
using PixelWord = uint64_t;
constexpr PixelWord acceptedBit = 1;
constexpr PixelWord lumaBits = PixelWord(0xFFFF) << 48;

constexpr PixelWord listedIn(uint32_t iteration) { return PixelWord(iteration) << 1; }
constexpr uint32_t iterationOf(PixelWord word) { return uint32_t(word >> 1) & 0x7FFFFFFFu; }
constexpr uint16_t labelOf(PixelWord word) { return uint16_t(word >> 32); }
constexpr uint16_t lumaOf(PixelWord word) { return uint16_t(word >> 48); }
constexpr PixelWord classified(PixelWord word, int region, uint32_t iteration)
{
    return (word & lumaBits) | (PixelWord(region) << 32) | listedIn(iteration) | acceptedBit;
}

constexpr size_t chunkPixels = 256;        // frontier pixels a thread takes at a time
constexpr size_t pixelsPerThread = 1024;   // a smaller frontier is not worth waking another thread
constexpr size_t passPixelsPerThread = 1 << 16; // the same for the passes over the whole image

constexpr int neighbourDx[8] = {-1, 1, 0, 0, -1, 1, -1, 1};
constexpr int neighbourDy[8] = {0, 0, -1, 1, -1, -1, 1, 1};

// A fixed team of threads that share the parts of one job, the caller
// taking part as thread 0, so that a job for one thread runs inline with no
// waiting. A job takes its parts from a shared counter until none are left,
// so a thread that wakes late (the machine busy with other work) finds the
// parts done and is not waited for. The other threads start on the first
// job that needs them: a small image never pays for them.
class WorkerTeam {
public:
    explicit WorkerTeam(int size) : size_(size) {}

    ~WorkerTeam()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
            ++generation_;
        }
        wake_.notify_all();
        for (std::thread& thread : threads_)
            thread.join();
    }

    int size() const { return size_; }

    // Offers job(t) to threads t = 1 .. helpers and runs job(0) here;
    // returns once job(0) has returned and every thread that took the job
    // has finished it. A thread that comes after that does not take it.
    void run(int helpers, const std::function<void(int)>& job)
    {
        if (helpers <= 0) {
            job(0);
            return;
        }
        if (threads_.empty())
            for (int index = 1; index < size_; ++index)
                threads_.emplace_back([this, index] { work(index); });
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            helpers_ = helpers;
            open_ = true;
            ++generation_;
        }
        wake_.notify_all();
        job(0);
        std::unique_lock<std::mutex> lock(mutex_);
        open_ = false;
        finished_.wait(lock, [this] { return working_ == 0; });
    }

private:
    void work(int index)
    {
        uint64_t seen = 0;
        for (;;) {
            const std::function<void(int)>* job = nullptr;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return generation_ != seen; });
                seen = generation_;
                if (stopping_)
                    return;
                if (!open_ || index > helpers_)
                    continue;
                job = job_;
                ++working_;
            }
            (*job)(index);
            std::lock_guard<std::mutex> lock(mutex_);
            if (--working_ == 0)
                finished_.notify_one();
        }
    }

    int size_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable finished_;
    const std::function<void(int)>* job_ = nullptr;
    int helpers_ = 0;
    bool open_ = false; // the current job may still be taken
    int working_ = 0;   // threads inside the current job
    uint64_t generation_ = 0;
    bool stopping_ = false;
};

// What one thread gathers in one iteration.
struct ThreadState {
    std::vector<uint32_t> nextFrontier;
    std::vector<uint64_t> acceptedCount; // per region
    std::vector<uint64_t> acceptedSum;
    std::vector<uint32_t> touchedRegions; // regions with acceptedCount > 0
};

class Growth {
public:
    Growth(int width, int height, const std::vector<Seed>& seeds, const std::vector<uint16_t>& seedLuma,
           const GrowParams& params, std::atomic<PixelWord>* words, std::vector<RegionStats>& regions)
        : width_(width), height_(height), params_(params), regions_(regions),
          regionTotal_(int(seeds.size())), threshold_(params.toleranceThreshold()), words_(words),
          seedLuma_(seedLuma.begin(), seedLuma.end())
    {
        means_.resize(seeds.size());
        grew_.assign(seeds.size(), 0);
        for (size_t k = 0; k < seeds.size(); ++k)
            means_[k] = regions[k].fixedMean();
    }

    // Visits the unclassified neighbours of frontier pixel q and decides
    // those this thread claims first. alone: no other thread runs this
    // iteration, so a claim needs no compare-and-swap.
    void expand(uint32_t q, uint32_t iteration, bool alone, ThreadState& state)
    {
        const int x = int(q % uint32_t(width_));
        const int y = int(q / uint32_t(width_));
        for (int d = 0; d < params_.connectivity; ++d) {
            const int nx = x + neighbourDx[d];
            const int ny = y + neighbourDy[d];
            if (nx < 0 || ny < 0 || nx >= width_ || ny >= height_)
                continue;
            const size_t p = size_t(ny) * size_t(width_) + size_t(nx);
            PixelWord word = words_[p].load(std::memory_order_relaxed);
            if ((word & acceptedBit) || iterationOf(word) == iteration)
                continue;
            const PixelWord claimed = (word & lumaBits) | listedIn(iteration);
            if (alone)
                words_[p].store(claimed, std::memory_order_relaxed);
            else if (!words_[p].compare_exchange_strong(word, claimed, std::memory_order_relaxed))
                continue; // another thread claimed it in this iteration
            const uint16_t value = lumaOf(word);
            const int region = decide(value, nx, ny, iteration);
            if (region == 0)
                continue;
            words_[p].store(classified(word, region, iteration), std::memory_order_relaxed);
            state.nextFrontier.push_back(uint32_t(p));
            if (state.acceptedCount[size_t(region - 1)]++ == 0)
                state.touchedRegions.push_back(uint32_t(region - 1));
            state.acceptedSum[size_t(region - 1)] += value;
        }
    }

    // Adds the sums gathered by the threads to the regions and refreshes
    // the means of the regions that grew.
    void mergeRegionSums(std::vector<ThreadState>& states)
    {
        grown_.clear();
        for (ThreadState& state : states) {
            for (uint32_t k : state.touchedRegions) {
                if (!grew_[k]) {
                    grew_[k] = 1;
                    grown_.push_back(k);
                }
                regions_[k].count += state.acceptedCount[k];
                regions_[k].sum += state.acceptedSum[k];
                state.acceptedCount[k] = 0;
                state.acceptedSum[k] = 0;
            }
            state.touchedRegions.clear();
        }
        for (uint32_t k : grown_) {
            means_[k] = regions_[k].fixedMean();
            grew_[k] = 0;
        }
    }

private:
    uint64_t distance(uint16_t value, int region) const
    {
        const uint64_t scaled = uint64_t(value) * 256u;
        const uint64_t mean = means_[size_t(region - 1)];
        return scaled > mean ? scaled - mean : mean - scaled;
    }

    bool inRange(uint16_t value, int region) const
    {
        const uint64_t seed = seedLuma_[size_t(region - 1)];
        return uint64_t(value) + params_.lower >= seed && uint64_t(value) <= seed + params_.upper;
    }

    // SPEC.md steps 3 and 4: the region a pixel of this luma at (x, y)
    // joins, 0 when it stays unclassified.
    int decide(uint16_t value, int x, int y, uint32_t iteration) const
    {
        int eligible[8];
        int eligibleCount = 0;
        if (params_.rule == Rule::Adjacent) {
            for (int d = 0; d < params_.connectivity; ++d) {
                const int nx = x + neighbourDx[d];
                const int ny = y + neighbourDy[d];
                if (nx < 0 || ny < 0 || nx >= width_ || ny >= height_)
                    continue;
                const PixelWord word = words_[size_t(ny) * size_t(width_) + size_t(nx)].load(std::memory_order_relaxed);
                if ((word & acceptedBit) && iterationOf(word) < iteration)
                    eligible[eligibleCount++] = labelOf(word);
            }
        }
        const bool everyRegion = params_.rule == Rule::All;
        const int choices = everyRegion ? regionTotal_ : eligibleCount;
        auto candidate = [&](int index) { return everyRegion ? index + 1 : eligible[index]; };

        int chosen = 0;
        if (params_.mode == Mode::Range) {
            for (int index = 0; index < choices; ++index) {
                const int k = candidate(index);
                if ((chosen == 0 || k < chosen) && inRange(value, k)) {
                    chosen = k;
                    if (everyRegion)
                        break; // regions come in increasing order
                }
            }
            return chosen;
        }
        uint64_t best = 0;
        for (int index = 0; index < choices; ++index) {
            const int k = candidate(index);
            const uint64_t d = distance(value, k);
            if (chosen == 0 || d < best || (d == best && k < chosen)) {
                chosen = k;
                best = d;
            }
        }
        if (params_.mode == Mode::Adaptive && chosen != 0 && best > threshold_)
            return 0;
        return chosen;
    }

    const int width_;
    const int height_;
    const GrowParams& params_;
    std::vector<RegionStats>& regions_;
    const int regionTotal_;
    const uint64_t threshold_;
    std::atomic<PixelWord>* words_;
    const std::vector<uint64_t> seedLuma_;
    std::vector<uint64_t> means_;  // M_k as of the end of the previous iteration
    std::vector<uint8_t> grew_;    // per region: in grown_ already
    std::vector<uint32_t> grown_;  // regions that grew in this iteration
};

// Runs body(begin, end) over [0, count) in parts shared by the team.
template <typename Body>
void forEachPart(WorkerTeam& team, size_t count, Body body)
{
    const size_t parts = std::clamp<size_t>(count / passPixelsPerThread, 1, size_t(team.size()) * 4);
    std::atomic<size_t> nextPart{0};
    team.run(int(std::min<size_t>(parts, size_t(team.size())) - 1), [&](int) {
        for (size_t part = nextPart.fetch_add(1); part < parts; part = nextPart.fetch_add(1))
            body(count * part / parts, count * (part + 1) / parts);
    });
}

} // namespace

int fastCpuDefaultThreads()
{
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

GrowResult growRegionsFastCpu(const std::vector<uint16_t>& luma, int width, int height,
                              const std::vector<Seed>& seeds, const GrowParams& params, int threads)
{
    validateSeeds(seeds, width, height);
    const uint64_t pixelCount = uint64_t(width) * uint64_t(height);
    if (pixelCount >= (uint64_t(1) << 31))
        throw InputError("the fast CPU region growing handles images below 2^31 pixels; this one has " +
                         std::to_string(pixelCount));
    if (threads <= 0)
        threads = fastCpuDefaultThreads();
    WorkerTeam team(threads);

    // Unclassified pixels: their luma, never listed. Default-initialised
    // atomics, so that the image is written once, here.
    std::unique_ptr<std::atomic<PixelWord>[]> words(new std::atomic<PixelWord>[size_t(pixelCount)]);
    forEachPart(team, size_t(pixelCount), [&](size_t begin, size_t end) {
        for (size_t p = begin; p < end; ++p)
            words[p].store(PixelWord(luma[p]) << 48, std::memory_order_relaxed);
    });

    // Iteration 0: each seed starts its region.
    GrowResult result;
    result.width = width;
    result.height = height;
    result.regions.resize(seeds.size());
    result.device = "CPU, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    result.variant = "fast-cpu";
    std::vector<std::vector<uint32_t>> frontier(static_cast<size_t>(threads));
    std::vector<uint16_t> seedLuma(seeds.size());
    for (size_t k = 0; k < seeds.size(); ++k) {
        const size_t p = size_t(seeds[k].y) * size_t(width) + size_t(seeds[k].x);
        const PixelWord word = words[p].load(std::memory_order_relaxed);
        words[p].store(classified(word, int(k + 1), 0), std::memory_order_relaxed);
        seedLuma[k] = luma[p];
        result.regions[k] = {1, luma[p]};
        frontier[0].push_back(uint32_t(p));
    }

    Growth growth(width, height, seeds, seedLuma, params, words.get(), result.regions);
    std::vector<ThreadState> states(static_cast<size_t>(threads));
    for (ThreadState& state : states) {
        state.acceptedCount.assign(seeds.size(), 0);
        state.acceptedSum.assign(seeds.size(), 0);
    }
    // Each thread keeps the pixels it accepted as its part of the next
    // frontier and expands its own part first, so that the image lines it
    // touches stay in its core's cache; then it takes chunks of the others'.
    std::unique_ptr<std::atomic<size_t>[]> nextChunk(new std::atomic<size_t>[size_t(threads)]);

    const uint32_t cap = std::min<uint32_t>(params.iterationCap(pixelCount), 0x7FFFFFFFu);
    size_t frontierSize = seeds.size();
    for (uint32_t iteration = 1; iteration <= cap && frontierSize > 0; ++iteration) {
        for (size_t t = 0; t < states.size(); ++t) {
            states[t].nextFrontier.clear();
            nextChunk[t].store(0, std::memory_order_relaxed);
        }
        const int helpers = int(std::clamp<size_t>(frontierSize / pixelsPerThread, 1, size_t(team.size()))) - 1;
        team.run(helpers, [&](int thread) {
            ThreadState& state = states[size_t(thread)];
            for (int offset = 0; offset < threads; ++offset) {
                const size_t owner = size_t((thread + offset) % threads);
                const std::vector<uint32_t>& part = frontier[owner];
                for (size_t begin = nextChunk[owner].fetch_add(chunkPixels); begin < part.size();
                     begin = nextChunk[owner].fetch_add(chunkPixels)) {
                    const size_t end = std::min(part.size(), begin + chunkPixels);
                    for (size_t i = begin; i < end; ++i)
                        growth.expand(part[i], iteration, helpers == 0, state);
                }
            }
        });

        growth.mergeRegionSums(states);
        frontierSize = 0;
        for (size_t t = 0; t < states.size(); ++t) {
            std::swap(frontier[t], states[t].nextFrontier);
            frontierSize += frontier[t].size();
        }
        if (frontierSize > 0) {
            result.iterations = iteration;
            result.stoppedAtCap = iteration == cap;
        }
    }

    // Labels and stamps out of the pixel words.
    result.labels.resize(size_t(pixelCount));
    result.stamps.resize(size_t(pixelCount));
    forEachPart(team, size_t(pixelCount), [&](size_t begin, size_t end) {
        for (size_t p = begin; p < end; ++p) {
            const PixelWord word = words[p].load(std::memory_order_relaxed);
            result.labels[p] = labelOf(word);
            result.stamps[p] = (word & acceptedBit) ? iterationOf(word) : unclassifiedStamp;
        }
    });
    return result;
}

} // namespace rgx
