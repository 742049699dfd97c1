# Find omp_ext's dependencies; a missing one stops configure with the Debian
# package to install.
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: install it with 'apt-get install pkg-config'")
endif()

pkg_check_modules(HWLOC QUIET IMPORTED_TARGET hwloc>=2.0)
if(NOT HWLOC_FOUND)
  message(FATAL_ERROR "hwloc 2.x not found: install it with 'apt-get install libhwloc-dev hwloc'")
endif()

# htplaces tune reads the timing layer's JSON files, and exec --plan tune's
# results.json, through cJSON (the library writes JSON itself, reads none).
pkg_check_modules(CJSON QUIET IMPORTED_TARGET libcjson>=1.7.14)
if(NOT CJSON_FOUND)
  message(FATAL_ERROR "cJSON not found: install it with 'apt-get install libcjson-dev'")
endif()

find_package(OpenMP QUIET COMPONENTS C)
if(NOT OpenMP_C_FOUND)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "OpenMP not found for clang: install LLVM's runtime with 'apt-get install libomp-dev'")
  else()
    message(FATAL_ERROR "OpenMP not found for ${CMAKE_C_COMPILER_ID}: install gcc's libgomp with 'apt-get install gcc' (clang: 'apt-get install libomp-dev')")
  endif()
endif()

if(BUILD_TESTING)
  pkg_check_modules(CUNIT QUIET IMPORTED_TARGET cunit)
  if(NOT CUNIT_FOUND)
    message(FATAL_ERROR "CUnit not found (needed for the tests): install it with 'apt-get install libcunit1-dev', or configure with -DBUILD_TESTING=OFF")
  endif()
endif()
