/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring.h - io_uring (io_uring.c, Linux 5.15's fs/io_uring.c):
 * io_uring_setup's ring file, mapped by the process, io_uring_enter's
 * synchronous submission and io_uring_register. */
#ifndef ASYMU_IO_URING_H
#define ASYMU_IO_URING_H

#include "syscalls.h"

SYSCALL_DECL(io_uring_setup);
SYSCALL_DECL(io_uring_enter);
SYSCALL_DECL(io_uring_register);

#endif
