# The installable package (`cmake --install build --prefix P`; docs/programming-guide.md, "A
# kernel outside the repository"): headers under P/include/tern, the static libraries, the
# configs under P/share/tern/configs and P/lib/cmake/tern/ternConfig.cmake, so that a project's
# find_package(tern) gives tern::kernel (the kernel API with the golden model it builds for),
# tern::runtime (tern::Device on the golden backend, and the host tensors' .npy files) and
# TERN_CONFIG_DIR. examples/ is such a project; make test builds it against an install.
include(CMakePackageConfigHelpers)

install(TARGETS tern_model tern_kernel tern_runtime tern_kernels tern_host EXPORT ternTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
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
