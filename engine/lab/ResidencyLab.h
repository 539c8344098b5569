// The grid-barrier residency lab (issue 29, item 4): how many work-groups of
// RGX's fused kernel a device keeps resident at once, found with the
// kernel's own roll call, and what happens to a launch with more.
//
// A barrier between the work-groups of one launch (kernels/grid_barrier.h)
// deadlocks unless every work-group is resident at once: a group that waits
// at the barrier keeps its compute unit, and a group that has not started
// cannot start until one finishes (Sorensen et al., "Portable inter-workgroup
// barrier synchronisation for GPUs", OOPSLA 2016). OpenCL promises nothing
// about residency, so RGX's fused launches begin with a roll call: when not
// every group arrives within a bounded wait, the launch does nothing, says
// "not resident", and the fused driver goes on with one launch per level.
#pragma once

#include "RunControl.h"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;

// One launch of the fused kernel that only takes the roll call.
struct ResidencyProbe {
    size_t groups = 0;        // work-groups launched
    bool resident = false;    // the roll call's verdict: every group arrived (go), or not resident
    double milliseconds = 0;  // the launch, from its profiling events
};

// A small fused region-growing run (a serpentine corridor: one level per
// corridor pixel), as RGX launches it or with more groups than resident: the
// median of three (one where a run takes seconds).
struct ResidencyRun {
    size_t groups = 0;             // work-groups of its fused launches
    uint32_t levels = 0;           // iterations the region grew
    size_t launches = 0;           // region-growing kernel launches
    bool fellBack = false;         // the roll call failed: one launch per level
    double growMilliseconds = 0;   // first region-growing launch queued to the last one's end
    double hostMilliseconds = 0;   // the whole run on the host (GrowResult::hostMilliseconds)
    double firstLaunchMilliseconds = 0; // the first grow_levels launch (a failed roll call's wait)
    bool exact = false;            // labels and stamps equal the CPU reference
    std::string note;              // the run's own note (the fallback says so)
};

struct ResidencyResult {
    std::string device;
    std::string deviceType;        // "CPU", "GPU"
    uint32_t computeUnits = 0;
    // The fused kernel: grow_levels of region_growing.cl as fusion=grid-barrier
    // (queue frontier, atomics) builds it on this device.
    std::string kernel = "grow_levels";
    std::string program = "region_growing.cl";
    std::string variant;
    std::string options;           // RGX's build options for it
    std::string probeOptions;      // the search's: the same, or with a shorter roll-call wait (GPUs)
    size_t workGroupSize = 0;
    uint64_t localMemoryBytes = 0; // per work-group, as the runtime reports it
    int registers = -1;            // NVIDIA only; -1 where unknown

    // The search: doubling from one group, then bisection.
    std::vector<ResidencyProbe> probes;
    size_t residentGroups = 0;     // the largest count whose roll call passed
    size_t firstNotResident = 0;   // the smallest count whose roll call failed; 0: none failed
    bool searchComplete = false;   // false: residentGroups is a lower bound (searchNote says why)
    std::string searchNote;
    size_t searchCap = 0;
    double searchSeconds = 0;

    size_t fusedGroups = 0;        // fusedGroupCount(): what RGX's fused launches use

    // RGX's own program launched with more groups than resident (groups 0:
    // none was, searchNote says why).
    ResidencyProbe over;

    // What RGX does then: the same small run with RGX's own group count and
    // with more groups than resident (forced; fellBack says what happened).
    std::string runImage;          // what the runs grew, in words
    ResidencyRun fused;
    ResidencyRun forced;
    bool runsDone = false;
};

struct ResidencyOptions {
    double searchSeconds = 60;     // the search stops after this with a lower bound
    int tries = 2;                 // a count counts as not resident after this many failed roll calls
    size_t cap = 0;                // the largest count tried; 0: 64 per compute unit, at least 256
    bool runs = true;              // the two region-growing runs (the fallback's cost)
    int corridorSize = 64;         // their image: corridorSize x corridorSize
};

// Throws OpenClError (build, launch), RunInterrupted (cancel).
ResidencyResult runResidencyLab(ComputeDevice& device, const ResidencyOptions& options = {},
                                const RunControl& control = {});

// The rule in two sentences, for the CLI and the GUI.
std::string residencyRule();

} // namespace rgx
