/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fifo.h - named pipes with Linux's open and blocking rules (fifo.c).
 *
 * A fifo the guest makes is a host fifo, and its data goes through the host
 * kernel's buffer; but every host descriptor is non-blocking, so that no
 * call can stall the emulator, and the rules of who waits for whom are kept
 * here, per fifo (host dev and inode), from the guest's own descriptions:
 *
 *   open O_RDONLY waits until a writer opens (O_NONBLOCK: at once);
 *   open O_WRONLY waits until a reader opens (O_NONBLOCK, no reader: ENXIO);
 *   open O_RDWR never waits;
 *   a blocking read of an empty fifo waits while there are writers (else 0,
 *   end of file); a write without readers is EPIPE and SIGPIPE; a blocking
 *   write waits for room; poll sees POLLHUP, POLLERR as for a pipe.
 *
 * A waiting open or read is interrupted by a signal as Linux's are
 * (-ERESTARTSYS: EINTR, or restarted under SA_RESTART). */
#ifndef ASYMU_FIFO_H
#define ASYMU_FIFO_H

#include <stddef.h>
#include <stdint.h>

struct file;
struct machine;
struct task;

/* openat's last step: *f and err are what file_open_path gave for path
 * (host O_* flags). An O_WRONLY open the host refused with ENXIO (a fifo
 * without a host reader) is opened again O_RDWR on the host, still
 * write-only for the guest. When *f is a fifo, applies the rules above:
 * returns 0 with *f counted as an end, or drops *f and returns -EBLOCK
 * (the open waits and is run again when the other end opens) or -ENXIO. */
int fifo_open(struct task *t, const char *path, int flags, int mode, struct file **f, int err);
/* read and write of a FILE_HOST whose f->fifo is set. */
int64_t fifo_read(struct task *t, struct file *f, void *buf, size_t len);
int64_t fifo_write(struct task *t, struct file *f, const void *buf, size_t len);
short fifo_poll(struct file *f);
/* The description f is gone (file_put, after closing its host fd). */
void fifo_release(struct file *f);
/* Frees what is left at machine shutdown. */
void fifo_machine_free(struct machine *m);

#endif
