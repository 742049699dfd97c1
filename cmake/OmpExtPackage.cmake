# Debian package of the install rules: `cpack -G DEB` in the build folder
# writes omp-ext_VERSION_ARCH.deb (library, headers, pkg-config file, CMake
# package, htplaces, htbench, man pages, Fortran module, module file, bash
# completion).  Depends is derived by dpkg-shlibdeps from the ELF files
# (libhwloc15, libgomp1 or libomp5, libc6), never typed here.
# Included last, after every install() rule.

# One version: project()'s; omp_ext/config.h is generated from it.

set(OMP_EXT_DEB_MAINTAINER "omp_ext maintainers <maintainers@users.noreply.a-seed-5227e5f2.example>"
  CACHE STRING "Maintainer field of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME omp-ext)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "omp_ext")
set(CPACK_PACKAGE_CONTACT "${OMP_EXT_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION} (htplaces, libomp_ext)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${OMP_EXT_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The extended description (the first line of Description: is the summary
# above); CPack indents each line and writes " ." for the empty one.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "omp_ext orders the PUs of an SMT machine by placement policy (os,
speedup, spn, spread, energy) and gives OpenMP programs matching place lists.

This package holds the htplaces command, the htbench benchmark, the
libomp_ext library (shared and static) with its headers, pkg-config file,
CMake package and Fortran module, man pages, an environment module file
(share/modulefiles/omp_ext) and bash completion.")
# Depends from the ELF files (dpkg-shlibdeps, from dpkg-dev); shlibs and the
# ldconfig trigger for libomp_ext.so.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# Building against it (pkg-config omp_ext needs hwloc.pc); not needed to run.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libhwloc-dev, pkg-config")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "lmod | environment-modules, bash-completion")
include(CPack)
