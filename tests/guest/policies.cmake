# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/policies.cmake: the guest programs of the asymmetric-AArch32
# policy tests (tests/e2e/policies.cmake), each built for both ISAs.
asymu_guest_program(pol-launch pol-launch.c)
asymu_guest_program(pol-many pol-many.c)
asymu_guest_program(pol-show pol-show.c EXTRA -pthread)
asymu_guest_program(pol-affinity-calls pol-affinity-calls.c EXTRA -pthread)
