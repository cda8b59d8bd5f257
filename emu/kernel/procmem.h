/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procmem.h - a process's memory as its debugger reaches it (procmem.c):
 * PTRACE_PEEK/POKE and /proc/PID/mem read and write it whatever the page
 * protection, as Linux's FOLL_FORCE does (a breakpoint goes into read-only
 * text), and code written there is translated again. */
#ifndef ASYMU_PROCMEM_H
#define ASYMU_PROCMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;
struct mm;
struct task;

/* Copies between buf and mm's [addr, addr+len), up to the first address
 * nothing maps: the bytes copied. */
size_t procmem_access(struct mm *mm, uint64_t addr, void *buf, size_t len, bool write);

/* read/write of an open /proc/PID/mem (a VNODE_MEM file) at address pos:
 * the bytes, 0 when the process has gone, -EIO when nothing is mapped at
 * pos. */
int64_t procmem_file_io(struct task *t, struct file *f, void *buf, size_t len, uint64_t pos,
                        bool write);

#endif
