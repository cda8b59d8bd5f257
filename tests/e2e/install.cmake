# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 25 part 2: asymu installed like Debian software. The manual pages
# render without warnings and cover every option and command (man.sh); the
# bash completion completes what it should (completion.sh); `cmake --install`
# gives an asymu that runs its examples without the build tree (install.sh).
# man-db comes from scripts/bootstrap.
add_test(NAME e2e-install-man-pages
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/man.sh $<TARGET_FILE:asymu> ${PROJECT_SOURCE_DIR})
add_test(NAME e2e-install-bash-completion
         COMMAND sh -c "bash \"$0\" \"$1\" | diff -u \"$2\" -"
                 ${CMAKE_CURRENT_SOURCE_DIR}/completion.sh $<TARGET_FILE:asymu>
                 ${CMAKE_CURRENT_SOURCE_DIR}/expected/cli-completion.out)
add_test(NAME e2e-install-prefix-runs-examples
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install.sh ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(e2e-install-man-pages e2e-install-bash-completion
                     e2e-install-prefix-runs-examples PROPERTIES LABELS e2e TIMEOUT 300)
