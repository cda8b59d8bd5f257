# SPDX-License-Identifier: GPL-2.0-or-later
# Builds guest programs for both ISAs with the Debian cross compilers:
# asymu_guest_program(NAME SOURCE [DYNAMIC] [INSTALL] [OUTDIR dir] [TARGET t] [EXTRA flags...])
# makes NAME-aarch64 and NAME-armhf (static glibc programs, or dynamically
# linked ones with DYNAMIC) in OUTDIR (default: current binary dir) and adds
# them to the `guests` target, part of `all`, through target t (default
# guest-NAME). Headers a source includes are
# tracked through the compiler's depfile. INSTALL: `cmake --install` puts
# both in LIBEXECDIR/asymu, where an installed asymu finds the programs its
# example scenarios and demo run (scenario/parse.c find_program).
include(GNUInstallDirs)
find_program(ASYMU_CC_AARCH64 aarch64-linux-gnu-gcc REQUIRED)
find_program(ASYMU_CC_ARMHF arm-linux-gnueabihf-gcc REQUIRED)
if(NOT TARGET guests)
  add_custom_target(guests ALL)
endif()

function(asymu_guest_program name source)
  cmake_parse_arguments(G "DYNAMIC;INSTALL" "OUTDIR;TARGET" "EXTRA" ${ARGN})
  if(NOT G_TARGET)
    set(G_TARGET guest-${name})
  endif()
  if(NOT G_OUTDIR)
    set(G_OUTDIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(link -static)
  if(G_DYNAMIC)
    set(link)
  endif()
  set(src ${CMAKE_CURRENT_SOURCE_DIR}/${source})
  set(outputs)
  foreach(isa aarch64 armhf)
    if(isa STREQUAL aarch64)
      set(cc ${ASYMU_CC_AARCH64})
    else()
      set(cc ${ASYMU_CC_ARMHF})
    endif()
    set(out ${G_OUTDIR}/${name}-${isa})
    add_custom_command(OUTPUT ${out}
      COMMAND ${cc} ${link} -O2 -Wall -Wextra -Werror -MD -MF ${out}.d -o ${out} ${src} ${G_EXTRA}
      DEPENDS ${src}
      DEPFILE ${out}.d
      COMMENT "Building guest ${name}-${isa}")
    list(APPEND outputs ${out})
  endforeach()
  add_custom_target(${G_TARGET} DEPENDS ${outputs})
  if(G_INSTALL)
    install(PROGRAMS ${outputs} DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/asymu)
  endif()
  add_dependencies(guests ${G_TARGET})
endfunction()
