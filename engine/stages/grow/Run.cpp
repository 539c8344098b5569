// What every driver does with a run between its launches: the counters
// read back, the fused launch's verdict, cancel and the time limit,
// progress and partial pictures.
#include "Run.h"
#include "Device.h"
#include "Errors.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <sstream>

namespace rgx::grow {

Deadline::Deadline(const RunControl& control) : control_(control), start_(std::chrono::steady_clock::now()) {}

void Deadline::check(uint32_t step, const std::string& what) const
{
    const std::string steps = std::to_string(step) + " " + (step == 1 ? what.substr(0, what.size() - 1) : what);
    if (control_.cancel && control_.cancel->load())
        throw RunInterrupted("cancelled after " + steps);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (control_.timeoutSeconds > 0 && elapsed > control_.timeoutSeconds) {
        std::ostringstream message;
        message << "stopped after " << steps << ": the run exceeded its " << control_.timeoutSeconds
                << " s time limit";
        throw RunInterrupted(message.str());
    }
}

size_t groupsToFill(const DeviceInfo& info)
{
    return std::max<size_t>(1, size_t(info.computeUnits) * (info.type == "GPU" ? 4 : 2));
}

Run::Run(GrowState& state, const std::vector<Seed>& seeds, const GrowParams& params, const GrowVariant& variant,
         const RunControl& control, TimingLog& timings)
    : state(state), seeds(seeds), params(params), variant(variant), control(control), timings(timings),
      info(state.device().info()), queue(state.device().queue()), cap(params.iterationCap(state.pixelCount())),
      deadline(control), counters(RGX_COUNTER_WORDS, 0)
{
}

void Run::readCounters(int step)
{
    uint32_t* words = state.readBackWords();
    queue.enqueueReadBuffer(state.counters, CL_TRUE, 0, RGX_COUNTER_WORDS * 4, words, nullptr,
                            timings.track("grow", "read:counters", step));
    std::copy(words, words + RGX_COUNTER_WORDS, counters.begin());
}

uint32_t Run::verdict() const
{
    if (counters[RGX_COUNTER_GRID + RGX_GRID_RELEASED] == RGX_BARRIER_STALLED)
        return RGX_VERDICT_STALLED;
    return counters[RGX_COUNTER_GRID + RGX_GRID_VERDICT];
}

uint32_t Run::noteFusedRounds(size_t record, uint32_t round, const std::string& unit, size_t groups)
{
    const uint32_t outcome = verdict();
    const uint32_t last = counters[RGX_COUNTER_LAST_LAUNCHED];
    auto rounds = [&](const std::string& how) {
        return last >= round ? unit + " rounds " + std::to_string(round) + " to " + std::to_string(last) +
                                   " in one launch" + how
                             : "no " + unit + " round" + how;
    };
    const std::string goesOn = ", so the run went on with one round of " + unit + "s per launch";
    if (outcome == RGX_VERDICT_NOT_RESIDENT) {
        timings.coverIterations(record, -1, "no " + unit + " round: not all work-groups ran at once (the roll call)");
        addNote("fusion=tiles: not all " + std::to_string(groups) + " work-groups ran at once on " + info.name + goesOn);
    } else if (outcome == RGX_VERDICT_STALLED) {
        // Every group stopped at the same barrier, after the same round.
        timings.coverIterations(record, -1, rounds(", then the work-groups stopped meeting at the grid barrier"));
        addNote("fusion=tiles: the work-groups stopped meeting at the grid barrier on " + info.name + goesOn);
    } else {
        timings.coverIterations(record, -1, rounds(", a grid barrier between them"));
    }
    return outcome;
}

void Run::addNote(const std::string& text)
{
    result.note += (result.note.empty() ? "" : "; ") + text;
}

void Run::launchEachRound(cl::Kernel& kernel, const char* name, size_t groups, size_t groupSize, uint32_t round,
                          uint32_t upTo, const std::string& unit)
{
    const size_t firstRecord = timings.size();
    for (uint32_t r = round; r <= upTo; ++r) {
        kernel.setArg(0, cl_uint(r));
        kernel.setArg(1, cl_uint(r));
        queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * groupSize), cl::NDRange(groupSize),
                                   nullptr, timings.track("grow", name));
        timings.coverIterations(timings.size() - 1, -1, unit + " round " + std::to_string(r));
    }
    readCounters(-1); // a round is no iteration
    const uint32_t last = counters[RGX_COUNTER_LAST_LAUNCHED];
    for (uint32_t r = std::max(round, last + 1); r <= upTo; ++r)
        timings.coverIterations(firstRecord + (r - round), -1,
                                unit + " round " + std::to_string(r) +
                                    ": nothing queued (launched in a batch before the run's end was known)");
}

void Run::clearGridBarrier(int step)
{
    if (gridBarrierClear) {
        gridBarrierClear = false;
        return;
    }
    queue.enqueueFillBuffer(state.counters, cl_uint(0), RGX_COUNTER_GRID * 4, 3 * 4, nullptr,
                            timings.track("grow", "fill:grid_barrier", step));
}

void Run::progress(uint32_t step, uint64_t size) const
{
    if (control.progress)
        control.progress(step, size);
}

// The picture's commands are not the run's: they go to a log of their own,
// so that the run's timings stay what the run did.
void Run::offerPartial(int set, uint32_t iteration, bool tiles)
{
    if (!control.partial || !control.partialWanted || !control.partialWanted())
        return;
    PixelBox box = state.whole();
    if (tiles)
        box = {counters[RGX_COUNTER_TOUCHED + 0],   counters[RGX_COUNTER_TOUCHED + 1],
               counters[RGX_COUNTER_TOUCHED + 2],   counters[RGX_COUNTER_TOUCHED + 3],
               counters[RGX_COUNTER_TOUCHED_Z + 0], counters[RGX_COUNTER_TOUCHED_Z + 1]};
    // On the caller's sample grid: the box starts at a multiple of the step.
    const uint32_t step = uint32_t(std::max(control.partialStep, 1));
    if (!box.empty()) {
        box.x0 -= box.x0 % step;
        box.y0 -= box.y0 % step;
    }
    TimingLog ownLog;
    control.partial(
        state.readBox(set, box, seeds.size(), iteration == unclassifiedStamp ? cap : iteration, ownLog, int(step)),
        iteration);
}

} // namespace rgx::grow
