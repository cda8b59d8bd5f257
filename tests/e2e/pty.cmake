# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/pty.cmake: pseudo-terminals (docs/ipc.md "Pseudo-terminals").
# The expected output is what Linux prints when the guest program is built
# for the host and run there, except the slave's mode and group: 0620 and
# group 5 (tty), what Debian mounts devpts with (gid=5,mode=620).

asymu_e2e_guest(NAME pty PROGRAM pty EXPECT_STDOUT_TEXT
"== open
grantpt 0
ptsname /dev/pts/0
TIOCGPTN 0 0
TIOCGPTLCK 0 1
open locked: EIO
unlockpt 0
open slave: ok
slave mode 20620 gid 5 rdev 136,0 same 1
master mode 20666 rdev 5,2
isatty 1 1
ttyname /dev/pts/0
TIOCGPTN on slave: ENOTTY
/dev/pts/0 type 2
TIOCGPTPEER ttyname /dev/pts/0
second /dev/pts/1
== line
iflag 2400 oflag 5 lflag 105073 cflag 277 VMIN 1 VEOF 4 VERASE 127
write slave 3
master reads: \"hi\\r\\n\" (4)
write master 6
slave reads: \"abd\\n\" (4)
echo: \"abc\\b \\bd\\r\\n\" (9)
FIONREAD 4
first line: \"one\\n\" (4)
partial line: EAGAIN
after KILL: \"three\\n\" (6)
VEOF line: \"end\" (3)
VEOF alone: \"\" (0)
echo: \"one\\r\\ntwoxx\\b \\b\\b \\b\\b \\b\\b \\b\\b \\bthree\\r\\nend\" (35)
TIOCOUTQ 0
after TCIFLUSH: EAGAIN
tcsetattr 0
master sees lflag 5060 VMIN 0
raw read: \"a\\rb\\n\\x03\" (5)
raw echo: EAGAIN
raw output: \"x\\n\" (2)
VMIN 0 read: \"\" (0)
TIOCSWINSZ 0
TIOCGWINSZ 24 80 1 2
TIOCGPGRP not ctty: ENOTTY
TIOCSCTTY not leader: EPERM
== poll
poll 2: master 4 slave 4
poll 2: master 5 slave 4
poll 2: master 5 slave 5
poll 1: master 15
master after slave closed: \"xy\\r\\n\" (4)
master again: EIO
reopened slave: \"back\" (4)
hung-up poll 1: slave 1d
hung-up slave read: \"\" (0)
hung-up slave write: EIO
hung-up TCGETS: EIO
node after master closed: ENOENT
== job control
child TIOCSCTTY before setsid: EPERM
child setsid ok
child TIOCGSID without ctty: ENOTTY
child ctty by open: sid self pgrp self
child tcgetsid self
child TIOCSCTTY again: 0
child /dev/tty is /dev/tty
parent reads: \"via tty\\r\\n\" (9)
master TIOCGPGRP child
child exit 11
echo of ^C: \"^C\" (2)
parent TIOCNOTTY: ENOTTY
")
