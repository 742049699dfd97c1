# Installation: libraries (shared and static), the header, htplaces, the man
# pages, a pkg-config file and a CMake package (find_package(omp_ext) gives the
# target omp_ext::omp_ext).
include(CMakePackageConfigHelpers)

install(TARGETS omp_ext omp_ext_static htplaces
  EXPORT omp_extTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/omp_ext DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
# omp_ext/config.h: generated from project()'s version (omp_ext/CMakeLists.txt).
install(FILES ${PROJECT_BINARY_DIR}/include/omp_ext/config.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/omp_ext)
# Every man page of man/ (man/manN/NAME.N), in its section's folder: pages added
# later are installed without touching this file.
file(GLOB_RECURSE OMP_EXT_MAN_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.[1-8])
foreach(page ${OMP_EXT_MAN_PAGES})
  string(REGEX REPLACE "^.*\\.([1-8])$" "\\1" section "${page}")
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endforeach()
# The pages generated from the header comments (omp_ext/CMakeLists.txt).
install(DIRECTORY ${OMP_EXT_MAN3_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man3
  FILES_MATCHING PATTERN "*.3")

set(OMP_EXT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/omp_ext)
install(EXPORT omp_extTargets NAMESPACE omp_ext:: DESTINATION ${OMP_EXT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/omp_extConfig.cmake.in
  ${PROJECT_BINARY_DIR}/omp_extConfig.cmake INSTALL_DESTINATION ${OMP_EXT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/omp_extConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/omp_extConfig.cmake ${PROJECT_BINARY_DIR}/omp_extConfigVersion.cmake
  DESTINATION ${OMP_EXT_CMAKE_DIR})

# Relocatable: the prefix is found from the .pc file's own folder.
file(RELATIVE_PATH OMP_EXT_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
# The Fortran module (`use omp_ext`) is compiler-specific: one folder per
# compiler under LIBDIR/fortran (pkg-config --variable=fmoddir omp_ext).
string(TOLOWER "${CMAKE_Fortran_COMPILER_ID}" _omp_ext_fc)
if(NOT _omp_ext_fc)
  set(_omp_ext_fc gnu)
endif()
set(OMP_EXT_FMODDIR ${CMAKE_INSTALL_LIBDIR}/fortran/${_omp_ext_fc})
configure_file(${PROJECT_SOURCE_DIR}/cmake/omp_ext.pc.in ${PROJECT_BINARY_DIR}/omp_ext.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/omp_ext.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Fortran library and its module file.
if(TARGET omp_ext_fortran)
  install(TARGETS omp_ext_fortran ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_BINARY_DIR}/fortran-modules/ DESTINATION ${OMP_EXT_FMODDIR}
    FILES_MATCHING PATTERN "*.mod")
endif()

# Environment module (Tcl; why in packaging/omp_ext.modulefile.in):
# PREFIX/share/modulefiles/omp_ext/VERSION.  The run-time linker's own
# folders, for which it does not set LD_LIBRARY_PATH:
set(OMP_EXT_SYSTEM_LIBDIRS /lib /usr/lib /usr/local/lib)
foreach(dir ${CMAKE_C_IMPLICIT_LINK_DIRECTORIES})
  if(dir MATCHES "^/(usr/)?lib(64)?(/[^/]+-linux-gnu[^/]*)?$")
    list(APPEND OMP_EXT_SYSTEM_LIBDIRS ${dir})
  endif()
endforeach()
list(REMOVE_DUPLICATES OMP_EXT_SYSTEM_LIBDIRS)
string(REPLACE ";" " " OMP_EXT_SYSTEM_LIBDIRS "${OMP_EXT_SYSTEM_LIBDIRS}")
configure_file(${PROJECT_SOURCE_DIR}/packaging/omp_ext.modulefile.in
  ${PROJECT_BINARY_DIR}/modulefiles/omp_ext/${PROJECT_VERSION} @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/modulefiles/omp_ext/${PROJECT_VERSION}
  DESTINATION ${CMAKE_INSTALL_DATADIR}/modulefiles/omp_ext)

# Bash completion, in bash-completion's completionsdir taken relative to
# its prefix (so that it lands under ours), named after each command for
# bash-completion's on-demand loading.
pkg_get_variable(_omp_ext_bc_dir bash-completion completionsdir)
pkg_get_variable(_omp_ext_bc_prefix bash-completion prefix)
set(OMP_EXT_BASHCOMP_DIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
if(_omp_ext_bc_dir AND _omp_ext_bc_prefix)
  string(FIND "${_omp_ext_bc_dir}" "${_omp_ext_bc_prefix}/" _omp_ext_at)
  if(_omp_ext_at EQUAL 0)
    string(LENGTH "${_omp_ext_bc_prefix}/" _omp_ext_len)
    string(SUBSTRING "${_omp_ext_bc_dir}" ${_omp_ext_len} -1 OMP_EXT_BASHCOMP_DIR)
  endif()
endif()
foreach(cmd htplaces htbench)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/htplaces.bash-completion
    DESTINATION ${OMP_EXT_BASHCOMP_DIR} RENAME ${cmd})
endforeach()

include(OmpExtPackage)
