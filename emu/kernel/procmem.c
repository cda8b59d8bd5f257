/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procmem.c - a process's memory for its debugger (procmem.h). */
#include "procmem.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "mm_window.h"
#include "task.h"

#include <errno.h>
#include <string.h>
#include <unicorn/unicorn.h>

size_t procmem_access(struct mm *mm, uint64_t addr, void *buf, size_t len, bool write)
{
    size_t done = 0;
    while (done < len) {
        uint64_t a = addr + done;
        const struct vma *v = mm_find_vma(mm, a);
        if (!v || a < addr)
            break;
        size_t n = len - done;
        if (n > v->end - a)
            n = (size_t)(v->end - a);
        uint8_t *host = v->host + (a - v->start);
        mm_host_writable(mm, a, n, true); /* a windowed page may be host-protected */
        if (write) {
            memcpy(host, (const uint8_t *)buf + done, n);
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

int64_t procmem_file_io(struct task *t, struct file *f, void *buf, size_t len, uint64_t pos,
                        bool write)
{
    /* The process as it is now: after an execve this is its new memory
     * (Linux keeps the old one, which reads as gone). */
    struct process *p = process_find(t->machine, f->node.arg);
    if (!p || !p->mm || p->zombie)
        return 0;
    if (!len)
        return 0;
    size_t n = procmem_access(p->mm, pos, buf, len, write);
    return n ? (int64_t)n : -EIO;
}
