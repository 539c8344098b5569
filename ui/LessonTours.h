// The seed lessons of the explorer as data (issue 29, item 5): for each, the
// sample it opens, the device it wants, and a few steps, each with the
// variant or filter it runs, the runs it keeps for comparison, the layers and
// panels it turns on, and a short text on what the screen then shows.
// LessonTour (LessonTour.h) plays them through the window's public paths.
#pragma once

#include "Device.h"
#include <QString>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rgx::ui {

// What a lesson needs the device to have for its point to show.
enum class LessonDevice {
    Any,
    SerialWorkItems,     // PoCL: a group's items one after another, copies by item 0: a missing barrier shows
    Collectives,         // OpenCL C 2.0 work-group collective functions
    DeviceEnqueue,       // OpenCL C 2.0 device-side enqueue
    RegisterReports,     // NVIDIA: registers and spills from -cl-nv-verbose
};

// The panel a step brings to the front.
enum class LessonPanel {
    None,
    PerIterationChart,
    PerKernelChart,
    TimelineChart,
    KernelTable,          // the Timings dock's "Kernels" tab
    RacesDock,            // "Work-groups and races"
    BinarySearchLab,      // run with the step's labDriver
    ResidencyLab,         // run
};

// The frame playback shows after the step's run.
enum class LessonFrame { Last, FirstDifference, Iteration };

struct LessonStep {
    QString heading;
    QString text; // what to look at (rich text, a few sentences)
    // What the step does, in this order; empty or unset leaves it as it is.
    bool keepRunFirst = false; // Run > Keep Run for Comparison, on the run shown so far (going forward only)
    QString variant;           // region-growing variant, as the variant panel's text
    QString prefilter;         // "none", "boxmean:5:async-nobarrier", ...
    QString postfilter;        // "none", "density:5:10:vload8-serial", ...
    std::optional<bool> corruptionView;
    std::optional<bool> workGroupMap;
    bool clearRaceMarkers = false; // the last check's markers belong to another variant
    bool run = false;          // run once set (the first step's sample opens and runs)
    LessonFrame frame = LessonFrame::Last;
    uint32_t frameIteration = 0; // LessonFrame::Iteration: this one (the last where the run has fewer)
    bool checkRaces = false;   // Run > Check for Races after the run
    LessonPanel panel = LessonPanel::None;
    QString labDriver;         // BinarySearchLab: "device-enqueue", ...; the step says if the device cannot
};

struct Lesson {
    QString id;     // "async-copies": rgx --lesson, the action's object name
    QString title;  // the Help > Lessons entry
    QString sample; // opened by the first step, with its seeds
    LessonDevice device = LessonDevice::Any;
    QString feature;      // what the device needs, in words: "device-side enqueue"
    QString withoutIt;    // what the tour shows on a device without it
    std::vector<LessonStep> steps;
};

// The five seed lessons, in the order of the Help menu.
const std::vector<Lesson>& seedLessons();
// The lesson with this id; nullptr when there is none.
const Lesson* findLesson(const QString& id);

// The device a lesson runs on: the current one when it has what the lesson
// needs, else the first listed that has it, else the current one; and a line
// saying which, and what this device shows or cannot.
struct LessonDeviceChoice {
    std::string deviceId;
    bool hasFeature = true;
    QString note;
};
bool deviceServes(LessonDevice need, const DeviceInfo& device);
LessonDeviceChoice chooseLessonDevice(const Lesson& lesson, const std::vector<DeviceInfo>& devices,
                                      const std::string& currentId);

} // namespace rgx::ui
