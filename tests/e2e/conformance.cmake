# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests for what running CPython's test suite (tests/conformance)
# found broken in asymu itself.

# rename(2) and renameat(2) with flags 0 in the private /tmp: the emulator
# once made a host renameat, which its sandbox refused (status 70). In a
# directory of its own there: a stray host /tmp/a (the private /tmp lies
# over the host's) once answered for the renamed /tmp/a.
asymu_e2e_guest(NAME rename PROGRAM rename EXPECT_STDOUT_TEXT
"make /tmp/rename.d/a 5
make /tmp/rename.d/b 6
rename a b 0
read /tmp/rename.d/a ENOENT
read /tmp/rename.d/b 5 first
renameat b c 0
read /tmp/rename.d/c 5 first
make /tmp/rename.d/d 5
renameat2 0 d c 0
read /tmp/rename.d/c 5 third
make /tmp/rename.d/e 6
renameat2 noreplace e c EEXIST
renameat2 badflag e f EINVAL
rename missing ENOENT
read /tmp/rename.d/e 6 fourth
")
