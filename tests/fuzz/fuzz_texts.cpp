// The variant and stage texts (--variant, --mode, --rule, --prefilter,
// --postfilter and the stage variant names): each either parses or is
// refused with InputError, and what parses prints as a text that parses to
// the same value.
#include "Errors.h"
#include "FuzzSupport.h"
#include "GrowParams.h"
#include "Pipeline.h"
#include "Variant.h"
#include "stages/StageVariants.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

template <typename Parse>
void tryParse(Parse parse)
{
    try {
        parse();
    } catch (const rgx::InputError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using rgx::fuzz::require;
    const std::string text(reinterpret_cast<const char*>(data), size);
    tryParse([&] {
        const rgx::GrowVariant variant = rgx::parseVariant(text);
        require(rgx::parseVariant(variant.text()) == variant, "variant text does not parse back: " + variant.text());
    });
    tryParse([&] { require(rgx::parseMode(rgx::modeName(rgx::parseMode(text))) == rgx::parseMode(text), "mode"); });
    tryParse([&] { require(rgx::parseRule(rgx::ruleName(rgx::parseRule(text))) == rgx::parseRule(text), "rule"); });
    tryParse([&] {
        const rgx::PrefilterSpec spec = rgx::parsePrefilter(text);
        require(rgx::prefilterText(rgx::parsePrefilter(rgx::prefilterText(spec))) == rgx::prefilterText(spec),
                "prefilter text does not parse back: " + rgx::prefilterText(spec));
    });
    tryParse([&] {
        const rgx::PostfilterSpec spec = rgx::parsePostfilter(text);
        require(rgx::postfilterText(rgx::parsePostfilter(rgx::postfilterText(spec))) == rgx::postfilterText(spec),
                "postfilter text does not parse back: " + rgx::postfilterText(spec));
    });
    tryParse([&] { (void)rgx::parseBoxMeanVariant(text); });
    tryParse([&] { (void)rgx::parseGaussianVariant(text); });
    tryParse([&] { (void)rgx::parseDensityVariant(text); });
    return 0;
}
