# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/mm.cmake: the guest programs of the memory tests
# (tests/e2e/mm.cmake), each built for both ISAs.
asymu_guest_program(shmem shmem.c)
asymu_guest_program(windows windows.c)
