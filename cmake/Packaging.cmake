# The Debian package: `cpack -G DEB` in the build folder (or
# scripts/package.sh) makes rgx_<version>_<arch>.deb from the install rules,
# installed under /usr. Its dependencies are declared here by hand rather
# than by dpkg-shlibdeps: the floodFill module links OpenCV, which the
# package only suggests (rgx-cli bench runs without it), and the programs
# load things no ELF header names (Qt's platform plugins, an OpenCL driver).
# tests/install/deb_control.sh checks that every library the programs link
# comes from a package named here.
set(CPACK_PACKAGE_NAME rgx)
set(CPACK_PACKAGE_VENDOR "RGX")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Region Growing eXplorer: watch OpenCL kernels segment images")
# lintian wants each line of the extended description within 80 columns.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "Seeded region growing on OpenCL devices, shown as it happens: the explorer\n"
    "shows what each OpenCL technique (barriers, async work-group copies,\n"
    "work-group collectives, device-side enqueue, grid-wide barriers) does to\n"
    "the result and to the time it takes. Every kernel variant is checked\n"
    "against a CPU reference bit for bit. The package holds the explorer (rgx),\n"
    "its headless twin (rgx-cli), the sample images, manual pages and bash\n"
    "completion.")
set(CPACK_PACKAGE_CONTACT "RGX developers <rgx-devel@users.noreply.github.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # rgx_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1, \
libqt6core6 (>= 6.2), libqt6gui6 (>= 6.2), libqt6widgets6 (>= 6.2), libqt6printsupport6 (>= 6.2), \
qt6-qpa-plugins, libqcustomplot2.1-qt6, ocl-icd-libopencl1 | libopencl1, \
libnifti2-2, libznz3, libgdcm3.0, libtiff6, zlib1g")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, qt6-image-formats-plugins")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libopencv-imgproc406, oclgrind, clinfo")

# What Debian wants in /usr/share/doc/rgx: the machine-readable copyright
# file and the changelog, gzip -9n. The version has no Debian revision, so
# the package is native and its changelog is changelog.gz (not
# changelog.Debian.gz); its latest entry names this version.
file(STRINGS ${PROJECT_SOURCE_DIR}/packaging/changelog RGX_CHANGELOG_TOP LIMIT_COUNT 1)
if(NOT RGX_CHANGELOG_TOP MATCHES "^rgx \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/changelog has no entry for version ${PROJECT_VERSION} at its top: add one")
endif()
include(${PROJECT_SOURCE_DIR}/cmake/InstallGzipped.cmake)
rgx_install_gzipped(${PROJECT_SOURCE_DIR}/packaging/changelog ${CMAKE_INSTALL_DOCDIR} changelog.gz)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(CPack)
