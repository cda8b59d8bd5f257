/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs.h - the machine's own tracefs, /sys/kernel/tracing (and
 * /sys/kernel/debug/tracing) as a Linux 5.15 kernel shows it: the events
 * of event_formats.c to enable, per-vCPU ring buffers of the kernel's
 * binary records (trace_ring.c) filled from the machine's event stream
 * (sched/mevent.h) while the guest has tracing on, read whole pages at a
 * time through per_cpu/cpuN/trace_pipe_raw, or as the text of 5.15's trace
 * file (trace_text.c) through trace and trace_pipe, which takes what it
 * gives. Pure logic: the kernel layer
 * (emu/fs/vfs_provider.c) serves the files and subscribes it to the
 * stream. docs/tracing.md, "Tracing inside the machine". */
#ifndef ASYMU_TRACEFS_H
#define ASYMU_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mevent.h"

struct tracefs;

/* The tracefs of a machine of nr_cpus vCPUs, or NULL without memory. */
struct tracefs *tracefs_new(unsigned nr_cpus);
void tracefs_free(struct tracefs *tf);

/* The event kinds recording can ever need (print excluded: see
 * TRACEFS_PRINT_KINDS), and a mevent_fn (ctx: tf) that records them. */
uint32_t tracefs_kinds(void);
#define TRACEFS_PRINT_KINDS MEVENT_BIT(MEVENT_PRINT)
void tracefs_event(void *ctx, const struct mevent *ev);
/* Whether the guest enabled an event since boot: the kernel layer
 * subscribes tracefs_kinds() then, so a run that never traces pays
 * nothing. */
bool tracefs_any_enabled(const struct tracefs *tf);
/* Whether the trace array of file rel (the top level's or, for
 * instances/NAME/..., the instance's) is on: trace_marker takes writes
 * (tracing_on). */
bool tracefs_on(const struct tracefs *tf, const char *rel);
/* What a reader of an empty trace_pipe, per_cpu/cpuN/trace_pipe or
 * per_cpu/cpuN/trace_pipe_raw (rel) waits on. */
const void *tracefs_wait_key(const struct tracefs *tf, const char *rel);
/* What poll() of rel sees (tracefs_wait_key() is what it waits on): for
 * trace_pipe and a vCPU's trace_pipe, a record to read
 * (ring_buffer_poll_wait(): the buffer of every vCPU, or the vCPU's, is
 * not empty); for trace_pipe_raw, what its blocked reads wait for, a page
 * the writer left (Linux 6.1's poll with buffer_percent, asymu's being a
 * page: 5.15's any record would wake trace-cmd's readers, which select()
 * before each read, at the records of their own switches without end).
 * Always with the "block" option on (trace_poll()). */
bool tracefs_readable(const struct tracefs *tf, const char *rel);
/* Calls wake(arg, key) for each key whose readers have something since
 * the last call: a record for trace_pipe and the vCPU's trace_pipe, a
 * full page for its trace_pipe_raw. The kernel layer calls it outside the
 * event stream's callbacks (as the ring buffer's irq_work,
 * rb_wake_up_waiters()). */
void tracefs_wake(struct tracefs *tf, void (*wake)(void *arg, const void *key), void *arg);

/* A file or directory below the tracing directory: rel is the path below
 * it ("" for itself, "events/sched/enable", "instances/NAME/trace"; the
 * files taking rel all take an instance's). 0 and *mode (the permission
 * bits) and *dir, or -ENOENT. */
int tracefs_lookup(const struct tracefs *tf, const char *rel, unsigned *mode, bool *dir);
/* Lists directory rel: emit(name, d_type, arg). */
int tracefs_list(const struct tracefs *tf, const char *rel,
                 void (*emit)(const char *name, unsigned char type, void *arg), void *arg);
/* The content of file rel when opened (malloc'ed); now_ns is virtual
 * time. For a trace_pipe_raw it is the oldest page of the buffer, for a
 * trace_pipe the text of the oldest records (at most a page of it), taken
 * out of the buffer (empty when there is none): the kernel layer asks at
 * each read that is past what it has, not at open. */
int tracefs_read(struct tracefs *tf, const char *rel, uint64_t now_ns, char **data, size_t *size);
/* A write to file rel: bytes taken or -errno (trace_marker is the
 * kernel layer's: it emits a MEVENT_PRINT). */
int64_t tracefs_write(struct tracefs *tf, const char *rel, const char *data, size_t len);
/* A write to trace_marker_raw, which the kernel layer checked (4 to 1024
 * bytes; tracing_mark_raw_write()): ftrace's raw_data record of task on
 * vCPU cpu at ts_ns, its first 4 bytes the id, the rest its buf. Only
 * here: the machine's event stream has no such event. */
void tracefs_mark_raw(struct tracefs *tf, const char *rel, unsigned cpu, uint64_t ts_ns,
                      const struct mevent_task *task, const void *data, size_t cnt);
/* A write to an instance's trace_marker (rel): print event ev recorded in
 * that instance's buffers only (tracing_mark_write() writes to its tr's),
 * not in the machine's event stream, when the instance is on. */
void tracefs_mark(struct tracefs *tf, const char *rel, const struct mevent *ev);
/* An open with O_TRUNC for writing: set_event disables every event,
 * trace empties the buffers (ftrace_event_set_open, tracing_open). */
void tracefs_truncate(struct tracefs *tf, const char *rel);
/* What splice() takes from trace_pipe_raw rel: its vCPU's oldest page
 * when it is full (the writer moved on) and trace_pipe took none of it,
 * copied to page (4096 bytes) and taken out of the buffer: 1, or 0 when
 * there is none (ring_buffer_read_page() with full set, as
 * tracing_buffers_splice_read() calls it); -ENOENT for another file. */
int tracefs_splice_page(struct tracefs *tf, const char *rel, void *page);
/* Whether reads of rel return one ring-buffer page at a time. */
bool tracefs_paged(const char *rel);

/* mkdir and rmdir of rel (docs/tracing.md "Instances"): an instance made
 * in instances/ (instance_mkdir()), EEXIST when rel is there, ENOENT
 * without its parent, EPERM in another directory, ENOMEM past
 * INSTANCES_MAX (32) instances or when its buffers (buffer_size_kb of the
 * default 1408 per vCPU) would take the buffers of every trace array past
 * their budget; an instance removed (instance_rmdir()), EBUSY while a
 * file of it is open (tracefs_pin()), EPERM for another directory. */
int tracefs_mkdir(struct tracefs *tf, const char *rel);
int tracefs_rmdir(struct tracefs *tf, const char *rel);
/* An open file rel, if it is an instance's, pins it (rmdir is EBUSY)
 * until tracefs_unpin(); NULL for another file. A pin outlives
 * tracefs_free(). */
struct tracefs_pin;
struct tracefs_pin *tracefs_pin(struct tracefs *tf, const char *rel);
void tracefs_unpin(struct tracefs_pin *pin);

#endif
