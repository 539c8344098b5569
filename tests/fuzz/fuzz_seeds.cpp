// The seeds texts: a seeds file (with its "# parameters:" line) and the
// --seeds list. What parses must survive a round trip through
// formatSeedsText; what does not parse is refused with InputError.
#include "Errors.h"
#include "FuzzSupport.h"
#include "Seeds.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const std::vector<rgx::Seed> seeds = rgx::parseSeedsText(text, "fuzz");
        const std::vector<rgx::Seed> again = rgx::parseSeedsText(rgx::formatSeedsText(seeds), "again");
        rgx::fuzz::require(again == seeds, "formatSeedsText does not read back as the same seeds");
    } catch (const rgx::InputError&) {
    }
    try {
        const std::vector<rgx::Seed> seeds = rgx::parseSeedList(text);
        // An empty list parses; rgx-cli refuses it when it validates the seeds.
        bool valid = true;
        try {
            rgx::validateSeeds(seeds, 512, 512);
        } catch (const rgx::InputError&) {
            valid = false;
        }
        rgx::fuzz::require(!(valid && seeds.empty()), "an empty seed list passed validation");
    } catch (const rgx::InputError&) {
    }
    try {
        (void)rgx::parseSuggestedParameters(text, "fuzz");
    } catch (const rgx::InputError&) {
    }
    return 0;
}
