/* guest.h - what the guest test programs share: errno names and the ISA a
 * program was built for. Header-only: each guest program is one static
 * binary built for both ISAs. */
#ifndef GUEST_H
#define GUEST_H

#include <string.h>

#ifdef __aarch64__
#define ISA "aarch64"
#else
#define ISA "arm"
#endif

/* "ENOENT" for ENOENT; "?" for a number without a name. */
static inline const char *err_name(int e)
{
    const char *n = strerrorname_np(e);
    return n ? n : "?";
}

#endif
