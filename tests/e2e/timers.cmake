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
