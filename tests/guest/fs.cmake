# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/fs.cmake: the guest programs of the file-system tests
# (tests/e2e/fs.cmake), each built for both ISAs.
asymu_guest_program(fs-symlinks fs-symlinks.c)
asymu_guest_program(fs-calls fs-calls.c)
asymu_guest_program(splice splice.c)
