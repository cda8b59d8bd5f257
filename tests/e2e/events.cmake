# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/events.cmake: event descriptors (docs/ipc.md "Event
# descriptors"): epoll, eventfd, timerfd, signalfd and pidfd, each guest
# printing errnos, event masks, data fields and expiration counts. The
# outputs are what Linux prints (checked under qemu-user, which forwards to
# the host kernel), except epoll_pwait2, which qemu-user lacks.

asymu_e2e_guest(NAME epoll-ctl PROGRAM epoll GUEST_ARGS ctl EXPECT_STDOUT_TEXT
"sizeof 16 offsetof data 8
create1 bad flags: EINVAL
create size 0: EINVAL
cloexec 1
link anon_inode:[eventpoll]
regular file: EPERM
self: EINVAL
not an epoll: EINVAL
bad epfd: EBADF
bad fd: EBADF
bad event: EFAULT
del without event: ENOENT
mod missing: ENOENT
add: 0
add again: EEXIST
bad op: EINVAL
mod exclusive: EINVAL
add exclusive: 0
mod of exclusive: EINVAL
exclusive with pri: EINVAL
del: 0
del again: ENOENT
nest: 0
loop: ELOOP
exclusive epoll: EINVAL
maxevents 0: EINVAL
maxevents -1: EINVAL
wait bad fd: EBADF
wait not epoll: EINVAL
wait nothing: 0
pwait bad sigsetsize: EINVAL
")

# Level-triggered items report while ready; edge-triggered ones after a
# change that concerns them (a partial read does not, a pipe read frees
# no room for an edge-triggered writer unless the pipe was full); oneshot
# ones once until EPOLL_CTL_MOD.
asymu_e2e_guest(NAME epoll-modes PROGRAM epoll GUEST_ARGS modes EXPECT_STDOUT_TEXT
"empty: 0
written: 3 0x1/1 0x1/2 0x1/3
again: 1 0x1/1
after partial reads: 1 0x1/1
more data: 2 0x1/1 0x1/2
oneshot rearmed: 2 0x1/1 0x1/4
writer closed: 1 0x11/2
writer closed again: 0
writable: 1 0x4/5
writable after write: 0
writable after read: 0
reader closed: 1 0xc/5
")

# An item lives as long as its file description, not its fd.
asymu_e2e_guest(NAME epoll-lifetime PROGRAM epoll GUEST_ARGS lifetime EXPECT_STDOUT_TEXT
"original closed: 1 0x1/7
del closed fd: EBADF
del the dup: ENOENT
add the dup: 0
dup added: 2 0x1/7 0x1/8
description closed: 0
shared with a child: 1 0x1/9
child gone: 0
")

asymu_e2e_guest(NAME epoll-nested PROGRAM epoll GUEST_ARGS nested EXPECT_STDOUT_TEXT
"poll empty: 0 0
outer empty: 0
poll ready: 1 0x1
outer: 1 0x1/2
outer again: 0
inner: 1 0x1/1
poll drained: 0 0
select drained: 0
select ready: 1 1
outer after write: 1 0x1/2
")

# The ready list's order: wake order, and reported level-triggered items
# go to its tail.
asymu_e2e_guest(NAME epoll-order PROGRAM epoll GUEST_ARGS order EXPECT_STDOUT_TEXT
"first two: 2 0x1/2 0x1/0
next two: 2 0x1/1 0x1/2
all: 3 0x1/0 0x1/1 0x1/2
")

asymu_e2e_guest(NAME epoll-wait PROGRAM epoll GUEST_ARGS wait EXPECT_STDOUT_TEXT
"timeout 30ms: 0
waited at least 30ms: 1
blocked until written: 1 0x1/5
pwait interrupted: -1 EINTR caught 10
usr1 blocked again: 1
")

asymu_e2e_guest(NAME epoll-pwait2 PROGRAM epoll GUEST_ARGS pwait2 ASYMU_ONLY EXPECT_STDOUT_TEXT
"pwait2 20ms: 0
waited at least 20ms: 1
pwait2 bad timespec: EINVAL
pwait2 bad pointer: EFAULT
pwait2 no timeout: 1
event 0x1/6
")

asymu_e2e_guest(NAME eventfd PROGRAM eventfd EXPECT_STDOUT_TEXT
"bad flags: EINVAL
cloexec 1 nonblock 1
link anon_inode:[eventfd]
poll 3: 1 0x5
read: 8 3
read empty: EAGAIN
poll 0: 1 0x4
write 5: 8
write 7: 8
read sum: 8 12
short write: EINVAL
write 1: 8
short read: EINVAL
long read: 8
write max+1: EINVAL
write max: 8
poll max: 1 0x1
write over: EAGAIN
write 0 at max: 8
read max: 8 18446744073709551614
sem read: 8 1
sem read: 8 1
sem read empty: EAGAIN
blocked read: 8 42
fill: 8
blocked write: 8
after: 8 9
legacy eventfd: 8 4
")

asymu_e2e_guest(NAME timerfd PROGRAM timerfd EXPECT_STDOUT_TEXT
"bad clock: EINVAL
bad flags: EINVAL
cloexec 1
link anon_inode:[timerfd]
bad nsec: EINVAL
bad settime flags: EINVAL
settime on a pipe: EINVAL
settime bad fd: EBADF
disarmed: 0 0
read disarmed: EAGAIN
short read: EINVAL
left in (50,100]: 1 interval 0
read early: EAGAIN
epoll: 1 0x1/77
read expired: 8 1
after: 0 0
periodic after 50ms: 8 2
old interval 20ms value in (0,20]: 1
read after disarm: EAGAIN
abs past: 8 10
realtime abs: 0
blocking read: 8 1
boottime abs: 0
blocking read: 8 1
settime32: 0
gettime32 left in (0,10]: 1
read32: 8 1
settime64: 0
gettime64 interval 5ms left in (0,10]: 1
read64: 8 1
")

asymu_e2e_guest(NAME signalfd PROGRAM signalfd EXPECT_STDOUT_TEXT
"sizeof 128
bad flags: EINVAL
bad mask: EFAULT
not a signalfd: EINVAL
bad fd: EBADF
cloexec 1
link anon_inode:[signalfd]
empty: EAGAIN
poll empty: 0 0
poll: 1 0x1
short read: EINVAL
kill: 128 [signo 10 code 0 self 1 int 0 ptr 0 status 0]
two queued: 256 [signo 34 code -1 self 1 int 1 ptr 1 status 0] [signo 34 code -1 self 1 int 2 ptr 2 status 0]
epoll usr2 not in mask: 0
new mask: 1
epoll with usr2: 1 0x1/5
usr2: 128 [signo 12 code 0 self 1 int 0 ptr 0 status 0]
blocked read: signo 10 from child 1
child: signo 17 code 1 status 7 from child 1
legacy: 128 [signo 12 code -6 self 1 int 0 ptr 0 status 0]
")

asymu_e2e_guest(NAME pidfd PROGRAM pidfd EXPECT_STDOUT_TEXT
"pid 0: EINVAL
bad flags: EINVAL
no such pid: ESRCH
cloexec 1
link anon_inode:[pidfd]
poll self: 0 0
signal 0 to self: 0
bad flags to send: EINVAL
send on a pipe: EBADF
bad signal: EINVAL
waitid self: ECHILD
waitid not a pidfd: EBADF
running: 0 0
nonblocking waitid: EAGAIN
epoll exit: 1 0x1/9
exited: 1 0x1
signal to a zombie: 0
waitid: 0
si: pid 1 code 1 status 3
reaped: 1 0x1
signal after reap: ESRCH
waitid after reap: ECHILD
sigterm: 0
killed by 15
")
