# SPDX-License-Identifier: GPL-2.0-or-later
# The main demo (`make demo`, examples/demo.sh) prints what it should, from
# the build tree (e2e-demo) and from the Debian package built from this
# source (e2e-package-deb: dpkg-buildpackage, lintian, the unpacked demo;
# tests/e2e/package.sh). Paths are normalised by demo-check.sh.
add_test(NAME e2e-demo
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/demo-check.sh
                 ${CMAKE_CURRENT_SOURCE_DIR}/expected/demo.out
                 ${PROJECT_SOURCE_DIR}/examples/demo.sh ${CMAKE_BINARY_DIR})
add_test(NAME e2e-package-deb
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/package.sh ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_SOURCE_DIR}/expected/demo.out)
set_tests_properties(e2e-demo PROPERTIES LABELS e2e TIMEOUT 120)
# The package builds asymu again from scratch: the longest test, started first.
set_tests_properties(e2e-package-deb PROPERTIES LABELS e2e TIMEOUT 1200 COST 10000)
