// The seed lessons' steps and texts, and the choice of a device that shows
// each lesson. Facts in the texts come from docs/VARIANTS.md and docs/STAGES.md.
#include "LessonTours.h"

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

const QString sweepAsync = QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async");
const QString sweepNoBarrier = QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier");
const QString queueWith = QStringLiteral("driver=host-batched,frontier=queue,collectives=");

Lesson asyncCopies()
{
    Lesson lesson;
    lesson.id = QStringLiteral("async-copies");
    lesson.title = QStringLiteral("Missing Barrier between Async Copies");
    lesson.sample = QStringLiteral("coins");
    lesson.device = LessonDevice::SerialWorkItems;
    lesson.feature = QStringLiteral("work-items run one after another between barriers, and async copies done by "
                                    "work-item 0 alone (PoCL), so the missing barrier corrupts pixels");
    lesson.withoutIt = QStringLiteral("the reads usually finish before the copy here (0 pixels differed on Intel's "
                                      "runtime and the H100, docs/VARIANTS.md): the corruption view may show nothing, "
                                      "while the race check (Oclgrind) finds the race on every device");

    LessonStep correct;
    correct.heading = QStringLiteral("The correct kernel");
    correct.text = QStringLiteral(
        "<p>The sweep frontier's <code>grow_sweep</code> copies each tile of the last iteration, with a one-pixel "
        "halo, into local memory with <code>async_work_group_copy</code>: the stamps first, then the labels "
        "<b>into the same buffer</b>.</p><p>A barrier between the two copies waits until every work-item has read "
        "its neighbours' stamps. With it the run equals the CPU reference: the Playback panel says "
        "<b>0 pixels differ</b>, and the chart's magenta line stays at 0.</p>");
    correct.variant = sweepAsync;
    correct.prefilter = QStringLiteral("none");
    correct.postfilter = QStringLiteral("none");
    correct.corruptionView = true;
    correct.workGroupMap = false;
    correct.clearRaceMarkers = true;
    correct.run = true;
    correct.panel = LessonPanel::PerIterationChart;

    LessonStep broken;
    broken.heading = QStringLiteral("Remove one barrier");
    broken.text = QStringLiteral(
        "<p><code>tile=async-nobarrier</code> is the same kernel with that one barrier emptied "
        "(<code>RGX_TILE_BARRIER</code>). The labels now overwrite stamps that other work-items have not read "
        "yet.</p><p>The chart's magenta line counts the pixels that differ from the reference at each iteration, "
        "and its marker names the <b>first differing iteration</b>; playback stands on it: the few magenta pixels "
        "are where the damage starts. Press Play (Ctrl+Space) to watch it spread.</p>");
    broken.variant = sweepNoBarrier;
    broken.run = true;
    broken.frame = LessonFrame::FirstDifference;
    broken.panel = LessonPanel::PerIterationChart;

    LessonStep where;
    where.heading = QStringLiteral("Where: the work-group map");
    where.text = QStringLiteral(
        "<p>View &gt; Work-group Map draws the tiles the engine launched, one work-group each. Playback stands "
        "at iteration 40: the magenta damage runs <b>along the tile rows</b>, the pixels whose neighbours were "
        "read from the halo after work-item 0 had copied the labels over it. By the last iteration it has "
        "spread almost everywhere.</p><p>Move the cursor over the image: the status bar names the pixel's "
        "tile, and the pixels its work-group reads are dashed in orange.</p>");
    where.workGroupMap = true;
    where.frame = LessonFrame::Iteration;
    where.frameIteration = 40;
    where.panel = LessonPanel::RacesDock;

    LessonStep why;
    why.heading = QStringLiteral("Why: the race");
    why.text = QStringLiteral(
        "<p>Run &gt; Check for Races runs the same variant under Oclgrind on a 32 x 32 part around the first seed "
        "(this takes up to a minute). Each race it reports is listed with its kernel, source line and the two "
        "work-items, and marked on every pixel its memory maps to: a <b>read-write data race in local memory</b> "
        "in <code>grow_sweep</code>, on the tile rows at the halo.</p><p>Select an entry in the list: the view "
        "centres on its marker.</p>");
    why.checkRaces = true;
    why.frame = LessonFrame::Iteration;
    why.frameIteration = 40;
    why.panel = LessonPanel::RacesDock;

    LessonStep filter;
    filter.heading = QStringLiteral("The same bug in a filter");
    filter.text = QStringLiteral(
        "<p>The box-mean prefilter makes the same mistake in another shape: <code>box_mean_async</code> copies "
        "the top corner row of its windows into one local buffer, reads it, then copies the bottom row over "
        "it; <code>boxmean:5:async-nobarrier</code> drops the barrier between.</p><p>The work-group map now "
        "shows its row segments: on PoCL every pixel of a segment but the first reads the bottom row twice, so "
        "the regions grow on a wrong image (region growing itself is correct here).</p>");
    filter.variant = sweepAsync;
    filter.prefilter = QStringLiteral("boxmean:5:async-nobarrier");
    filter.clearRaceMarkers = true;
    filter.run = true;
    filter.panel = LessonPanel::RacesDock;

    lesson.steps = {correct, broken, where, why, filter};
    return lesson;
}

Lesson collectives()
{
    Lesson lesson;
    lesson.id = QStringLiteral("collectives");
    lesson.title = QStringLiteral("Work-group Collectives against Atomics");
    lesson.sample = QStringLiteral("astronaut");
    lesson.device = LessonDevice::Collectives;
    lesson.feature = QStringLiteral("work-group collective functions (OpenCL C 2.0)");
    lesson.withoutIt = QStringLiteral("the built-in step cannot run here and says why; atomics and local memory "
                                      "compare on any device");

    LessonStep atomics;
    atomics.heading = QStringLiteral("One atomic per work-item");
    atomics.text = QStringLiteral(
        "<p>The queue frontier appends every accepted pixel to the next frontier and adds its luma to its "
        "region's sum. <code>collectives=atomics</code> does both with <b>one global atomic per work-item</b>: "
        "every work-item of every group updates the same few counters.</p><p>The per-kernel chart shows where "
        "the time of this run went.</p>");
    atomics.variant = queueWith + QStringLiteral("atomics");
    atomics.prefilter = QStringLiteral("none");
    atomics.postfilter = QStringLiteral("none");
    atomics.corruptionView = false;
    atomics.run = true;
    atomics.panel = LessonPanel::PerKernelChart;

    LessonStep local;
    local.heading = QStringLiteral("One atomic per work-group");
    local.text = QStringLiteral(
        "<p>The first run is kept for comparison (Run &gt; Keep Run). <code>collectives=local</code> scans and "
        "reduces the items' counts in local memory, with a barrier between the steps, and then <b>one "
        "work-item per group</b> adds the group's total with one atomic.</p><p>The per-kernel chart sets the "
        "two runs side by side; the summary under it says which was faster.</p>");
    local.keepRunFirst = true;
    local.variant = queueWith + QStringLiteral("local");
    local.run = true;
    local.panel = LessonPanel::PerKernelChart;

    LessonStep builtin;
    builtin.heading = QStringLiteral("The built-in functions");
    builtin.text = QStringLiteral(
        "<p><code>collectives=builtin</code> does the same with <code>work_group_reduce_add</code>, "
        "<code>work_group_scan_exclusive_add</code> and <code>work_group_broadcast</code> (OpenCL C 2.0): one "
        "call each, the runtime chooses how.</p><p>Two runs are kept now; the chart compares all three.</p>");
    builtin.keepRunFirst = true;
    builtin.variant = queueWith + QStringLiteral("builtin");
    builtin.run = true;
    builtin.panel = LessonPanel::PerKernelChart;

    LessonStep broken;
    broken.heading = QStringLiteral("What the barriers protect");
    broken.text = QStringLiteral(
        "<p><code>collectives=local-nobarrier</code> is the local scan with its barriers emptied: work-items read "
        "slots the others have not written yet. Frontier offsets go wrong (pixels lost or written twice) and so "
        "do the region sums.</p><p>The corruption view lights every pixel that differs from the CPU reference "
        "in magenta; the Playback panel counts them.</p>");
    broken.variant = queueWith + QStringLiteral("local-nobarrier");
    broken.corruptionView = true;
    broken.run = true;
    broken.frame = LessonFrame::FirstDifference;
    broken.panel = LessonPanel::PerIterationChart;

    lesson.steps = {atomics, local, builtin, broken};
    return lesson;
}

Lesson deviceEnqueue()
{
    Lesson lesson;
    lesson.id = QStringLiteral("device-enqueue");
    lesson.title = QStringLiteral("Device-side Enqueue against Host Loops");
    lesson.sample = QStringLiteral("astronaut");
    lesson.device = LessonDevice::DeviceEnqueue;
    lesson.feature = QStringLiteral("device-side enqueue (OpenCL C 2.0; Intel's CPU runtime has it)");
    lesson.withoutIt = QStringLiteral("the device-enqueue steps cannot run here and say why; the two host-driven "
                                      "loops compare on any device");

    LessonStep sync;
    sync.heading = QStringLiteral("The host waits after every iteration");
    sync.text = QStringLiteral(
        "<p><code>driver=host-sync</code>: one launch per iteration, and the host reads the new frontier's size "
        "after each to decide whether to go on (OpenCL 1.2).</p><p>The timeline shows every launch as a bar; the "
        "<b>gaps between the bars</b> are the device waiting for the host.</p>");
    sync.variant = QStringLiteral("driver=host-sync,frontier=queue,collectives=atomics");
    sync.prefilter = QStringLiteral("none");
    sync.postfilter = QStringLiteral("none");
    sync.corruptionView = false;
    sync.run = true;
    sync.panel = LessonPanel::TimelineChart;

    LessonStep batched;
    batched.heading = QStringLiteral("Many iterations per read");
    batched.text = QStringLiteral(
        "<p>The first run is kept. <code>driver=host-batched</code> enqueues many iterations without reading "
        "back: the kernels stop themselves once the frontier is empty, and the host reads once per batch.</p>"
        "<p>The timeline compares the two runs: the gaps close.</p>");
    batched.keepRunFirst = true;
    batched.variant = QStringLiteral("driver=host-batched,frontier=queue,collectives=atomics");
    batched.run = true;
    batched.panel = LessonPanel::TimelineChart;

    LessonStep enqueue;
    enqueue.heading = QStringLiteral("The kernels enqueue themselves");
    enqueue.text = QStringLiteral(
        "<p><code>driver=device-enqueue</code>: the host launches a chain; after each iteration a one-work-item "
        "step reads the accepted count and <b>enqueues the next iteration</b> with <code>enqueue_kernel</code> "
        "on the device's own queue. Chains are 32 iterations at first, then longer.</p><p>Host profiling sees "
        "each chain as one record: the timeline has a few long bars instead of one per iteration.</p>");
    enqueue.keepRunFirst = true;
    enqueue.variant = QStringLiteral("driver=device-enqueue,frontier=queue,collectives=atomics");
    enqueue.run = true;
    enqueue.panel = LessonPanel::TimelineChart;

    LessonStep lab;
    lab.heading = QStringLiteral("The same in a small lab");
    lab.text = QStringLiteral(
        "<p>The Labs dock's binary search runs many rounds of a small kernel, each round's launch decided by "
        "the last: the same choice between the host's loop and the device's own enqueue, on a problem with "
        "nothing else in it.</p><p>The lab's timeline shows each round's launches and the result line its "
        "time, checked against <code>std::lower_bound</code>.</p>");
    lab.panel = LessonPanel::BinarySearchLab;
    lab.labDriver = QStringLiteral("device-enqueue");

    lesson.steps = {sync, batched, enqueue, lab};
    return lesson;
}

Lesson vload8()
{
    Lesson lesson;
    lesson.id = QStringLiteral("vload8");
    lesson.title = QStringLiteral("vload8 and Register Pressure");
    lesson.sample = QStringLiteral("coins");
    lesson.device = LessonDevice::RegisterReports;
    lesson.feature = QStringLiteral("registers and spills per kernel (NVIDIA's compiler, -cl-nv-verbose)");
    lesson.withoutIt = QStringLiteral("its compiler does not report registers: the Kernels tab shows \u2013 in "
                                      "those columns and the private memory per work-item beside them; the "
                                      "times compare on any device");
    const QString variant = queueWith + QStringLiteral("atomics");

    LessonStep expression;
    expression.heading = QStringLiteral("Eight pixels per load");
    expression.text = QStringLiteral(
        "<p>The density postfilter counts each window's pixels of its region as A4 + A1 \u2212 A2 \u2212 A3 from "
        "an integral image. <code>vload8-expr</code> loads eight counts from each corner in one expression: "
        "<b>four 8-wide vectors alive at once</b>.</p><p>The Timings dock's Kernels tab lists every kernel of "
        "the run with its work-group limit, private and local memory, registers and spills; the density "
        "program holds all three variants' kernels, <code>density_vload8_expr</code>, "
        "<code>density_vload8_serial</code> and <code>density_scalar</code>, so they stand side by side.</p>");
    expression.variant = variant;
    expression.prefilter = QStringLiteral("none");
    expression.postfilter = QStringLiteral("density:5:10:vload8-expr");
    expression.corruptionView = false;
    expression.run = true;
    expression.panel = LessonPanel::KernelTable;

    LessonStep serial;
    serial.heading = QStringLiteral("Serialised loads");
    serial.text = QStringLiteral(
        "<p>The first run is kept. <code>vload8-serial</code> serialises the same four loads with the comma "
        "operator into one accumulator, so that <b>fewer vectors are alive at once</b>: fewer registers, and on "
        "a GPU short of them, fewer spills to memory.</p><p>The Kernels tab now lists the density kernels "
        "of both runs: on NVIDIA compare the Registers and Spill columns of <code>density_vload8_expr</code> "
        "and <code>density_vload8_serial</code>.</p>");
    serial.keepRunFirst = true;
    serial.postfilter = QStringLiteral("density:5:10:vload8-serial");
    serial.run = true;
    serial.panel = LessonPanel::KernelTable;

    LessonStep scalar;
    scalar.heading = QStringLiteral("One pixel per work-item");
    scalar.text = QStringLiteral(
        "<p>Kept again. <code>scalar</code>: one pixel per work-item, four scalar loads, the least register "
        "use and eight times the work-items.</p><p>The per-kernel chart compares the three runs' postfilter "
        "kernels (<code>integral_rows</code>, <code>integral_columns</code> and the count kernel, once per "
        "region).</p>");
    scalar.keepRunFirst = true;
    scalar.postfilter = QStringLiteral("density:5:10:scalar");
    scalar.run = true;
    scalar.panel = LessonPanel::PerKernelChart;

    lesson.steps = {expression, serial, scalar};
    return lesson;
}

Lesson residency()
{
    Lesson lesson;
    lesson.id = QStringLiteral("residency");
    lesson.title = QStringLiteral("Grid Barrier Residency");
    lesson.sample = QStringLiteral("coins");
    lesson.device = LessonDevice::Any;

    LessonStep perLaunch;
    perLaunch.heading = QStringLiteral("One launch per iteration");
    perLaunch.text = QStringLiteral(
        "<p><code>driver=host-batched</code> launches <code>grow_queue</code> once per iteration: each launch "
        "ends only when all its work-groups have, which is the barrier between iterations.</p><p>The timeline "
        "shows one bar per iteration.</p>");
    perLaunch.variant = queueWith + QStringLiteral("local");
    perLaunch.prefilter = QStringLiteral("none");
    perLaunch.postfilter = QStringLiteral("none");
    perLaunch.corruptionView = false;
    perLaunch.run = true;
    perLaunch.panel = LessonPanel::TimelineChart;

    LessonStep fused;
    fused.heading = QStringLiteral("Many iterations in one launch");
    fused.text = QStringLiteral(
        "<p>The first run is kept. <code>fusion=grid-barrier</code> runs the iterations inside one launch of "
        "<code>grow_levels</code>: between iterations the work-groups meet at a <b>grid barrier</b> of global "
        "atomics. Each group counts in, then waits until all have.</p><p>The timeline compares the two: a few "
        "launches instead of one per iteration.</p>");
    fused.keepRunFirst = true;
    fused.variant = queueWith + QStringLiteral("local,fusion=grid-barrier");
    fused.run = true;
    fused.panel = LessonPanel::TimelineChart;

    LessonStep lab;
    lab.heading = QStringLiteral("The residency rule");
    lab.text = QStringLiteral(
        "<p>A group that waits at a grid barrier holds its compute unit: a group that never became resident "
        "never arrives, and the others wait for ever (Sorensen et al., OOPSLA 2016). OpenCL cannot say how many "
        "are resident, so RGX's kernel first takes a <b>roll call</b>, and falls back to one launch per level "
        "when it fails.</p><p>The Labs dock's residency tab finds the count on this device, launches one group "
        "more (\u201cnot resident\u201d, never a hang) and measures what the fallback costs.</p>");
    lab.panel = LessonPanel::ResidencyLab;

    lesson.steps = {perLaunch, fused, lab};
    return lesson;
}

QString deviceName(const DeviceInfo& device)
{
    return QStringLiteral("%1 (%2)").arg(text(device.name).simplified(), text(device.platformName));
}

} // namespace

const std::vector<Lesson>& seedLessons()
{
    static const std::vector<Lesson> lessons = {asyncCopies(), collectives(), deviceEnqueue(), vload8(), residency()};
    return lessons;
}

const Lesson* findLesson(const QString& id)
{
    for (const Lesson& lesson : seedLessons())
        if (lesson.id == id)
            return &lesson;
    return nullptr;
}

bool deviceServes(LessonDevice need, const DeviceInfo& device)
{
    switch (need) {
    case LessonDevice::Any: return true;
    case LessonDevice::SerialWorkItems: return device.isPocl();
    case LessonDevice::Collectives: return device.workGroupCollectives;
    case LessonDevice::DeviceEnqueue: return device.deviceEnqueue;
    case LessonDevice::RegisterReports: return device.isNvidia();
    }
    return false;
}

LessonDeviceChoice chooseLessonDevice(const Lesson& lesson, const std::vector<DeviceInfo>& devices,
                                      const std::string& currentId)
{
    const DeviceInfo* current = nullptr;
    for (const DeviceInfo& device : devices)
        if (device.id() == currentId)
            current = &device;
    LessonDeviceChoice choice;
    choice.deviceId = currentId;
    if (lesson.device == LessonDevice::Any) {
        if (current)
            choice.note = QStringLiteral("Runs on %1, the device chosen.").arg(deviceName(*current));
        return choice;
    }
    if (current && deviceServes(lesson.device, *current)) {
        choice.note = QStringLiteral("Runs on %1: it has %2.").arg(deviceName(*current), lesson.feature);
        return choice;
    }
    for (const DeviceInfo& device : devices) {
        if (!deviceServes(lesson.device, device))
            continue;
        choice.deviceId = device.id();
        choice.note = QStringLiteral("Switched to %1: it has %2%3.")
                          .arg(deviceName(device), lesson.feature,
                               current ? QStringLiteral(", %1 has not").arg(deviceName(*current)) : QString());
        return choice;
    }
    choice.hasFeature = false;
    choice.note = QStringLiteral("No device here has %1. On %2 %3.")
                      .arg(lesson.feature, current ? deviceName(*current) : QStringLiteral("this device"),
                           lesson.withoutIt);
    return choice;
}

} // namespace rgx::ui
