// The About box's text. The credits are tables, one row per project or
// image, so that a new one is one line; the licences are those of the Debian
// packages (or, for Intel's runtime, the PyPI wheel) that scripts/setup.sh
// installs, and resources/CREDITS says where the samples come from.
#include "AboutText.h"

#include <vector>

namespace rgx::ui {

namespace {

struct Credit {
    const char* name;
    const char* what;
    const char* licence;
};

const std::vector<Credit> software = {
    {"Qt 6", "the window and its widgets", "LGPL-3.0"},
    {"QCustomPlot", "the timing charts", "GPL-3.0"},
    {"the OpenCL ICD loader (ocl-icd)", "finds the installed OpenCL drivers", "BSD-2-Clause"},
    {"PoCL", "the default device, on the CPU", "MIT"},
    {"Intel's CPU OpenCL runtime", "OpenCL 3.0 on the CPU, where installed",
     "Intel End User License Agreement for Developer Tools"},
    {"Oclgrind", "finds data races and barrier divergence", "BSD-3-Clause"},
    {"OpenCV", "cv::floodFill, a baseline of rgx-cli bench", "Apache-2.0"},
    {"nifti_clib", "reads and writes NIfTI volumes (.nii, .nii.gz)", "public domain"},
    {"GDCM (Grassroots DICOM)", "reads DICOM series", "BSD-3-Clause"},
    {"libtiff", "reads and writes multi-page TIFF volumes", "libtiff licence, BSD-like"},
    {"zlib", "the gzip streams of .nii.gz", "Zlib"},
};

const std::vector<Credit> samples = {
    {"coins.png", "Greek coins from Pompeii, from the Brooklyn Museum Collection",
     "no known copyright restrictions"},
    {"astronaut.png", "the astronaut Eileen Collins, a NASA photograph", "public domain"},
};

const std::vector<Credit> sampleVolumes = {
    {"mni_icbm152_t1_tal_nlin_sym_09a_converted.nii.gz",
     "the MNI ICBM 2009a nonlinear symmetric T1 brain template, Copyright (C) 1993-2009 Louis Collins, "
     "McConnell Brain Imaging Centre, Montreal Neurological Institute, McGill University; from nilearn's data",
     "MNI licence: use, copy, modify and distribute with this notice"},
    {"dicom-ct-series", "a CT series of five 16 x 16 slices from pydicom's test data (pcir.org's image sets, downsized)",
     "MIT, Copyright (c) 2008-2020 Darcy Mason and pydicom contributors"},
};

QString listOf(const std::vector<Credit>& credits)
{
    QString items;
    for (const Credit& credit : credits)
        items += QStringLiteral("<li><b>%1</b>: %2 (%3)</li>")
                     .arg(QLatin1String(credit.name), QLatin1String(credit.what), QLatin1String(credit.licence));
    return QStringLiteral("<ul>%1</ul>").arg(items);
}

} // namespace

QString aboutText()
{
    return QStringLiteral("<p><b>RGX %1</b> - Region Growing eXplorer</p>"
                          "<p>Watch OpenCL kernels segment images by seeded region growing, and see what "
                          "barriers, async copies, work-group collectives and device-side enqueue do.</p>"
                          "<p>RGX is free software under the GNU General Public License, version 3 or (at your "
                          "option) any later version: GPL-3.0-or-later. It comes with no warranty. The full "
                          "text is the file LICENSE of the source; an installed RGX names it in "
                          "/usr/share/doc/rgx/copyright.</p>"
                          "<p>RGX builds on:</p>%2"
                          "<p>The sample images come from scikit-image's test data:</p>%3"
                          "<p>The sample volumes (their licences in full in /usr/share/doc/rgx/copyright):</p>%4")
        .arg(QStringLiteral(RGX_VERSION), listOf(software), listOf(samples), listOf(sampleVolumes));
}

} // namespace rgx::ui
