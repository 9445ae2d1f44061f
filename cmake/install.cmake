# The installable package (`cmake --install build --prefix P`; docs/programming-guide.md, "A
# kernel outside the repository"): headers under P/include/tern, the static libraries, the
# configs under P/share/tern/configs and P/lib/cmake/tern/ternConfig.cmake, so that a project's
# find_package(tern) gives tern::kernel (the kernel API with the golden model it builds for),
# tern::runtime (tern::Device on the golden backend, and the host tensors' .npy files) and
# TERN_CONFIG_DIR, and tern::rtl (tern::rtl_runner(): the verilated core of the configs this
# build verilated, in the testbench's SystemC platform, for tern::Device's rtl and cross).
# examples/ is such a project; make test builds it against an install.
include(CMakePackageConfigHelpers)

# The RTL side's libraries name their own directories (the testbench's sources, the verilated
# model's generated headers) as usage requirements; a program linking the package needs none of
# them (runtime/rtl_backend.h includes only the runtime's headers), so they stay the build's.
function(tern_build_only_includes)
  foreach(t ${ARGN})
    get_target_property(dirs ${t} INTERFACE_INCLUDE_DIRECTORIES)
    if(NOT dirs)
      continue()
    endif()
    set(kept)
    foreach(d ${dirs})
      if(d MATCHES "^(${CMAKE_SOURCE_DIR}|${CMAKE_BINARY_DIR})/")
        list(APPEND kept "$<BUILD_INTERFACE:${d}>")
      else()
        list(APPEND kept "${d}")
      endif()
    endforeach()
    set_property(TARGET ${t} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${kept}")
  endforeach()
endfunction()
set(TERN_RTL_PACKAGE tern_runtime_rtl tern_tb_platform tern_tb_axi tern_tb_configs tern_rtl_neuroncore
    tern_verilated_rt)
tern_build_only_includes(${TERN_RTL_PACKAGE})
# systemc_quiet.cc (SystemC's banner off) is compiled into every program linking the platform.
install(FILES ${CMAKE_SOURCE_DIR}/tb/platform/systemc_quiet.cc DESTINATION ${CMAKE_INSTALL_DATADIR}/tern/src)

install(TARGETS tern_model tern_kernel tern_runtime tern_kernels tern_host ${TERN_RTL_PACKAGE}
        EXPORT ternTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir model sw)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tern
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tern/configs
        FILES_MATCHING PATTERN "*.yaml")
install(EXPORT ternTargets NAMESPACE tern:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tern)

set(TERN_PACKAGE_VERSION 0.1.0)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/ternConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/ternConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tern
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/ternConfigVersion.cmake
  VERSION ${TERN_PACKAGE_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/ternConfig.cmake ${CMAKE_BINARY_DIR}/cmake/ternConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tern)
