// rgx-cli bench's options (not --interactive, not --volume), and the files
// they name: the sample images and the photographs.
#pragma once

#include "bench/CaseBench.h"
#include "GrowParams.h"

#include <QString>
#include <string>
#include <vector>

namespace rgx {

// The options; how each implementation runs is the CaseSettings part.
struct BenchSettings : bench::CaseSettings {
    std::string deviceSpec;
    std::vector<int> sizes;
    QString samplesDirectory; // empty: no sample images
    bool photos = false;      // the photograph cases, scaled to photoSizes
    QString photosDirectory;  // --photos-dir: every photograph in it instead of the default set
    std::vector<int> photoSizes;
    std::string nppDirectory; // empty: RGX_NPP_DIR or the loader's path
    std::vector<int> seedCounts;
    std::vector<Mode> modes;
    std::string variantsText; // "all" or a ';'-separated list
    uint32_t noiseSeed = 1;
    std::string jsonPath;
    std::string csvPath;
};

// Reads the options after "bench". Throws InputError naming what is wrong.
BenchSettings parseSettings(const std::vector<std::string>& arguments);

// The .png images of a sample folder. Throws InputError where there are none.
std::vector<QString> sampleFiles(const QString& directory);

// The photographs of --photos: the bundled samples, and a few photographs of
// scikit-image's data folder (Debian's python3-skimage), or every picture of
// --photos-dir. Missing ones are named in `missing`. Throws InputError
// where there are none at all.
std::vector<QString> photoFiles(const BenchSettings& settings, std::string& missing);

// "4096x4096, 8192x8192".
std::string sizesText(const std::vector<int>& sizes);

} // namespace rgx
