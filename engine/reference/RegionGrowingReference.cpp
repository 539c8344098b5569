// SPEC.md's iterations, written to be read: frontier, candidates, eligible
// regions, decision with the means of the previous iteration, then update.
#include "RegionGrowingReference.h"

#include "Neighbourhood.h"

#include <algorithm>
#include <numeric>

namespace rgx {
namespace {

uint64_t distance(uint16_t luma, uint64_t mean)
{
    const uint64_t scaled = uint64_t(luma) * 256u;
    return scaled > mean ? scaled - mean : mean - scaled;
}

} // namespace

GrowResult growRegionsReference(const std::vector<uint16_t>& luma, int width, int height,
                                const std::vector<Seed>& seeds, const GrowParams& params, int depth)
{
    validateSeeds(seeds, width, height, depth);
    checkConnectivity(params.connectivity, depth);
    const size_t pixelCount = size_t(width) * size_t(height) * size_t(depth);
    const size_t slice = size_t(width) * size_t(height);
    const int regionTotal = int(seeds.size());
    const auto neighboursOf = [&](size_t p, auto visit) {
        forEachNeighbour(int(p % size_t(width)), int(p % slice / size_t(width)), int(p / slice), width, height,
                         depth, params.connectivity, visit);
    };

    GrowResult result;
    result.width = width;
    result.height = height;
    result.depth = depth;
    result.labels.assign(pixelCount, 0);
    result.stamps.assign(pixelCount, unclassifiedStamp);
    result.regions.resize(seeds.size());
    result.device = "CPU reference";
    result.variant = "reference";

    // Iteration 0: each seed starts its region.
    std::vector<size_t> frontier;
    std::vector<uint64_t> seedLuma(seeds.size());
    for (int k = 1; k <= regionTotal; ++k) {
        const size_t p = size_t(seedIndex(seeds[k - 1], width, height));
        result.labels[p] = uint16_t(k);
        result.stamps[p] = 0;
        result.regions[k - 1] = {1, luma[p]};
        seedLuma[k - 1] = luma[p];
        frontier.push_back(p);
    }

    const uint32_t cap = params.iterationCap(pixelCount);
    const uint64_t threshold = params.toleranceThreshold();
    std::vector<uint32_t> candidateOf(pixelCount, 0); // iteration that last listed the pixel

    for (uint32_t iteration = 1; iteration <= cap && !frontier.empty(); ++iteration) {
        // Candidates: unclassified neighbours of the previous frontier.
        std::vector<size_t> candidates;
        for (size_t q : frontier) {
            neighboursOf(q, [&](size_t p, int, int, int) {
                if (result.labels[p] == 0 && candidateOf[p] != iteration) {
                    candidateOf[p] = iteration;
                    candidates.push_back(p);
                }
            });
        }

        // Means as they stood at the end of the previous iteration.
        std::vector<uint64_t> means(result.regions.size());
        for (size_t k = 0; k < means.size(); ++k)
            means[k] = result.regions[k].fixedMean();

        // Decide every candidate before changing anything.
        std::vector<std::pair<size_t, int>> accepted;
        std::vector<int> eligible;
        for (size_t p : candidates) {
            eligible.clear();
            if (params.rule == Rule::All) {
                eligible.resize(size_t(regionTotal));
                std::iota(eligible.begin(), eligible.end(), 1); // already sorted
            } else {
                neighboursOf(p, [&](size_t q, int, int, int) {
                    if (result.stamps[q] <= iteration - 1)
                        eligible.push_back(result.labels[q]);
                });
            }
            if (params.rule == Rule::Adjacent)
                std::sort(eligible.begin(), eligible.end());

            int chosen = 0;
            if (params.mode == Mode::Range) {
                for (int k : eligible) {
                    const uint64_t seed = seedLuma[k - 1];
                    if (uint64_t(luma[p]) + params.lower >= seed &&
                        uint64_t(luma[p]) <= seed + params.upper) {
                        chosen = k; // the smallest, as eligible is sorted
                        break;
                    }
                }
            } else {
                uint64_t best = 0;
                for (int k : eligible) {
                    const uint64_t d = distance(luma[p], means[k - 1]);
                    if (chosen == 0 || d < best) { // strict: ties keep the smaller k
                        chosen = k;
                        best = d;
                    }
                }
                if (params.mode == Mode::Adaptive && chosen != 0 && best > threshold)
                    chosen = 0;
            }
            if (chosen != 0)
                accepted.emplace_back(p, chosen);
        }

        // Apply: labels, stamps, then the region sums.
        frontier.clear();
        for (const auto& [p, k] : accepted) {
            result.labels[p] = uint16_t(k);
            result.stamps[p] = iteration;
            result.regions[k - 1].count += 1;
            result.regions[k - 1].sum += luma[p];
            frontier.push_back(p);
        }
        if (!accepted.empty()) {
            result.iterations = iteration;
            result.stoppedAtCap = iteration == cap;
        }
    }
    return result;
}

} // namespace rgx
