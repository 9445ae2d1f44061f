# Programs for the GPSIMD engine's RISC-V cores (docs/gpsimd.md "Toolchain"): built with Debian's
# riscv64-unknown-elf-gcc and picolibc (scripts/bootstrap.sh installs both) for RV32IMF, linked
# into the cores' local memory map with the device runtime (sw/gpsimd/device).
find_program(TERN_RISCV_GCC riscv64-unknown-elf-gcc REQUIRED)

# The local memory map (docs/gpsimd.md "Memory map"): code and read-only data in its lower 32 KiB,
# data, heap and stack in the next 16 KiB (picolibc.ld's flash and ram regions), and the host's
# I/O window in the top 16 KiB, which start-up code leaves alone (the symbol `tern_io`). Its base
# and size are CoreConfig's defaults (model/gpsimd/rv_core.h).
set(TERN_GPSIMD_MEM_BASE 0x80000000)
set(TERN_GPSIMD_CODE_BYTES 0x8000)
set(TERN_GPSIMD_RAM_BASE 0x80008000)
set(TERN_GPSIMD_RAM_BYTES 0x4000)
set(TERN_GPSIMD_IO_BASE 0x8000C000)
set(TERN_GPSIMD_DEVICE_DIR ${CMAKE_SOURCE_DIR}/sw/gpsimd/device)
set(TERN_GPSIMD_CFLAGS -O2 -g -Wall -Wextra -Werror --specs=picolibc.specs --crt0=hosted -I${TERN_GPSIMD_DEVICE_DIR})
set(TERN_GPSIMD_LDFLAGS -Wl,--defsym=__flash=${TERN_GPSIMD_MEM_BASE},--defsym=__flash_size=${TERN_GPSIMD_CODE_BYTES}
    -Wl,--defsym=__ram=${TERN_GPSIMD_RAM_BASE},--defsym=__ram_size=${TERN_GPSIMD_RAM_BYTES}
    -Wl,--defsym=tern_io=${TERN_GPSIMD_IO_BASE})

# tern_gpsimd_program(<name> SOURCES <file>... [DEFINES <NAME=VALUE>...] [DEPENDS <header>...]
# [RV32IM]): the program
# ${CMAKE_CURRENT_BINARY_DIR}/gpsimd/<name>.elf from C, C++ or assembly (.S) sources, built by
# target gpsimd_<name> (part of `all`), for RV32IMF (the ISS's cores) or, with RV32IM, without
# the F extension (the RTL cores as they are today; float arithmetic in software). The sources'
# directories are on the include path; DEPENDS names the program's own headers (the device
# library's are tracked already).
function(tern_gpsimd_program name)
  cmake_parse_arguments(P "RV32IM" "" "SOURCES;DEFINES;DEPENDS" ${ARGN})
  if(P_RV32IM)
    set(arch -march=rv32im -mabi=ilp32)
  else()
    set(arch -march=rv32imf -mabi=ilp32f)
  endif()
  set(sources)
  set(includes)
  foreach(src ${P_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    list(APPEND sources ${abs})
    list(APPEND includes -I${dir})
  endforeach()
  list(REMOVE_DUPLICATES includes)
  set(defines)
  foreach(d ${P_DEFINES})
    list(APPEND defines -D${d})
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/gpsimd/${name}.elf)
  set(rt ${TERN_GPSIMD_DEVICE_DIR}/tern_gpsimd_rt.c)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/gpsimd
    COMMAND ${TERN_RISCV_GCC} ${arch} ${TERN_GPSIMD_CFLAGS} ${includes} ${defines} ${TERN_GPSIMD_LDFLAGS} -o ${out} ${sources} ${rt}
    DEPENDS ${sources} ${rt} ${TERN_GPSIMD_DEVICE_DIR}/tern_gpsimd.h ${TERN_GPSIMD_DEVICE_DIR}/tern_gpsimd_ops.h
            ${P_DEPENDS}
    COMMENT "GPSIMD program ${name}.elf" VERBATIM)
  add_custom_target(gpsimd_${name} ALL DEPENDS ${out})
endfunction()
