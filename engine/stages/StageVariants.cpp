// Stage variant names, descriptions and build options: the one place that
// knows what each prefilter and postfilter variant means.
#include "StageVariants.h"
#include "Errors.h"

namespace rgx {
namespace {

template <typename Enum>
struct StageChoice {
    Enum value;
    const char* name;
    const char* kernel;
    bool wrongOnPurpose;
    const char* description;
};

// The first choice of each table is the stage's default.
const StageChoice<BoxMeanVariant> boxMeanChoices[] = {
    {BoxMeanVariant::Async, "async", "box_mean_async", false,
     "the corner rows copied one after the other into one local buffer with "
     "async_work_group_copy, a barrier between the copies"},
    {BoxMeanVariant::AsyncNoBarrier, "async-nobarrier", "box_mean_async", true,
     "the same without the barrier between the copies (wrong on purpose)"},
    {BoxMeanVariant::Direct, "direct", "box_mean_direct", false,
     "the four corners read straight from global memory"},
};
const StageChoice<GaussianVariant> gaussianChoices[] = {
    {GaussianVariant::AsyncHalo, "async-halo", "gaussian_async_halo", false,
     "a 2D tile and its halo prefetched with async_work_group_copy, passes in local memory"},
    {GaussianVariant::Direct, "direct", "gaussian_direct", false,
     "every tap read straight from global memory"},
};
const StageChoice<DensityVariant> densityChoices[] = {
    {DensityVariant::Vload8Expr, "vload8-expr", "density_vload8_expr", false,
     "8 pixels per work-item, the four corner vload8 in one expression"},
    {DensityVariant::Vload8Serial, "vload8-serial", "density_vload8_serial", false,
     "the same vload8, serialised with the comma operator to lower register pressure"},
    {DensityVariant::Scalar, "scalar", "density_scalar", false, "one pixel per work-item"},
};

template <typename Enum, size_t N>
const StageChoice<Enum>& choiceOf(const StageChoice<Enum> (&choices)[N], Enum value)
{
    for (const auto& choice : choices)
        if (choice.value == value)
            return choice;
    return choices[0];
}

template <typename Enum, size_t N>
Enum parseStageChoice(const StageChoice<Enum> (&choices)[N], const std::string& stage,
                      const std::string& name)
{
    if (name.empty())
        return choices[0].value;
    std::string names;
    for (const auto& choice : choices) {
        if (name == choice.name)
            return choice.value;
        names += (names.empty() ? "" : ", ") + std::string(choice.name);
    }
    throw InputError("unknown " + stage + " variant '" + name + "' (expected one of: " + names + ")");
}

template <typename Enum, size_t N>
void appendInfo(std::vector<StageVariantInfo>& list, const std::string& stage,
                const StageChoice<Enum> (&choices)[N])
{
    for (const auto& choice : choices)
        list.push_back({stage, choice.name, &choice == &choices[0], choice.wrongOnPurpose,
                        choice.description});
}

} // namespace

std::vector<StageVariantInfo> stageVariants()
{
    std::vector<StageVariantInfo> list;
    appendInfo(list, "boxmean", boxMeanChoices);
    appendInfo(list, "gaussian", gaussianChoices);
    appendInfo(list, "density", densityChoices);
    return list;
}

BoxMeanVariant parseBoxMeanVariant(const std::string& name)
{
    return parseStageChoice(boxMeanChoices, "boxmean", name);
}

GaussianVariant parseGaussianVariant(const std::string& name)
{
    return parseStageChoice(gaussianChoices, "gaussian", name);
}

DensityVariant parseDensityVariant(const std::string& name)
{
    return parseStageChoice(densityChoices, "density", name);
}

std::string boxMeanVariantName(BoxMeanVariant variant) { return choiceOf(boxMeanChoices, variant).name; }
std::string gaussianVariantName(GaussianVariant variant) { return choiceOf(gaussianChoices, variant).name; }
std::string densityVariantName(DensityVariant variant) { return choiceOf(densityChoices, variant).name; }
std::string boxMeanKernel(BoxMeanVariant variant) { return choiceOf(boxMeanChoices, variant).kernel; }
std::string gaussianKernel(GaussianVariant variant) { return choiceOf(gaussianChoices, variant).kernel; }
std::string densityKernel(DensityVariant variant) { return choiceOf(densityChoices, variant).kernel; }

std::string boxMeanDefines(BoxMeanVariant variant)
{
    // The wrong-on-purpose variant is its correct twin with one barrier macro emptied.
    return variant == BoxMeanVariant::AsyncNoBarrier ? " -D\"RGX_BOX_BARRIER(flags)=\"" : "";
}

} // namespace rgx
