# SPDX-License-Identifier: GPL-2.0-or-later
# /dev/shm and named pipes (tests/e2e/devshm.cmake).
asymu_guest_program(devshm devshm.c)
asymu_guest_program(fifo fifo.c)
