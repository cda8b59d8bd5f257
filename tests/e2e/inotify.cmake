# SPDX-License-Identifier: GPL-2.0-or-later
# tests/e2e/inotify.cmake: inotify (issue 26 item 5, docs/guest-root.md
# "inotify"), tests/guest/inotify.c on both ISAs; the expected outputs are
# expected/inotify-issue26-*.out. A strong check: the same guest binaries
# under qemu-user print the same outputs, the host kernel's own inotify
# answering (Linux 6.18 on the machine that wrote them), for api, events,
# special, block and overflow. Not for `trunc`: Linux 5.15, asymu's
# reference, tells an open(O_TRUNC)'s IN_MODIFY before its IN_OPEN and
# gives an O_PATH open IN_OPEN and IN_CLOSE_NOWRITE; 6.5 and later tell
# IN_OPEN first (from do_dentry_open) and nothing for O_PATH. Nor for
# `limits`: the host's max_user_watches is its own RAM's, asymu's the
# guest's (33765 for the default 4 GiB).

# The calls' errnos and their order, wds (one per inode, cyclic), the
# read format (names padded with NULs to 16), EINVAL for a buffer too small,
# EAGAIN, FIONREAD, poll, write EBADF, lseek (noop_llseek).
asymu_e2e_guest(NAME inotify-issue26-api PROGRAM inotify GUEST_ARGS api)
# Every kind of event on a directory's watch (with the child's name) and a
# file's, in Linux's order: create, open, modify (merged when the same
# twice), access, close, attrib (chmod, chown, utimensat), truncate, mkdir,
# getdents, rename (one cookie), link, symlink, mknod, unlink, rmdir, the
# inode's end (IN_DELETE_SELF, IN_IGNORED).
asymu_e2e_guest(NAME inotify-issue26-events PROGRAM inotify GUEST_ARGS events)
# IN_ONESHOT, IN_MASK_ADD and a replaced mask, IN_EXCL_UNLINK against a
# plain watch, an unlinked file whose inode goes at its last close, a rename
# over a watched file, a rename onto a link of the same inode (nothing).
asymu_e2e_guest(NAME inotify-issue26-special PROGRAM inotify GUEST_ARGS special)
# A blocking read woken by another process's create, then poll and epoll;
# a signal without SA_RESTART ends a blocked read with EINTR.
asymu_e2e_guest(NAME inotify-issue26-block PROGRAM inotify GUEST_ARGS block)
# 16400 events: 16384 queued, then one IN_Q_OVERFLOW (wd -1), FIONREAD
# counting them; a new event once the queue was read.
asymu_e2e_guest(NAME inotify-issue26-overflow PROGRAM inotify GUEST_ARGS overflow)
asymu_e2e_guest(NAME inotify-issue26-trunc PROGRAM inotify GUEST_ARGS trunc ASYMU_ONLY)
# /proc/sys/fs/inotify and EMFILE past max_user_instances (128).
asymu_e2e_guest(NAME inotify-issue26-limits PROGRAM inotify GUEST_ARGS limits ASYMU_ONLY)
# ENOSPC past max_user_watches (8192 with --max-mem 256M: 1% of it holds
# fewer, the floor holds), counted over the user's two instances; a change
# to an existing watch still works, and a removed one makes room.
asymu_e2e_guest(NAME inotify-issue26-enospc PROGRAM inotify GUEST_ARGS enospc
                OPTIONS --max-mem 256M ASYMU_ONLY EXPECT_STDOUT_TEXT
"watches 8192 of 8192
one more: ENOSPC
an existing one changed: 1
rm: 0
then one more: 4097
")

# coreutils' `tail -f` (Debian 12's, in the conformance roots,
# docs/conformance.md) watches the file with inotify_add_watch(IN_MODIFY)
# and sees the line another guest process (the shell) appends. `-s 1000`
# makes its polling fallback wait 1000 s between looks, so only an inotify
# event can bring the line within the test (with ---disable-inotify it
# prints "one" and "end" only).
foreach(isa arm64 armhf)
  set(_root ${CMAKE_BINARY_DIR}/conformance/root-${isa})
  add_test(NAME conformance-tail-f-inotify-issue26-${isa}
           COMMAND sh -c "test -x \"$1/usr/bin/tail\" || exit 77; \"$0\" run --sysroot \"$1\" -- /bin/sh -c 'echo one > /tmp/log; tail -s 1000 -f /tmp/log & sleep 1; echo two >> /tmp/log; sleep 1; kill $!; echo end'"
                   $<TARGET_FILE:asymu> ${_root})
  set_tests_properties(conformance-tail-f-inotify-issue26-${isa} PROPERTIES
                       LABELS conformance TIMEOUT 120 SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED conformance-roots
                       PASS_REGULAR_EXPRESSION "^one\ntwo\nend\n$")
endforeach()
