// One iteration of SPEC.md is one parallel pass over the frontier: each
// unclassified neighbour is claimed by exactly one thread (a compare-and-swap
// on its mark), decided from the state of the previous iteration, and
// written at once; region sums gather per thread and merge after the pass.
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

// mark[p] = (the last iteration that listed p as a candidate) << 1, plus
// acceptedBit once p is classified. Marks are the only per-pixel state
// threads share while an iteration runs: a label is read only for a pixel
// accepted in an earlier iteration, and written only by the pixel's claimer.
constexpr uint32_t acceptedBit = 1;

constexpr size_t chunkPixels = 512;      // frontier pixels a thread takes at a time
constexpr size_t pixelsPerThread = 2048; // a smaller frontier is not worth waking another thread

constexpr int neighbourDx[8] = {-1, 1, 0, 0, -1, 1, -1, 1};
constexpr int neighbourDy[8] = {0, 0, -1, 1, -1, -1, 1, 1};

// A fixed team of threads that run one job together, the caller taking part
// as thread 0, so that a job for one thread runs inline with no waiting.
class WorkerTeam {
public:
    explicit WorkerTeam(int size) : size_(size)
    {
        for (int index = 1; index < size; ++index)
            threads_.emplace_back([this, index] { work(index); });
    }

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

    // Runs job(t) for t = 0 .. active-1 and returns when all have finished.
    void run(int active, const std::function<void(int)>& job)
    {
        if (active <= 1) {
            job(0);
            return;
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            active_ = active;
            pending_ = active - 1;
            ++generation_;
        }
        wake_.notify_all();
        job(0);
        std::unique_lock<std::mutex> lock(mutex_);
        finished_.wait(lock, [this] { return pending_ == 0; });
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
                if (index >= active_)
                    continue;
                job = job_;
            }
            (*job)(index);
            std::lock_guard<std::mutex> lock(mutex_);
            if (--pending_ == 0)
                finished_.notify_one();
        }
    }

    int size_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable finished_;
    const std::function<void(int)>* job_ = nullptr;
    int active_ = 0;
    int pending_ = 0;
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

struct Chunk {
    const std::vector<uint32_t>* list;
    size_t begin;
    size_t end;
};

class Growth {
public:
    Growth(const std::vector<uint16_t>& luma, int width, int height, const std::vector<Seed>& seeds,
           const GrowParams& params, GrowResult& result)
        : luma_(luma), width_(width), height_(height), params_(params), result_(result),
          regionTotal_(int(seeds.size())), threshold_(params.toleranceThreshold()),
          marks_(std::make_unique<std::atomic<uint32_t>[]>(size_t(width) * size_t(height))) // zero: never listed
    {
        seedLuma_.resize(seeds.size());
        means_.resize(seeds.size());
        grew_.assign(seeds.size(), 0);
        for (size_t k = 0; k < seeds.size(); ++k) {
            const size_t p = size_t(seeds[k].y) * size_t(width) + size_t(seeds[k].x);
            seedLuma_[k] = luma[p];
            means_[k] = result.regions[k].fixedMean();
            marks_[p].store(acceptedBit, std::memory_order_relaxed);
        }
    }

    // Visits the unclassified neighbours of frontier pixel q and decides
    // those this thread claims first.
    void expand(uint32_t q, uint32_t iteration, ThreadState& state)
    {
        const int x = int(q % uint32_t(width_));
        const int y = int(q / uint32_t(width_));
        const uint32_t listed = iteration << 1;
        for (int d = 0; d < params_.connectivity; ++d) {
            const int nx = x + neighbourDx[d];
            const int ny = y + neighbourDy[d];
            if (nx < 0 || ny < 0 || nx >= width_ || ny >= height_)
                continue;
            const size_t p = size_t(ny) * size_t(width_) + size_t(nx);
            uint32_t mark = marks_[p].load(std::memory_order_relaxed);
            if ((mark & acceptedBit) || mark == listed)
                continue;
            if (!marks_[p].compare_exchange_strong(mark, listed, std::memory_order_relaxed))
                continue; // another thread claimed it in this iteration
            const int region = decide(p, nx, ny, iteration);
            if (region == 0)
                continue;
            result_.labels[p] = uint16_t(region);
            result_.stamps[p] = iteration;
            marks_[p].store(listed | acceptedBit, std::memory_order_relaxed);
            state.nextFrontier.push_back(uint32_t(p));
            if (state.acceptedCount[region - 1]++ == 0)
                state.touchedRegions.push_back(uint32_t(region - 1));
            state.acceptedSum[region - 1] += luma_[p];
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
                result_.regions[k].count += state.acceptedCount[k];
                result_.regions[k].sum += state.acceptedSum[k];
                state.acceptedCount[k] = 0;
                state.acceptedSum[k] = 0;
            }
            state.touchedRegions.clear();
        }
        for (uint32_t k : grown_) {
            means_[k] = result_.regions[k].fixedMean();
            grew_[k] = 0;
        }
    }

private:
    bool settled(size_t q, uint32_t iteration) const
    {
        const uint32_t mark = marks_[q].load(std::memory_order_relaxed);
        return (mark & acceptedBit) && (mark >> 1) < iteration;
    }

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

    // SPEC.md steps 3 and 4: the region p joins, 0 when it stays unclassified.
    int decide(size_t p, int x, int y, uint32_t iteration) const
    {
        const uint16_t value = luma_[p];
        int eligible[8];
        int eligibleCount = 0;
        if (params_.rule == Rule::Adjacent) {
            for (int d = 0; d < params_.connectivity; ++d) {
                const int nx = x + neighbourDx[d];
                const int ny = y + neighbourDy[d];
                if (nx < 0 || ny < 0 || nx >= width_ || ny >= height_)
                    continue;
                const size_t q = size_t(ny) * size_t(width_) + size_t(nx);
                if (settled(q, iteration))
                    eligible[eligibleCount++] = result_.labels[q];
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

    const std::vector<uint16_t>& luma_;
    const int width_;
    const int height_;
    const GrowParams& params_;
    GrowResult& result_;
    const int regionTotal_;
    const uint64_t threshold_;
    std::unique_ptr<std::atomic<uint32_t>[]> marks_;
    std::vector<uint64_t> seedLuma_;
    std::vector<uint64_t> means_;      // M_k as of the end of the previous iteration
    std::vector<uint8_t> grew_;        // per region: in grown_ already
    std::vector<uint32_t> grown_;      // regions that grew in this iteration
};

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

    GrowResult result;
    result.width = width;
    result.height = height;
    result.labels.assign(size_t(pixelCount), 0);
    result.stamps.assign(size_t(pixelCount), unclassifiedStamp);
    result.regions.resize(seeds.size());
    result.device = "CPU, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    result.variant = "fast-cpu";

    // Iteration 0: each seed starts its region.
    std::vector<std::vector<uint32_t>> frontier(static_cast<size_t>(threads));
    for (size_t k = 0; k < seeds.size(); ++k) {
        const size_t p = size_t(seeds[k].y) * size_t(width) + size_t(seeds[k].x);
        result.labels[p] = uint16_t(k + 1);
        result.stamps[p] = 0;
        result.regions[k] = {1, luma[p]};
        frontier[0].push_back(uint32_t(p));
    }

    Growth growth(luma, width, height, seeds, params, result);
    std::vector<ThreadState> states(static_cast<size_t>(threads));
    for (ThreadState& state : states) {
        state.acceptedCount.assign(seeds.size(), 0);
        state.acceptedSum.assign(seeds.size(), 0);
    }
    WorkerTeam team(threads);
    std::vector<Chunk> chunks;

    const uint32_t cap = std::min<uint32_t>(params.iterationCap(pixelCount), (1u << 31) - 1);
    size_t frontierSize = seeds.size();
    for (uint32_t iteration = 1; iteration <= cap && frontierSize > 0; ++iteration) {
        chunks.clear();
        for (const std::vector<uint32_t>& list : frontier)
            for (size_t begin = 0; begin < list.size(); begin += chunkPixels)
                chunks.push_back({&list, begin, std::min(list.size(), begin + chunkPixels)});
        for (ThreadState& state : states)
            state.nextFrontier.clear();

        const int active = int(std::clamp<size_t>(frontierSize / pixelsPerThread, 1, size_t(team.size())));
        std::atomic<size_t> nextChunk{0};
        team.run(active, [&](int thread) {
            ThreadState& state = states[size_t(thread)];
            for (size_t c = nextChunk.fetch_add(1); c < chunks.size(); c = nextChunk.fetch_add(1))
                for (size_t i = chunks[c].begin; i < chunks[c].end; ++i)
                    growth.expand((*chunks[c].list)[i], iteration, state);
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
    return result;
}

} // namespace rgx
