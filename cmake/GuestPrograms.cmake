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
#
# The guest programs do not depend on how asymu itself is built (sanitizers,
# clang, build type), so the trees `make` configures share one build of them
# (issue 25 part 3): a tree configured with ASYMU_GUESTS_ONLY=ON compiles the
# guest programs and nothing else (build-guests/), and a tree configured with
# ASYMU_GUEST_BUILD=DIR takes them from there. Such a tree configures DIR if
# it is not yet, runs `cmake --build DIR` before anything needs a guest (so an
# edited guest source is rebuilt there, by the depfiles of DIR's ninja), and
# hard-links each program (or copies it, across file systems) to the path
# its own build would have written: tests, scripts and asymu's search for
# the programs of example scenarios (find_program, beside the asymu binary)
# see the same files at the same places either way.
include(GNUInstallDirs)
find_program(ASYMU_CC_AARCH64 aarch64-linux-gnu-gcc REQUIRED)
find_program(ASYMU_CC_ARMHF arm-linux-gnueabihf-gcc REQUIRED)
option(ASYMU_GUESTS_ONLY "Build only the guest programs, for trees configured with ASYMU_GUEST_BUILD" OFF)
set(ASYMU_GUEST_BUILD "" CACHE PATH
    "Take the guest programs from this ASYMU_GUESTS_ONLY build tree instead of compiling them here")
if(ASYMU_GUEST_BUILD AND ASYMU_GUESTS_ONLY)
  message(FATAL_ERROR "ASYMU_GUEST_BUILD and ASYMU_GUESTS_ONLY exclude each other")
endif()
if(NOT TARGET guests)
  add_custom_target(guests ALL)
endif()

if(ASYMU_GUEST_BUILD)
  get_filename_component(ASYMU_GUEST_BUILD "${ASYMU_GUEST_BUILD}" ABSOLUTE)
  if(NOT EXISTS ${ASYMU_GUEST_BUILD}/build.ninja AND NOT EXISTS ${ASYMU_GUEST_BUILD}/Makefile)
    message(STATUS "Configuring the guest programs' tree ${ASYMU_GUEST_BUILD}")
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR} -B ${ASYMU_GUEST_BUILD}
                            -G ${CMAKE_GENERATOR} -DASYMU_GUESTS_ONLY=ON
                    RESULT_VARIABLE _guest_configure)
    if(NOT _guest_configure EQUAL 0)
      message(FATAL_ERROR "Could not configure ${ASYMU_GUEST_BUILD} (ASYMU_GUEST_BUILD)")
    endif()
  endif()
  # guest-tree: builds the shared tree. It declares every program it brings
  # as a byproduct (listed once all directories are read), so that ninja
  # knows where the links' inputs come from and relinks only what changed.
  function(_asymu_guest_tree)
    get_property(shared GLOBAL PROPERTY ASYMU_SHARED_GUESTS)
    add_custom_target(guest-tree
      COMMAND ${CMAKE_COMMAND} --build ${ASYMU_GUEST_BUILD}
      BYPRODUCTS ${shared}
      COMMENT "Building the guest programs in ${ASYMU_GUEST_BUILD}"
      USES_TERMINAL)
  endfunction()
  cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL _asymu_guest_tree)
endif()

# asymu_guest_command(OUTPUT file COMMAND command... DEPENDS files...
#                     [DEPFILE file] COMMENT text)
# The rule that writes one guest program: here, or in ASYMU_GUEST_BUILD and
# linked here. The target the program belongs to goes to asymu_guest_target.
function(asymu_guest_command)
  cmake_parse_arguments(PARSE_ARGV 0 C "" "OUTPUT;DEPFILE;COMMENT" "COMMAND;DEPENDS")
  if(NOT ASYMU_GUEST_BUILD)
    set(depfile)
    if(C_DEPFILE)
      set(depfile DEPFILE ${C_DEPFILE})
    endif()
    add_custom_command(OUTPUT ${C_OUTPUT} COMMAND ${C_COMMAND} DEPENDS ${C_DEPENDS} ${depfile}
                       COMMENT "${C_COMMENT}")
    return()
  endif()
  file(RELATIVE_PATH rel ${CMAKE_BINARY_DIR} ${C_OUTPUT})
  set(shared ${ASYMU_GUEST_BUILD}/${rel})
  set_property(GLOBAL APPEND PROPERTY ASYMU_SHARED_GUESTS ${shared})
  add_custom_command(OUTPUT ${C_OUTPUT}
    COMMAND sh -c "ln -f \"$0\" \"$1\" 2>/dev/null || cp -f \"$0\" \"$1\"" ${shared} ${C_OUTPUT}
    DEPENDS ${shared}
    COMMENT "Linking guest ${rel} from ${ASYMU_GUEST_BUILD}"
    VERBATIM)
endfunction()

# Ties target t (made of guest programs) into `guests`, after guest-tree.
function(asymu_guest_target t)
  add_dependencies(guests ${t})
  if(ASYMU_GUEST_BUILD)
    add_dependencies(${t} guest-tree)
  endif()
endfunction()

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
    asymu_guest_command(OUTPUT ${out}
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
  asymu_guest_target(${G_TARGET})
endfunction()
