/* mm_debug.h - a debugger's access to a guest address space (mm_debug.c):
 * whatever the pages' protection, as Linux's FOLL_FORCE, for ptrace's
 * PEEK/POKE and the gdb stub's memory packets. */
#ifndef ASYMU_MM_DEBUG_H
#define ASYMU_MM_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mm;

/* Reads or writes len bytes at addr page by page until the first byte
 * nothing is mapped at: the bytes done. Code written is translated again. */
size_t mm_debug_access(struct mm *mm, uint64_t addr, void *buf, size_t len, bool write);

#endif
