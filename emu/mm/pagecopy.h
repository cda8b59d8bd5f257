/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pagecopy.h - copying guest memory on the host: a private mapping's pages
 * that hold data (fork, windows), a file's bytes into a new mapping (exec),
 * which pages of a range the host holds. */
#ifndef ASYMU_PAGECOPY_H
#define ASYMU_PAGECOPY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>

/* Linux 6.7's PAGEMAP_SCAN request (struct pm_scan_arg, 96 bytes), which
 * pagecopy.c issues on asymu's own pagemap and the sandbox allows. */
#define PAGEMAP_SCAN_REQUEST _IOC(_IOC_READ | _IOC_WRITE, 'f', 16, 96)

/* Opens this host process's /proc/self/pagemap, before the sandbox; without
 * it copy_nonzero_pages still works, only slower. */
void pagecopy_open(void);
/* Copies the pages of src that are not all zero to dst (both page aligned,
 * len a multiple of the page size; dst freshly mapped, so reading zero). */
void copy_nonzero_pages(uint8_t *dst, const uint8_t *src, uint64_t len);
/* Whether the pagemap tells which pages the host holds. */
bool pagecopy_sees_pages(void);
/* Sets the pages of [p, p+len) the host holds to zero (the others read as
 * zero already): false, with the range in an unknown state, when the
 * pagemap cannot tell. */
bool zero_held_pages(uint8_t *p, uint64_t len);
/* Copies len bytes from src (a file's mapping) into dst (host memory of a
 * fresh mapping), both populated first by one call each instead of a host
 * page fault per page. */
void copy_to_fresh(uint8_t *dst, const uint8_t *src, uint64_t len);

#endif
