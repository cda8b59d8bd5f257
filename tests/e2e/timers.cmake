# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/timers.cmake: Linux's restart rules for interrupted syscalls
# (tests/guest/restart.c names the cases: call-how), POSIX timers, itimers
# and CPU clocks (tests/guest/timers.c). Every expected line was checked
# against qemu-user on the host kernel unless noted.

# asymu_e2e_restart(CASE "expected stdout" [ISAS ...] [ASYMU_ONLY])
function(asymu_e2e_restart case text)
  asymu_e2e_guest(NAME restart-${case} PROGRAM restart GUEST_ARGS ${case}
                  EXPECT_STDOUT_TEXT "${text}" ${ARGN})
endfunction()

# ERESTARTSYS: again after an SA_RESTART handler or no handler, else EINTR.
asymu_e2e_restart(read-handler "read -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(read-restart "read 1 ok, handler ran 1, after 0.5 s\n")
asymu_e2e_restart(read-stop "read 1 ok, handler ran 0, after 0.5 s\n")
asymu_e2e_restart(read-ignored "read 1 ok, handler ran 0, after 0.5 s\n")
asymu_e2e_restart(wait-handler "waitpid -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(wait-restart "waitpid 0 ok, handler ran 1, after 0.5 s\nchild exited 7\n")
asymu_e2e_restart(wait-stop "waitpid 0 ok, handler ran 0, after 0.5 s\nchild exited 7\n")
asymu_e2e_restart(futex-handler "futex -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(futex-restart "futex 0 ok, handler ran 1, after 0.5 s\n")
asymu_e2e_restart(futex-stop "futex 0 ok, handler ran 0, after 0.5 s\n")

# ERESTARTNOHAND: again only when no handler ran (sigsuspend with an
# SA_RESTART handler used to run again and deadlock: coreutils timeout).
asymu_e2e_restart(sigsuspend-handler "sigsuspend -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(sigsuspend-restart "sigsuspend -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(sigsuspend-stop "sigsuspend -1 EINTR, handler ran 1, after 0.5 s\n")
asymu_e2e_restart(sigsuspend-ignored "sigsuspend -1 EINTR, handler ran 1, after 0.5 s\n")
asymu_e2e_restart(pause-restart "pause -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(pause-stop "pause -1 EINTR, handler ran 1, after 0.5 s\n")
asymu_e2e_restart(ppoll-restart "ppoll -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(ppoll-stop "ppoll 1 ok, handler ran 0, after 0.5 s\n")
asymu_e2e_restart(absleep-restart "clock_nanosleep abs -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(absleep-stop "clock_nanosleep abs 0 ok, handler ran 0, after 1.0 s\n")

# ERESTART_RESTARTBLOCK: EINTR after any handler; with none, restart_syscall
# goes on to the first deadline.
asymu_e2e_restart(nanosleep-handler
                  "nanosleep -1 EINTR, handler ran 1, after 0.1 s\ntime left 0.9 s\n")
asymu_e2e_restart(nanosleep-restart
                  "nanosleep -1 EINTR, handler ran 1, after 0.1 s\ntime left 0.9 s\n")
asymu_e2e_restart(nanosleep-stop "nanosleep 0 ok, handler ran 0, after 1.0 s\n")
asymu_e2e_restart(futex-timed-restart "futex timed -1 EINTR, handler ran 1, after 0.1 s\n")
asymu_e2e_restart(futex-timed-stop "futex timed 0 ok, handler ran 0, after 0.5 s\n")
asymu_e2e_restart(poll-restart "poll -1 EINTR, handler ran 1, after 0.1 s\n")
# arm's poll restarts to its first deadline (1.0 s); arm64's glibc poll is
# ppoll, which left 0.9 s in its timespec at the stop and waits that long
# after SIGCONT (1.2 s). qemu-user gives 1.2 s on arm: it has no restart
# block.
asymu_e2e_restart(poll-stop "poll 0 ok, handler ran 0, after 1.2 s\n" ISAS aarch64)
asymu_e2e_restart(poll-stop "poll 0 ok, handler ran 0, after 1.0 s\n" ISAS armhf ASYMU_ONLY)
# Linux's restart block is do_no_restart_syscall until a call sets it
# (qemu-user lacks restart_syscall: ENOSYS).
asymu_e2e_restart(restart_syscall "restart_syscall -1 EINTR\n" ASYMU_ONLY)

# POSIX timers, itimers and CPU time (tests/guest/timers.c). qemu-user keeps
# timers of its own (ids from 0x0caf0000, si_timerid its own) and cannot
# execve a foreign binary without binfmt: those cases are asymu's only.
asymu_e2e_guest(NAME timers-posix PROGRAM timers GUEST_ARGS posix ASYMU_ONLY
                EXPECT_STDOUT_TEXT "ids 0 1 2
armed: value 0.10 interval 0.00
signal 10 after 0.10 s: si_code SI_TIMER si_timerid 2 si_overrun 0 si_value 44
fired: value 0.00
timer_gettime deleted: -1 EINVAL
timer_delete deleted: -1 EINVAL
timer_getoverrun deleted: -1 EINVAL
timer_create clock 99: -1 EINVAL
timer_create MONOTONIC_RAW: -1 EOPNOTSUPP
timer_create signal 65: -1 EINVAL
timer_create notify 99: -1 EINVAL
timer_settime nsec 1e9: -1 EINVAL
next id 5
")
asymu_e2e_guest(NAME timers-overrun PROGRAM timers GUEST_ARGS overrun
                EXPECT_STDOUT_TEXT "si_overrun 9 timer_getoverrun 9
interval 0.01, next expiry within it: yes
si_overrun 0 timer_getoverrun 0
")
asymu_e2e_guest(NAME timers-none PROGRAM timers GUEST_ARGS none
                EXPECT_STDOUT_TEXT "after 0.02 s: value 0.03
after 0.06 s: value 0.00
periodic after 0.075 s: value 0.01 interval 0.02
")
asymu_e2e_guest(NAME timers-abstime PROGRAM timers GUEST_ARGS abstime
                EXPECT_STDOUT_TEXT "absolute timer fired after 0.05 s
disarmed: old value 0.15 interval 0.10
now value 0.00 interval 0.00
")
asymu_e2e_guest(NAME timers-thread PROGRAM timers GUEST_ARGS thread ASYMU_ONLY
                EXPECT_STDOUT_TEXT "SIGEV_THREAD: 5 calls with value 77
SIGEV_THREAD_ID: the thread took signal 12 of timer ok
SIGEV_THREAD_ID to another tid: -1 EINVAL
")
asymu_e2e_guest(NAME timers-itimer PROGRAM timers GUEST_ARGS itimer
                EXPECT_STDOUT_TEXT "armed: 0.05 s
SIGALRM after 0.05 s, si_code SI_KERNEL
fired: 0.000000
periodic: 5 SIGALRMs in 0.105 s, interval was 20000 us
alarm(0) after 0.4 s of 10: 10
setitimer 3: -1 EINVAL
setitimer usec 1000000: -1 EINVAL
getitimer -1: -1 EINVAL
")
asymu_e2e_guest(NAME timers-cpu PROGRAM timers GUEST_ARGS cpu
                EXPECT_STDOUT_TEXT "200 ms asleep cost less than 10 ms of CPU: yes
ITIMER_VIRTUAL: 3 signals, after 30-40 ms of CPU: yes
ITIMER_PROF: 1 signal, then value 0.000000
CLOCK_PROCESS_CPUTIME_ID timer: 1 signal, after 20-30 ms of thread CPU: yes
times: at least 5 ticks of user time: yes
getrusage within 1 ms of CLOCK_PROCESS_CPUTIME_ID: yes
getrusage 5: -1 EINVAL
the reaped child's CPU time counts: yes
")
# coreutils timeout's pattern: it hung while sigsuspend restarted after its
# SA_RESTART handlers.
asymu_e2e_guest(NAME timers-timeout PROGRAM timers GUEST_ARGS timeout
                EXPECT_STDOUT_TEXT "child killed by signal 15 after 0.1 s\n")
asymu_e2e_guest(NAME timers-exec PROGRAM timers GUEST_ARGS exec ASYMU_ONLY
                EXPECT_STDOUT_TEXT "fork child: ITIMER_REAL value 0 s, timer_gettime EINVAL
after execve: ITIMER_REAL value 5 s, timer_gettime EINVAL
")

# clock_settime: CLOCK_REALTIME moves for the whole machine; Linux's errors
# (CPython's test_clock_settime, test_monotonic_settime). Asymu only: on a
# host as root it would set the host's clock.
asymu_e2e_guest(NAME clock-settime PROGRAM settime
  EXPECT_STDOUT_TEXT "set CLOCK_REALTIME 1000 s ahead: 0\nrealtime moved by 1000 s: yes\nmonotonic moved by under 1 s: yes\na child sees it: yes\nset CLOCK_MONOTONIC: EINVAL\nset CLOCK_REALTIME tv_nsec 1e9: EINVAL\nset clock 99: EINVAL\nset from a bad pointer: EFAULT\nset it back: 0\nback within 1 s: yes\n")
