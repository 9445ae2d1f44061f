# Configure-time generation of build/gen/<config>/tern_cfg_pkg.sv for every configs/*.yaml.
# verilate() runs Verilator while CMake configures, so the packages must exist before then:
# a small generator (the golden model's own config parser) is compiled and run here, and CMake
# re-configures whenever a config or the parser changes.
set(TERN_CFG_SOURCES
  ${CMAKE_SOURCE_DIR}/tools/tern_cfg/main.cc
  ${CMAKE_SOURCE_DIR}/model/common/config.cc
  ${CMAKE_SOURCE_DIR}/model/common/parse.cc
  ${CMAKE_SOURCE_DIR}/model/common/input.cc
  ${CMAKE_SOURCE_DIR}/model/common/config.h
  ${CMAKE_SOURCE_DIR}/model/common/input.h
  ${CMAKE_SOURCE_DIR}/model/common/error.h
  ${CMAKE_SOURCE_DIR}/model/common/parse.h
  ${CMAKE_SOURCE_DIR}/tools/cmdline/cmdline.h)
file(GLOB TERN_CONFIG_FILES ${CMAKE_SOURCE_DIR}/configs/*.yaml)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TERN_CFG_SOURCES} ${TERN_CONFIG_FILES})

set(TERN_CFG_TOOL ${CMAKE_BINARY_DIR}/cfggen/tern-cfg)
set(_rebuild OFF)
if(NOT EXISTS ${TERN_CFG_TOOL})
  set(_rebuild ON)
else()
  foreach(src ${TERN_CFG_SOURCES})
    if(${src} IS_NEWER_THAN ${TERN_CFG_TOOL})
      set(_rebuild ON)
    endif()
  endforeach()
endif()
if(_rebuild)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/cfggen)
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -O1 -I${CMAKE_SOURCE_DIR}/model -I${CMAKE_SOURCE_DIR}/tools/cmdline
            ${CMAKE_SOURCE_DIR}/tools/tern_cfg/main.cc ${CMAKE_SOURCE_DIR}/model/common/config.cc
            ${CMAKE_SOURCE_DIR}/model/common/parse.cc ${CMAKE_SOURCE_DIR}/model/common/input.cc
            -lyaml-cpp -lfmt -o ${TERN_CFG_TOOL}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(_rc)
    message(FATAL_ERROR "building the config generator failed:\n${_err}")
  endif()
endif()

set(TERN_CONFIGS)
foreach(yaml ${TERN_CONFIG_FILES})
  get_filename_component(cfg ${yaml} NAME_WE)
  set(pkg ${CMAKE_BINARY_DIR}/gen/${cfg}/tern_cfg_pkg.sv)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/gen/${cfg})
  execute_process(COMMAND ${TERN_CFG_TOOL} ${yaml} ${pkg}.new RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(_rc)
    message(FATAL_ERROR "${_err}")
  endif()
  # Replace only on change, so verilated models are not rebuilt for nothing.
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${pkg}.new ${pkg})
  list(APPEND TERN_CONFIGS ${cfg})
  file(READ ${yaml} _text)
  string(APPEND _built "    {\"${cfg}\", R\"tern_yaml(${_text})tern_yaml\"},\n")
endforeach()
# The configs' text as the RTL models are verilated from it, for tb/built_configs.cc: a run
# on a verilated model checks its config against the one the model was built with.
file(WRITE ${CMAKE_BINARY_DIR}/gen/built_configs.inc.new "${_built}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${CMAKE_BINARY_DIR}/gen/built_configs.inc.new
                ${CMAKE_BINARY_DIR}/gen/built_configs.inc)
