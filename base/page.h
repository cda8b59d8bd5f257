/* SPDX-License-Identifier: GPL-2.0-or-later */
/* page.h - the guest's page size, one definition for every module: Linux
 * on arm64 as Debian builds it (4 KiB pages, CONFIG_ARM64_4K_PAGES) and its
 * compat tasks, and the host's (x86-64), whose mappings back the guest's. */
#ifndef ASYMU_PAGE_H
#define ASYMU_PAGE_H

#include <stdint.h>

#define PAGE 4096u
#define PAGE_DOWN(x) ((x) & ~(uint64_t)(PAGE - 1))
#define PAGE_UP(x) (((x) + PAGE - 1) & ~(uint64_t)(PAGE - 1))

#endif
