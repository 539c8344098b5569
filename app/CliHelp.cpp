// The help text of each rgx-cli command: what it does, its options and their
// defaults (the usage lines are the command-line contract of DESIGN.md).
#include "CliHelp.h"
#include "Bench.h"

#include <map>

namespace rgx {

std::optional<std::string> commandHelp(const std::string& command)
{
    static const std::map<std::string, std::string> help = {
        {"devices",
         "usage: rgx-cli devices [--json]\n"
         "Lists the OpenCL devices, numbered as --device N takes them (\"P:I\" is platform:index), with what\n"
         "each can run. --json: the same as JSON.\n"},
        {"variants",
         "usage: rgx-cli variants [--device D] [--json]\n"
         "Every region-growing variant and whether device D (default: the first PoCL CPU device) can run it,\n"
         "and if not, why; wrong-on-purpose variants are marked. D: \"P:I\", a number N, or part of a name.\n"},
        {"segment",
         "usage: rgx-cli segment --image FILE (--seeds \"x,y;x,y\" | --seeds-file FILE) [options]\n"
         "Grows regions from the seeds (x to the right, y down) and writes what was asked for.\n"
         "FILE may be a volume: NIfTI (.nii, .nii.gz), a DICOM series folder, a multi-page TIFF or a folder\n"
         "of numbered slices; its seeds are \"x,y,z;x,y,z\" (z: the slice) and its outputs .nii, .nii.gz,\n"
         "multi-page .tif or .npy of shape (D, H, W); --out-overlay draws the first seed's slice.\n"
         "  --mode competitive|adaptive|range   default competitive\n"
         "  --tolerance T                       adaptive: accept within T luma of the mean (default 0)\n"
         "  --lower LO --upper UP               range: accept within [seed - LO, seed + UP] (default 0, 0)\n"
         "  --rule adjacent|all                 eligible regions (default adjacent)\n"
         "  --connectivity 4|8 (volumes 6|18|26)  default 4 (volumes: 6)\n"
         "  --max-iterations N                  iteration cap (default: the pixel count)\n"
         "  --prefilter none|boxmean:W[:V]|gaussian:R[:V]   default none\n"
         "  --postfilter none|density:W:MIN[:V]             default none\n"
         "  --device D                          \"P:I\", a number N, or part of a name (default: PoCL)\n"
         "  --variant driver=..,frontier=..,collectives=..,tile=..,fusion=..   default host-batched queue\n"
         "  --timeout S                         stop the run after S seconds, exit 3 (default 120; 0: none)\n"
         "  --out-labels FILE.png|FILE.npy  --out-stamps FILE.npy  --out-overlay FILE.png\n"
         "  (volumes: --out-labels and --out-stamps FILE.nii|FILE.nii.gz|FILE.tif|FILE.npy)\n"
         "  --timings FILE.json|FILE.csv        one record per kernel launch\n"
         "  --verify                            compare with the CPU reference (exit 4 when they differ)\n"
         "  --check-races                       rerun under Oclgrind's race detector on a 32x32 cut\n"
         "Exit codes: 0 done, 2 bad input, 3 OpenCL failure, 4 --verify found differences.\n"},
        {"lab",
         "usage: rgx-cli lab binary-search --size N --keys K [--device D] [--variant driver=..] [--seed S]\n"
         "       rgx-cli lab residency [--device D] [--time-limit S]\n"
         "The binary-search lab: K keys looked up in N sorted values with driver host-sync, host-batched\n"
         "or device-enqueue (default host-batched), checked against std::lower_bound. --seed S: the random\n"
         "values and keys (default 1).\n"
         "The residency lab: how many work-groups of the fused kernel (grow_levels, fusion=grid-barrier)\n"
         "device D keeps resident at once, found with the kernel's own roll call by doubling, then\n"
         "bisection; --time-limit S ends the search with a lower bound (default 60). Prints the line\n"
         "`resident work-groups: N`, RGX's own count, the roll call's verdict on a launch with more groups\n"
         "(not resident: it does nothing, never hangs) and what the fallback to one launch per level costs\n"
         "on a small run. Exit 4 when a run differs from the CPU reference.\n"},
        {"bench",
         std::string("usage:\n") + benchUsage + interactiveBenchUsage +
             "Times region growing on one device beside its launch and grid barrier floors and the CPU\n"
             "baselines (docs/PERFORMANCE.md says how to read it); --interactive times a script of clicks on\n"
             "one resident session. Exit 4 when a result that should equal the CPU reference does not.\n"},
    };
    const auto found = help.find(command);
    if (found == help.end())
        return std::nullopt;
    return found->second;
}

bool asksForHelp(int argc, const std::string* arguments)
{
    for (int i = 0; i < argc; ++i)
        if (arguments[i] == "--help" || arguments[i] == "-h")
            return true;
    return false;
}

} // namespace rgx
