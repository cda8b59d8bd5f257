# SPDX-License-Identifier: GPL-2.0-or-later
# The control socket (asymu run --control, asymu ctl; docs/control.md): a
# two-ISA workload stopped, inspected, hotplugged, stepped and continued
# from the host (control.py), with the first process of each ISA.
foreach(isa aarch64 armhf)
  add_test(NAME e2e-control-${isa}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/control.py $<TARGET_FILE:asymu>
            ${GUEST_DIR} ${isa})
  set_tests_properties(e2e-control-${isa} PROPERTIES TIMEOUT 300)
endforeach()

# asymu top in a tmux pane, read with capture-pane (control-top.sh).
add_test(NAME e2e-control-top
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/control-top.sh $<TARGET_FILE:asymu> ${GUEST_DIR})
set_tests_properties(e2e-control-top PROPERTIES TIMEOUT 300)

# setaffinity from outside of a 64-bit task in a cpuset: cut to it (CG3),
# EINVAL when nothing is left (control_cpuset.py).
add_test(NAME e2e-control-cg3-setaffinity-cpuset
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/control_cpuset.py $<TARGET_FILE:asymu>
          ${GUEST_DIR} aarch64)
set_tests_properties(e2e-control-cg3-setaffinity-cpuset PROPERTIES TIMEOUT 300)
