# Installation: libraries (shared and static), the header, htplaces, its man
# page, a pkg-config file and a CMake package (find_package(omp_ext) gives the
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
install(FILES ${PROJECT_SOURCE_DIR}/omp_ext/htplaces.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

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
configure_file(${PROJECT_SOURCE_DIR}/cmake/omp_ext.pc.in ${PROJECT_BINARY_DIR}/omp_ext.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/omp_ext.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_SOURCE_DIR}/omp_ext/omp_ext_share.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
