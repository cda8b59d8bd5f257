# SPDX-License-Identifier: GPL-2.0-or-later
# End-to-end tests for what running CPython's test suite (tests/conformance)
# found broken in asymu itself.

# rename(2) and renameat(2) with flags 0 in the private /tmp: the emulator
# once made a host renameat, which its sandbox refused (status 70).
asymu_e2e_guest(NAME rename PROGRAM rename EXPECT_STDOUT_TEXT
"make /tmp/a 5
make /tmp/b 6
rename a b 0
read /tmp/a ENOENT
read /tmp/b 5 first
renameat b c 0
read /tmp/c 5 first
make /tmp/d 5
renameat2 0 d c 0
read /tmp/c 5 third
make /tmp/e 6
renameat2 noreplace e c EEXIST
renameat2 badflag e f EINVAL
rename missing ENOENT
read /tmp/e 6 fourth
")
