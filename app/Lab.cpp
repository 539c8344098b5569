// rgx-cli lab binary-search --size N --keys K [--device D] [--variant driver=..]
#include "Lab.h"
#include "CliOptions.h"
#include "Device.h"
#include "Errors.h"
#include "lab/BinarySearchLab.h"

#include <algorithm>
#include <iomanip>
#include <iostream>

namespace rgx {

int commandLab(const std::vector<std::string>& arguments)
{
    if (arguments.empty() || arguments[0] != "binary-search")
        throw InputError("unknown lab '" + (arguments.empty() ? std::string() : arguments[0]) +
                         "' (expected: lab binary-search --size N --keys K)");
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
