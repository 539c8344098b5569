// The level drivers' common ground: program, first upload, grow kernel,
// and the bookkeeping after each read of the counters.
#include "LevelSteps.h"
#include "Device.h"
#include "Run.h"
#include "stages/StageSupport.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>

namespace rgx::grow {
namespace {

// Level statistics: three rotating slots of (count, sum low, sum high).
constexpr uint32_t statsWords = 3;

} // namespace

LevelSteps::LevelSteps(Run& run) : run_(run), variant_(levelVariant(run.variant))
{
    GrowState& state = run.state;
    cl::CommandQueue& queue = run.queue;
    const size_t regionTotal = run.seeds.size();
    geometry_.volume = state.isVolume();
    built_ = &levelKernels(state.device(), variant_, geometry_);
    kernelName_ = variant_.frontier == Frontier::Queue ? "grow_queue" : "grow_sweep";
    run.result.kernels.insert(run.result.kernels.end(), built_->kernels.begin(), built_->kernels.end());

    // Iteration 0's statistics enter as the deltas of slot 0 (totals of
    // "iteration -1", slot 2, are zero): see kernels/region_growing.cl.
    run.totals.assign(3 * statsWords * regionTotal, 0);
    run.deltas.assign(3 * statsWords * regionTotal, 0);
    for (size_t k = 0; k < regionTotal; ++k) {
        run.deltas[statsWords * k] = 1;
        run.deltas[statsWords * k + 1] = run.seedLuma[k];
    }
    queue.enqueueWriteBuffer(state.totals, CL_FALSE, 0, run.totals.size() * 4, run.totals.data(), nullptr,
                             run.timings.track("upload", "write:totals"));
    queue.enqueueWriteBuffer(state.deltas, CL_FALSE, 0, run.deltas.size() * 4, run.deltas.data(), nullptr,
                             run.timings.track("upload", "write:deltas"));
    // The queue frontier's first list is the seeds themselves.
    if (variant_.frontier == Frontier::Queue)
        queue.enqueueWriteBuffer(state.frontier[0], CL_FALSE, 0, regionTotal * 4, run.seedPixels.data(), nullptr,
                                 run.timings.track("upload", "write:frontier"));

    grow_ = cl::Kernel(built_->program, kernelName_.c_str());
    grow_.setArg(0, cl_uint(0));
    grow_.setArg(1, cl_int(state.width()));
    grow_.setArg(2, cl_int(state.height()));
    int arg = 3;
    if (variant_.frontier == Frontier::Queue) {
        arg += 2; // frontier, next_frontier: per iteration
        grow_.setArg(arg++, state.luma);
        grow_.setArg(arg++, state.labels[0]);
        grow_.setArg(arg++, state.stamps[0]);
    } else {
        arg += 4; // stamps_in, labels_in, stamps_out, labels_out: per iteration
        grow_.setArg(arg++, state.luma);
    }
    setDecisionArguments(grow_, arg);

    // Launch sizes. The queue kernel loops over the frontier, so its global
    // size only needs to cover the device (batched) or the known frontier
    // (host-sync); the sweep covers the image in tiles.
    const size_t groupsForImage = (state.pixelCount() + geometry_.workGroup - 1) / geometry_.workGroup;
    batchedGroups_ = std::min(groupsToFill(run.info), groupsForImage);
    sweepLocal_ = cl::NDRange(geometry_.tileWidth, geometry_.tileHeight);
    sweepGlobal_ = cl::NDRange(stage::roundUp(size_t(state.width()), geometry_.tileWidth),
                               stage::roundUp(size_t(state.height()), geometry_.tileHeight));
}

void LevelSteps::setDecisionArguments(cl::Kernel& kernel, int first) const
{
    GrowState& state = run_.state;
    const GrowParams& params = run_.params;
    kernel.setArg(first++, state.seedLuma);
    kernel.setArg(first++, cl_uint(run_.seeds.size()));
    kernel.setArg(first++, state.totals);
    kernel.setArg(first++, state.deltas);
    kernel.setArg(first++, state.counters);
    kernel.setArg(first++, cl_ulong(params.toleranceThreshold()));
    kernel.setArg(first++, cl_uint(params.lower));
    kernel.setArg(first++, cl_uint(params.upper));
    kernel.setArg(first++, cl_uint(params.mode));
    kernel.setArg(first++, cl_uint(params.rule == Rule::All ? 1 : 0));
    kernel.setArg(first++, cl_int(params.connectivity));
    kernel.setArg(first++, cl_int(state.sliceHeight()));
}

size_t LevelSteps::groupsForFrontier(uint64_t frontierSize) const
{
    return std::max<size_t>(1, std::min<size_t>((frontierSize + geometry_.workGroup - 1) / geometry_.workGroup, 65535));
}

void LevelSteps::enqueue(uint32_t iteration, size_t queueGroups)
{
    GrowState& state = run_.state;
    grow_.setArg(0, cl_uint(iteration));
    const int in = int((iteration - 1) & 1);
    const int out = int(iteration & 1);
    if (variant_.frontier == Frontier::Queue) {
        grow_.setArg(3, state.frontier[in]);
        grow_.setArg(4, state.frontier[out]);
        run_.queue.enqueueNDRangeKernel(grow_, cl::NullRange, cl::NDRange(queueGroups * geometry_.workGroup),
                                        cl::NDRange(geometry_.workGroup), nullptr,
                                        run_.timings.track("grow", kernelName_, int(iteration)));
    } else {
        grow_.setArg(3, state.stamps[in]);
        grow_.setArg(4, state.labels[in]);
        grow_.setArg(5, state.stamps[out]);
        grow_.setArg(6, state.labels[out]);
        run_.queue.enqueueNDRangeKernel(grow_, cl::NullRange, sweepGlobal_, sweepLocal_, nullptr,
                                        run_.timings.track("grow", kernelName_, int(iteration)));
    }
}

bool LevelSteps::goingOn() const { return !finished_ && last_ < run_.cap; }

uint32_t LevelSteps::accepted(uint32_t iteration) const { return run_.counters[RGX_COUNTER_ACCEPTED + iteration % 3]; }

void LevelSteps::settle(uint32_t last)
{
    last_ = last;
    finished_ = accepted(last) == 0;
}

void LevelSteps::reached(uint32_t last)
{
    settle(last);
    run_.progress(last, accepted(last));
    if (!finished_)
        run_.offerPartial(finalSet(), last, false);
}

int LevelSteps::finalSet() const { return variant_.frontier == Frontier::Queue ? 0 : int(last_ & 1); }

} // namespace rgx::grow
