/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recording.h - record and replay of what reaches the machine from outside
 * (docs/recording.md): `asymu run --record F` writes every host input with
 * the point of the run at which the machine took it (stdin bytes as the
 * guest's reads took them, SIGINT/SIGTERM/SIGHUP to asymu, the control
 * socket's requests that change the machine, writes through the FUSE
 * export); `--input F` (run, replay, a scenario's `input:`) feeds them back
 * at the same points instead of the host's, so the run repeats byte for byte.
 *
 * A point is the count of the machine loop's steps that moved the machine
 * (a slice, a timer, a migration or kill decision; not a wait for the host)
 * plus the virtual time: both are the same in every run of the same inputs. */
#ifndef ASYMU_RECORDING_H
#define ASYMU_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_config;
struct machine;
struct recording;

/* The file format's version, in every recording's first line. */
#define RECORDING_VERSION 1

/* Loads and checks a whole recording (--input) before anything runs: NULL
 * with "FILE:LINE: reason" in why for a file that cannot be read, is
 * garbled or truncated, has a point in the past, or is of another run
 * (program and arguments, or a machine setting, differ from cfg's). */
struct recording *recording_load(const char *path, const struct emu_config *cfg, char *why,
                                 size_t whylen);
/* The same from an open stream f, read whole, named path in messages (the
 * recording fuzzer, tests/fuzz/fuzz_recording.c, feeds memory). */
struct recording *recording_load_stream(FILE *f, const char *path, const struct emu_config *cfg,
                                        char *why, size_t whylen);
/* Starts writing a recording (--record) to out: its header names asymu's
 * version, the command line (argc/argv) and the machine. NULL without memory. */
struct recording *recording_create(FILE *out, const char *path, const struct emu_config *cfg,
                                   int argc, char **argv);
void recording_free(struct recording *r);

/* Attaches cfg->recording to the machine for its run. */
void recording_attach(struct machine *m);
/* The run ended with status: a recording gets its last line; a replay
 * checks it ended where the recording did. Returns status, or 2 with the
 * reason on stderr when the replay did not match. */
int recording_finish(struct machine *m, int status);

/* Whether the console's input comes from the recording's buffer (both
 * when recording and when replaying) instead of straight from the host. */
bool recording_owns_console(const struct machine *m);
/* A replay stopped because the run did not match its recording. */
bool recording_mismatched(const struct machine *m);
bool recording_replaying(const struct machine *m);

/* The machine loop (run.c): a new step begins. A replay applies the
 * inputs recorded at this point; false on a mismatch (reported; the run
 * stops with status 2). */
bool recording_step(struct machine *m);
/* The step ended in a wait for the host: the next one is the same point. */
void recording_waited(struct machine *m);
/* Every task waits and a replay has no input for this point: true (with
 * the reason on stderr) when the recording has more, so the run cannot
 * be the recorded one. */
bool recording_stalled(struct machine *m);

/* The console (hostio.c, sys_rw.c): whether a read would not block (bytes
 * or the end of input buffered, or, recording, ready on the host now and
 * taken); reading from the buffer; taking what the host's stdin has, from
 * the host loop. */
bool recording_console_ready(struct machine *m);
int64_t recording_console_read(struct machine *m, void *buf, size_t len);
/* The console bytes a read would take now (FIONREAD): those the recording
 * holds, once console input is ready at this point. */
size_t recording_console_pending(struct machine *m);
void recording_console_take(struct machine *m);

/* Inputs from the host loop, recorded at the current point when recording:
 * SIGINT/SIGTERM/SIGHUP (the orderly stop), a control request that changes
 * the machine (its words joined by spaces), a write through the FUSE export. */
void recording_host_signal(struct machine *m, int sig);
void recording_control(struct machine *m, const char *request);
void recording_fuse_write(struct machine *m, const char *path, const char *data, size_t len);

#endif
