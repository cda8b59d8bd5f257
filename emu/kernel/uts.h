/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uts.h - the machine's host and domain names: what uname(2) reports and
 * sethostname/setdomainname change. One pair per machine (asymu has no UTS
 * namespaces). */
#ifndef ASYMU_UTS_H
#define ASYMU_UTS_H

#include "syscalls.h"

struct machine;

/* What uname(2) and /proc/version call the emulated kernel. */
#define KERNEL_RELEASE "5.15.0-asymu"
#define KERNEL_VERSION "#1 SMP PREEMPT asymu"

/* A utsname field: 64 characters and the NUL (__NEW_UTS_LEN + 1). */
#define UTS_LEN 65

/* The names a machine boots with: "asymu" and "(none)", as uname showed
 * them before they could change. */
void uts_init(struct machine *m);

SYSCALL_DECL(sethostname);
SYSCALL_DECL(setdomainname);

#endif
