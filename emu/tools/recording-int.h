/* SPDX-License-Identifier: GPL-2.0-or-later */
/* recording-int.h - between recording.c (the run's side) and
 * recording_load.c (reading a file): the inputs and the recording's state. */
#ifndef ASYMU_RECORDING_INT_H
#define ASYMU_RECORDING_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_config;

enum input_kind { IN_STDIN, IN_STDIN_EOF, IN_SIGNAL, IN_CONTROL, IN_WRITE, IN_END };

struct input {
    enum input_kind kind;
    uint64_t point, ns;
    bool in_syscall; /* taken by a guest syscall, not between two steps */
    char *data;      /* stdin bytes, the control request, the written bytes */
    size_t len;
    char *path;      /* a FUSE write's file */
    int value;       /* the signal; the end's status */
    unsigned line;
};

struct recording {
    char *path;
    FILE *out;            /* recording */
    struct input *inputs; /* replaying: every input, in the file's order */
    size_t ninputs, next;
    uint64_t point;
    uint64_t last_ns;     /* the time of the last input: a point's time never goes back */
    bool waited;          /* the last step was a wait: the next is the same point */
    bool failed;          /* a replay did not match: the run stops */
    char *buf;            /* the console's input not read yet */
    size_t head, len, cap;
    bool eof;             /* ... and after it, the end of input */
};

/* The header's "machine" and "program" of cfg's run. */
json_t *recording_machine_json(const struct emu_config *cfg);
json_t *recording_program_json(const struct emu_config *cfg);

#endif
