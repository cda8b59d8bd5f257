# SPDX-License-Identifier: GPL-2.0-or-later
# The file-system parts of issue 11.

# /dev/shm: a private tmpfs sharing --tmp-size with /tmp (shm_open, what
# sem_open does there, EXDEV to /tmp), and the guest's own mount table.
asymu_e2e_guest(NAME devshm PROGRAM devshm OPTIONS --tmp-size 64M
                EXPECT_STDOUT_TEXT "/dev/shm mode 41777
access /dev/shm W_OK: 0
statfs /dev/shm type 0x1021994 blocks 16384
/dev lists shm: yes, right type
shm_open /x: ok
ftruncate 4096: 0
/tmp free blocks after: 1
fstat size 4096 mode 100600
shm_open /x O_EXCL: EEXIST
/dev/shm lists x: yes, right type
shm_unlink /x: 0
shm_unlink /x again: ENOENT
/dev/shm entries: 0
open temp: ok
link to sem.s: 0
link again: EEXIST
unlink temp: 0
sem.s links 1 mode 100600
rename in /dev/shm: 0
rename to /tmp: EXDEV
link to /tmp: EXDEV
symlink: 0
through the symlink: mode 100600
mkdir: 0
rmdir: 0
rmdir /dev/shm: EBUSY
/dev/shm entries: 0
mountinfo:
21 1 = / / ro,relatime - FS /dev/root ro
22 21 = / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs rw
23 21 = / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
24 21 = / /dev rw,nosuid,nodev,noexec,relatime - devtmpfs udev rw,mode=755
25 24 = / /dev/pts rw,nosuid,nodev,noexec,relatime - devpts devpts rw,gid=5,mode=620,ptmxmode=000
26 24 = / /dev/shm rw,nosuid,nodev,relatime - tmpfs tmpfs rw,size=65536k
27 22 = / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
28 21 = / /tmp rw,nosuid,nodev,relatime - tmpfs tmpfs rw,size=65536k
29 22 = / /sys/kernel/debug rw,nosuid,nodev,noexec,relatime - debugfs debugfs rw
30 22 = / /sys/kernel/tracing rw,nosuid,nodev,noexec,relatime - tracefs tracefs rw
31 24 = / /dev/mqueue rw,nosuid,nodev,noexec,relatime - mqueue mqueue rw
mounts:
/dev/root / FS ro,relatime 0 0
sysfs /sys sysfs rw,nosuid,nodev,noexec,relatime 0 0
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
udev /dev devtmpfs rw,nosuid,nodev,noexec,relatime,mode=755 0 0
devpts /dev/pts devpts rw,nosuid,nodev,noexec,relatime,gid=5,mode=620,ptmxmode=000 0 0
tmpfs /dev/shm tmpfs rw,nosuid,nodev,relatime,size=65536k 0 0
cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0
tmpfs /tmp tmpfs rw,nosuid,nodev,relatime,size=65536k 0 0
debugfs /sys/kernel/debug debugfs rw,nosuid,nodev,noexec,relatime 0 0
tracefs /sys/kernel/tracing tracefs rw,nosuid,nodev,noexec,relatime 0 0
mqueue /dev/mqueue mqueue rw,nosuid,nodev,noexec,relatime 0 0
")

# Named pipes with Linux's open and blocking rules (emu/fs/fifo.c); the same
# output as under qemu-user.
asymu_e2e_guest(NAME fifo-rules PROGRAM fifo
                EXPECT_STDOUT_TEXT "O_WRONLY|O_NONBLOCK, no reader: ENXIO
O_RDONLY|O_NONBLOCK: opened
read, never a writer: 0
poll, never a writer: 0 revents 0
O_WRONLY|O_NONBLOCK with a reader: opened
poll after the writer went: 1 revents 0x10
O_WRONLY waited for the reader: yes
write: 10
child read 10 bytes, then 0
child status 0
write without a reader: -1 EPIPE
read: 5 \"hello\" after data: yes
read after the writer closed: 0
poll: 1 revents 0x10
child status 0
open interrupted: -1 EINTR after 1 s
")
