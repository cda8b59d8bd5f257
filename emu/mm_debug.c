/* mm_debug.c - a debugger's access to guest memory (mm_debug.h). */
#include "mm_debug.h"

#include "mm.h"
#include "mm_window.h"

#include <string.h>

#define PAGE 4096u

size_t mm_debug_access(struct mm *mm, uint64_t addr, void *buf, size_t len, bool write)
{
    size_t done = 0;
    while (done < len) {
        uint64_t a = addr + done;
        if (a < addr)
            break; /* past the end of the address space */
        size_t n = PAGE - (size_t)(a % PAGE);
        if (n > len - done)
            n = len - done;
        uint8_t *host = mm_host_ptr(mm, a, n, 0);
        if (!host)
            break;
        mm_host_writable(mm, a, n, true); /* a windowed page may be host-protected */
        if (write) {
            memcpy(host, (uint8_t *)buf + done, n);
            if (mm->uc)
                uc_ctl_remove_cache(mm->uc, a, a + n);
        } else {
            memcpy((uint8_t *)buf + done, host, n);
        }
        mm_host_writable(mm, a, n, false);
        done += n;
    }
    return done;
}
