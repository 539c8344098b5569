// rgx-cli lab binary-search --size N --keys K [--device D] [--variant driver=..]
// rgx-cli lab residency [--device D] [--time-limit S]
#include "Lab.h"
#include "CliOptions.h"
#include "Device.h"
#include "Errors.h"
#include "lab/BinarySearchLab.h"
#include "lab/ResidencyLab.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace rgx {
namespace {

std::string milliseconds(double value)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(value < 10 ? 2 : 1) << value << " ms";
    return out.str();
}

std::string runLine(const ResidencyRun& run)
{
    std::ostringstream out;
    out << run.groups << " work-groups: " << milliseconds(run.growMilliseconds) << " in " << run.launches
        << (run.launches == 1 ? " launch" : " launches");
    if (run.fellBack)
        out << " (the roll call failed after " << milliseconds(run.firstLaunchMilliseconds)
            << ", then one launch per level)";
    else
        out << " (the fused kernel, a grid barrier between levels)";
    out << ", " << (run.exact ? "exact" : "DIFFERS from the CPU reference");
    return out.str();
}

// The figures of DESIGN.md's `lab residency`: the resident count on a line
// of its own, then RGX's count, the launch with more and the fallback's cost.
int commandResidency(const std::vector<std::string>& arguments)
{
    const CliOptions options("lab residency", arguments, {"--device", "--time-limit"}, {});
    ResidencyOptions lab;
    lab.searchSeconds = options.decimal("--time-limit", 60.0, 1.0);
    const DeviceInfo info = selectDevice(options.value("--device"));
    ComputeDevice device(info);
    const ResidencyResult result = runResidencyLab(device, lab);

    std::cout << "device: " << info.id() << " " << info.name << " (" << info.platformName << ")\n"
              << "kernel: " << result.kernel << " (" << result.program << ", " << result.variant << "), "
              << result.workGroupSize << " work-items and " << result.localMemoryBytes
              << " bytes of local memory per work-group";
    if (result.registers >= 0)
        std::cout << ", " << result.registers << " registers per work-item";
    std::cout << "\nsearch:";
    for (const ResidencyProbe& probe : result.probes)
        std::cout << " " << probe.groups << (probe.resident ? "" : "x");
    std::cout << " (x: not resident), " << std::fixed << std::setprecision(2) << result.searchSeconds << " s";
    if (result.probeOptions != result.options)
        std::cout << "; the probes wait 2^18 reads at the roll call, RGX's launches 2^24";
    std::cout << "\nresident work-groups: " << result.residentGroups << "\n";
    if (!result.searchNote.empty())
        std::cout << "note: " << result.searchNote << "\n";
    std::cout << "compute units: " << result.computeUnits << "\n"
              << "RGX's fused launches: " << result.fusedGroups << " work-groups ("
              << (result.fusedGroups <= result.residentGroups ? "resident: their roll call passes"
                                                              : "more than resident: their roll call fails")
              << ")\n";
    if (result.over.groups != 0) {
        std::cout << "launch with more: " << result.over.groups << " work-groups: roll call verdict "
                  << (result.over.resident ? "go (resident after all: the search ended too low)" : "not resident")
                  << " after " << milliseconds(result.over.milliseconds)
                  << (result.over.resident ? "" : "; the launch did nothing and returned, no hang") << "\n";
    }
    if (result.runsDone) {
        std::cout << "fallback: a run of " << result.runImage << ", " << result.fused.levels << " levels\n"
                  << "  fused, " << runLine(result.fused) << "\n"
                  << "  forced, " << runLine(result.forced) << "\n";
        if (result.fused.growMilliseconds > 0)
            std::cout << "fallback cost: " << milliseconds(result.forced.growMilliseconds) << " against "
                      << milliseconds(result.fused.growMilliseconds) << " fused (" << std::setprecision(2)
                      << result.forced.growMilliseconds / result.fused.growMilliseconds << "x), of which the roll "
                      << "call's wait " << milliseconds(result.forced.firstLaunchMilliseconds) << "\n";
    }
    std::cout << "rule: " << residencyRule() << "\n";
    const bool exact = !result.runsDone || (result.fused.exact && result.forced.exact);
    return exact ? 0 : 4;
}

} // namespace

int commandLab(const std::vector<std::string>& arguments)
{
    if (!arguments.empty() && arguments[0] == "residency")
        return commandResidency(std::vector<std::string>(arguments.begin() + 1, arguments.end()));
    if (arguments.empty() || arguments[0] != "binary-search")
        throw InputError("unknown lab '" + (arguments.empty() ? std::string() : arguments[0]) +
                         "' (expected: lab binary-search --size N --keys K, or lab residency)");
    const CliOptions options("lab", std::vector<std::string>(arguments.begin() + 1, arguments.end()),
                             {"--size", "--keys", "--device", "--variant", "--seed"}, {});
    if (!options.has("--size") || !options.has("--keys"))
        throw InputError("lab binary-search needs --size N and --keys K");
    const size_t size = size_t(options.integer("--size", 0, 1, 2000000000L));
    const size_t keyCount = size_t(options.integer("--keys", 0, 1, 100000000L));
    const uint32_t seed = uint32_t(options.integer("--seed", 1, 0, 0xFFFFFFFFL));
    // Only the driver axis means something here.
    const std::string variantText = options.value("--variant");
    for (size_t at = 0; at < variantText.size();) {
        const size_t comma = std::min(variantText.find(',', at), variantText.size());
        if (variantText.compare(at, 7, "driver=") != 0)
            throw InputError("the binary-search lab has only the driver axis "
                             "(--variant driver=host-sync|host-batched|device-enqueue)");
        at = comma + 1;
    }
    const GrowVariant parsed = parseVariant(variantText);

    const DeviceInfo info = selectDevice(options.value("--device"));
    ComputeDevice device(info);
    const std::vector<uint32_t> values = makeSortedValues(size, seed);
    const std::vector<uint32_t> keys = makeSearchKeys(keyCount, values, seed + 1);
    const BinarySearchResult result = runBinarySearchLab(device, values, keys, parsed.driver);
    const std::vector<uint32_t> expected = lowerBoundsReference(values, keys);
    size_t wrong = 0;
    for (size_t k = 0; k < keyCount; ++k)
        wrong += result.positions[k] != expected[k];

    const TimelineSummary timeline = summarizeTimeline(result.timings);
    std::cout << "device: " << info.id() << " " << info.name << " (" << info.platformName << ")\n"
              << "variant: " << result.variant << "\n"
              << "array: " << size << " sorted values; keys: " << keyCount << "; chunks per key: "
              << result.chunksPerKey << "\n"
              << "rounds: " << result.rounds << "\n"
              << std::fixed << std::setprecision(3) << "time: " << result.hostMilliseconds
              << " ms on the host; device busy " << timeline.busyNs / 1e6 << " ms, idle gaps "
              << timeline.gapNs / 1e6 << " ms, " << result.timings.size() << " commands\n"
              << "verify: " << wrong << " keys differ from std::lower_bound\n";
    return wrong == 0 ? 0 : 4;
}

} // namespace rgx
