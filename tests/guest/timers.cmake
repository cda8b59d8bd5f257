# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/timers.cmake: the guest programs of the signal-restart and
# timer tests (tests/e2e/timers.cmake), each built for both ISAs.
asymu_guest_program(restart restart.c EXTRA -pthread)
asymu_guest_program(timers timers.c EXTRA -pthread)
