# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/sysfs.cmake: the guest program of the sysfs tests
# (tests/e2e/sysfs.cmake), which reads /sys, /proc and /dev.
asymu_guest_program(sysfs-read sysfs-read.c EXTRA -pthread)
