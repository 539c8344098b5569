// Shared by the fuzz targets: the Qt application object some readers need,
// and a check that aborts (a finding) with what went wrong.
#pragma once

#include <QCoreApplication>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rgx::fuzz {

inline void startQt()
{
    static int argc = 1;
    static char name[] = "rgx-fuzz";
    static char* argv[] = {name, nullptr};
    static QCoreApplication application(argc, argv);
}

// A property that must hold for every input: abort, so libFuzzer keeps it.
inline void require(bool holds, const std::string& what)
{
    if (!holds) {
        std::fprintf(stderr, "fuzz property broken: %s\n", what.c_str());
        std::abort();
    }
}

} // namespace rgx::fuzz
