// The read-back tail of the filter stages (StageSupport.h).
#include "StageSupport.h"
#include "TimingLog.h"

namespace rgx::stage {

void readBackAndWait(cl::CommandQueue& queue, TimingLog& timings, std::initializer_list<ReadBack> outputs)
{
    for (const ReadBack& output : outputs)
        queue.enqueueReadBuffer(output.buffer, CL_FALSE, 0, output.bytes, output.host, nullptr,
                                timings.track("download", output.name));
    queue.finish();
}

} // namespace rgx::stage
