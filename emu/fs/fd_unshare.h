/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fd_unshare.h - giving a process its own copy of a descriptor table it
 * shares with others (clone(CLONE_FILES) without CLONE_VM): execve does it
 * before closing the close-on-exec descriptors, and close_range with
 * CLOSE_RANGE_UNSHARE before closing, so the other processes keep theirs. */
#ifndef ASYMU_FD_UNSHARE_H
#define ASYMU_FD_UNSHARE_H

struct process;

/* 0 (a private table already, or now a copy), or -ENOMEM. */
int fdtable_unshare(struct process *p);

#endif
