# The Debian package: `cpack -G DEB` in the build folder makes
# fano_<version>_amd64.deb with the command (fano, fano-serve), the man page,
# the libraries' headers and static archives and their CMake package (the
# install rules' "Unspecified" component: the Python module is the wheel's).
# Its run-time dependencies are read from the programs by dpkg-shlibdeps
# (Debian's dpkg-dev); the libraries' users need the headers of what the
# package links, suggested. The test Package.DebianPackage checks it.
set(CPACK_PACKAGE_NAME fano)
set(CPACK_PACKAGE_VENDOR "The Fano330-R-Morris solver authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Fano330-R-Morris solver: every position solved, the fano command and library")
set(CPACK_PACKAGE_DESCRIPTION
    "Solves the stacking game Fano330-R-Morris exactly for every reading of its rules, "
    "answers positions from the tables, plays, verifies and serves the explorer page "
    "(fano serve). With the C++ libraries' headers and CMake package (find_package(fano)).")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};fano;Unspecified;/")
set(CPACK_RPM_PACKAGE_LICENSE ${FANO_LICENSE})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_VENDOR}")
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "man-db, libtbb-dev, libzstd-dev, nlohmann-json3-dev, pkg-config, cmake, g++")

# /usr/share/doc/fano/copyright in Debian's machine-readable form, from LICENSE.
file(READ ${PROJECT_SOURCE_DIR}/LICENSE fano_license_text)
string(REGEX REPLACE "\n\n" "\n.\n" fano_license_text "${fano_license_text}")
string(REGEX REPLACE "\n([^\n])" "\n \\1" fano_license_text "${fano_license_text}")
file(WRITE ${PROJECT_BINARY_DIR}/debian/copyright
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: fano\n\n"
  "Files: *\nCopyright: 2026 The Fano330-R-Morris solver authors\nLicense: ${FANO_LICENSE}\n"
  " ${fano_license_text}")
install(FILES ${PROJECT_BINARY_DIR}/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(CPack)
