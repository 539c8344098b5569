// The variants of the prefilter and postfilter stages (DESIGN.md): names,
// what each teaches, which are wrong on purpose, and the build options that
// make them. Like the region-growing variants, a stage variant is data.
#pragma once

#include <string>
#include <vector>

namespace rgx {

enum class BoxMeanVariant { Async, AsyncNoBarrier, Direct };
enum class GaussianVariant { AsyncHalo, Direct };
enum class DensityVariant { Vload8Expr, Vload8Serial, Scalar };

// One line of the stage variant list, for the GUI and `rgx-cli variants`.
struct StageVariantInfo {
    std::string stage;        // "boxmean", "gaussian" (prefilters), "density" (postfilter)
    std::string name;         // as --prefilter boxmean:W:NAME takes it
    bool isDefault = false;   // what an empty variant name means
    bool wrongOnPurpose = false;
    std::string description;  // one line
};

// Every stage variant, stage by stage, in a stable order.
std::vector<StageVariantInfo> stageVariants();

// Empty name: the stage's default (async, async-halo, vload8-expr). Throws
// InputError naming the valid choices.
BoxMeanVariant parseBoxMeanVariant(const std::string& name);
GaussianVariant parseGaussianVariant(const std::string& name);
DensityVariant parseDensityVariant(const std::string& name);

std::string boxMeanVariantName(BoxMeanVariant variant);
std::string gaussianVariantName(GaussianVariant variant);
std::string densityVariantName(DensityVariant variant);

// The kernel that runs the variant, and the -D options that specialise it.
std::string boxMeanKernel(BoxMeanVariant variant);
std::string boxMeanDefines(BoxMeanVariant variant);
std::string gaussianKernel(GaussianVariant variant);
std::string densityKernel(DensityVariant variant);

} // namespace rgx
