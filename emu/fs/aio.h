/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aio.h - Linux native AIO (aio.c, Linux's fs/aio.c): io_setup's contexts
 * with their completion ring mapped into the process, io_submit,
 * io_getevents and io_pgetevents, io_cancel, io_destroy. */
#ifndef ASYMU_AIO_H
#define ASYMU_AIO_H

#include <stdio.h>

#include "syscalls.h"

struct machine;
struct mm;

/* Linux's /proc/sys/fs/aio-max-nr default: the events all contexts of the
 * machine may ask for together (the machine's value: m->limits.aio_max_nr). */
#define AIO_MAX_NR 65536u

/* The last user of mm went (exit, exec): its contexts go, as exit_aio. */
void aio_mm_free(struct mm *mm);

/* Cores the ABIs' entries share: `field` is the size of a timespec
 * member (8, or 4 for arm's time32 calls), `word` that of a pointer. */
int64_t do_io_getevents(struct task *t, const uint64_t a[6], unsigned field);
int64_t do_io_pgetevents(struct task *t, const uint64_t a[6], unsigned field);

SYSCALL_DECL(io_setup);
SYSCALL_DECL(io_destroy);
SYSCALL_DECL(io_submit);
SYSCALL_DECL(io_cancel);
SYSCALL_DECL(io_getevents);
SYSCALL_DECL(io_pgetevents);

#endif
