// Collects the profiling event of every command a stage enqueues and turns
// them into TimingRecords once the queue has finished.
#pragma once

#include "OpenCl.h"
#include "Timing.h"
#include <string>
#include <deque>
#include <vector>

namespace rgx {

class TimingLog {
public:
    // The event to pass to an enqueue call; it is recorded under these names.
    // withChildren: the command enqueues kernels on the device; its end is
    // when they all completed (CL_PROFILING_COMMAND_COMPLETE).
    cl::Event* track(const std::string& stage, const std::string& kernel, int iteration = -1,
                     bool withChildren = false);
    // How many commands are tracked; for the one tracked as number `index`,
    // a launch of several iterations, the last of them (known only
    // afterwards) and a note.
    size_t size() const { return entries_.size(); }
    void coverIterations(size_t index, int lastIteration, const std::string& note);
    // Reads the profiling counters of every tracked event (call after finish()).
    std::vector<TimingRecord> records() const;

private:
    struct Entry {
        std::string stage;
        std::string kernel;
        int iteration;
        bool withChildren;
        cl::Event event;
        int lastIteration;
        std::string note;
    };
    std::deque<Entry> entries_; // deque: tracked events never move
};

} // namespace rgx
