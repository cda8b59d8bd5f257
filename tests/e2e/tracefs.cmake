# SPDX-License-Identifier: GPL-2.0-or-later
# tracefs and debugfs inside the machine (issue 28 item 3, docs/tracing.md
# "Tracing inside the machine"): tests/guest/tracefs.c reads and writes
# /sys/kernel/tracing as trace-cmd does. ASYMU_ONLY: the files are asymu's
# (qemu-user shows the host's).

# The files: exact contents, the kernel's parsing of enable, set_event,
# trace_clock, buffer_size_kb, tracing_on and trace_marker's EBADF while
# off; /sys/kernel/debug/sched/features as 5.15 prints it, written as
# cyclicdeadline does; debugfs and tracefs in /proc/self/mounts.
asymu_e2e_guest(NAME tracefs-files PROGRAM tracefs GUEST_ARGS files ASYMU_ONLY
                MACHINE --cpus 4)
# Recording: sched_switch and sched_wakeup enabled through set_event, a
# trace_marker write, a child that yields; then every vCPU's
# trace_pipe_raw read page by page and parsed with the ring buffer's
# headers: the events enabled and the print, by the writer, with its text.
asymu_e2e_guest(NAME tracefs-record PROGRAM tracefs GUEST_ARGS record ASYMU_ONLY
                MACHINE --cpus 4 OPTIONS --check-invariants)
# The same marker in the host-side --trace: JSON and trace.dat.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    add_test(NAME e2e-tracefs-marker-host-${isa}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tracefs_check.py
              $<TARGET_FILE:asymu> ${GUEST_DIR} ${isa} ${CMAKE_CURRENT_BINARY_DIR}/out/tracefs)
    set_tests_properties(e2e-tracefs-marker-host-${isa} PROPERTIES LABELS e2e TIMEOUT 180)
  endforeach()
endif()
# buffer_size_kb bounds the buffer (2 pages for 4 KiB, ring_buffer_resize's
# minimum): 400 markers on cpu0 keep the newest 80, the 320 older ones are
# overrun (the kernel's default overwrite mode), and what is read parses.
asymu_e2e_guest(NAME tracefs-overwrite PROGRAM tracefs GUEST_ARGS overwrite ASYMU_ONLY
                MACHINE --cpus 4
                EXPECT_STDOUT_TEXT "write /sys/kernel/tracing/buffer_size_kb: 1
entries: 80
overrun: 320
pages read: 2, prints: 80, malformed: 0, last: marker 399
")
# The trace and trace_pipe files (issue 28, item 1 of what was left):
# the recorded events as lines of 5.15's text (timestamps shown as T, in
# order), trace read twice the same, trace_pipe in reads of 64 bytes taking
# all then EAGAIN (O_NONBLOCK), the entries of the header, O_TRUNC emptying.
asymu_e2e_guest(NAME tracefs-28-3-text PROGRAM tracefs-text GUEST_ARGS text ASYMU_ONLY
                MACHINE --cpus 4)
# Blocking reads of an empty trace_pipe and trace_pipe_raw wait for a
# marker written 2 ms later, or end with EINTR when a signal comes
# (SA_RESTART or not, as ring_buffer_wait()).
asymu_e2e_guest(NAME tracefs-28-3-wait PROGRAM tracefs-text GUEST_ARGS wait ASYMU_ONLY
                MACHINE --cpus 4)
# The lines of trace are the host-side ftrace text's lines of the same run.
if(NOT ASYMU_E2E_RUNNER)
  foreach(isa aarch64 armhf)
    add_test(NAME e2e-tracefs-28-3-host-${isa}
      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tracefs_text_check.py
              $<TARGET_FILE:asymu> ${GUEST_DIR} ${isa} ${CMAKE_CURRENT_BINARY_DIR}/out/tracefs)
    set_tests_properties(e2e-tracefs-28-3-host-${isa} PROPERTIES LABELS e2e TIMEOUT 180)
  endforeach()
endif()
# poll(), select() and epoll on trace_pipe, per_cpu/cpuN/trace_pipe and
# trace_pipe_raw (trace_poll(), ring_buffer_poll_wait()): POLLIN when the
# buffer read has a record, none when empty or drained, always with
# options/block; a waiter woken by one marker on the vCPU it reads (not a
# full page), not by one on another vCPU, timing out without one.
asymu_e2e_guest(NAME tracefs-28-poll PROGRAM tracefs-poll GUEST_ARGS poll ASYMU_ONLY
                MACHINE --cpus 4)
# splice() of trace_pipe_raw into a pipe (tracing_buffers_splice_read()):
# the full pages only (the writer's page stays for read()), a length cut to
# pages, EINVAL under a page or with an offset, EAGAIN when no page is full
# (O_NONBLOCK or SPLICE_F_NONBLOCK), a blocking splice woken when a page
# fills, not by one marker.
asymu_e2e_guest(NAME tracefs-28-splice PROGRAM tracefs-poll GUEST_ARGS splice ASYMU_ONLY
                MACHINE --cpus 4)
# trace_marker_raw (tracing_mark_raw_write()): raw_data records (ftrace's
# ID 6) of the first 4 bytes as the id and the rest, EINVAL under 4 bytes
# or past 3 KiB, 1024 bytes kept of a longer write, EBADF while tracing is
# off; their lines in trace as trace_raw_data() prints them, their bytes
# in trace_pipe_raw, the events/ftrace/raw_data/format file.
asymu_e2e_guest(NAME tracefs-28-rawmark PROGRAM tracefs-text GUEST_ARGS rawmark ASYMU_ONLY
                MACHINE --cpus 4)
# instances/ (issue 28 item 3, docs/tracing.md "Instances"): mkdir makes
# a trace array of its own (instance_mkdir()); sched_switch enabled there
# only is in its trace and not the top level's, its trace_marker writes
# there, its tracing_on is its own; EEXIST, EPERM, ENOENT, ENOTDIR; rmdir
# EBUSY while a file of it is open, then gone; unlink EPERM; with 4 vCPUs
# the buffers' budget allows 10 instances of the default size.
asymu_e2e_guest(NAME tracefs-28-3-instances PROGRAM tracefs-inst ASYMU_ONLY
                MACHINE --cpus 4)
# events/SYSTEM/EVENT/filter (issue 28 item 3, docs/tracing.md "Filters"):
# a filter on sched_process_exit keeps the exit of a child named kid, not
# of one named other; bad filters EINVAL with the kernel's error text in
# the file; "0" clears it.
asymu_e2e_guest(NAME tracefs-28-3-filter PROGRAM tracefs-inst GUEST_ARGS filter ASYMU_ONLY
                MACHINE --cpus 4)
