/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exec.c - execve: read an ELF image (and its PT_INTERP), build a fresh
 * address space on an engine of the image's ISA, lay out the initial stack,
 * and switch the task to it. The old image stays intact until the new one is
 * complete. */
#include "abi.h"
#include "exec.h"
#include "machine_events.h"
#include "fd_unshare.h"
#include "file.h"
#include "flock.h"
#include "futex.h"
#include "mqueue.h"
#include "keys.h"
#include "lifetime.h"
#include "loader.h"
#include "machine.h"
#include "mm.h"
#include "pagecopy.h"
#include "ptrace.h"
#include "rlimit.h"
#include "scheduler.h"
#include "task.h"
#include "timers.h"
#include "vfs.h"
#include "waitq.h"
#include "page.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

#define IMAGE_MAX (1ull << 30)

/* A file mapped read-only into the host for parsing and copying. */
struct image_file {
    const uint8_t *data;
    size_t size;
    uint64_t dev, ino; /* for /proc/PID/maps */
};

static int image_map(int fd, struct image_file *f, char *why, size_t whylen)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -errno;
    if (S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "is a directory");
        return -EACCES;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "not a regular file");
        return -EACCES;
    }
    if (st.st_size == 0) {
        snprintf(why, whylen, "empty file");
        return -ENOEXEC;
    }
    if ((uint64_t)st.st_size > IMAGE_MAX) {
        snprintf(why, whylen, "file is larger than 1 GiB");
        return -ENOMEM;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return -errno;
    f->data = p;
    f->size = (size_t)st.st_size;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    return 0;
}

static void image_unmap(struct image_file *f)
{
    if (f->data)
        munmap((void *)f->data, f->size);
    f->data = NULL;
}

/* Maps every PT_LOAD of img at bias into mm: the whole span first, then the
 * file bytes, then per-segment protections; holes between segments are
 * unmapped as Linux leaves them. */
static int load_segments(struct mm *mm, const struct loader_image *img,
                         const struct image_file *file, const char *path, uint64_t bias)
{
    uint64_t lo = img->lo + bias, hi = img->hi + bias;
    int err = mm_map_fixed(mm, lo, hi - lo, PROT_READ | PROT_WRITE);
    if (err < 0)
        return err;
    uint8_t *host = mm_host_ptr(mm, lo, hi - lo, 0);
    int prot_of_page_run[LOADER_MAX_SEGMENTS];
    for (unsigned i = 0; i < img->nseg; i++) {
        const struct loader_segment *s = &img->seg[i];
        copy_to_fresh(host + (s->vaddr + bias - lo), file->data + s->offset, s->filesz);
        prot_of_page_run[i] = s->prot;
    }
    uint64_t prev_end = lo;
    for (unsigned i = 0; i < img->nseg; i++) {
        const struct loader_segment *s = &img->seg[i];
        uint64_t start = PAGE_DOWN(s->vaddr + bias), end = PAGE_UP(s->vaddr + bias + s->memsz);
        int prot = prot_of_page_run[i];
        /* A page shared with the neighbour keeps both segments' rights. */
        if (i > 0 && start < PAGE_UP(img->seg[i - 1].vaddr + bias + img->seg[i - 1].memsz))
            prot |= prot_of_page_run[i - 1];
        if (i + 1 < img->nseg && end > PAGE_DOWN(img->seg[i + 1].vaddr + bias))
            prot |= prot_of_page_run[i + 1];
        if (start > prev_end && (err = mm_unmap(mm, prev_end, start - prev_end)) < 0)
            return err;
        if ((err = mm_protect(mm, start, end - start, prot)) < 0)
            return err;
        prev_end = end > prev_end ? end : prev_end;
    }
    /* The pages holding file bytes show the file in /proc/PID/maps. */
    for (unsigned i = 0; i < img->nseg; i++) {
        const struct loader_segment *s = &img->seg[i];
        struct vma_origin o = {.path = path, .pgoff = PAGE_DOWN(s->offset), .dev = file->dev,
                               .ino = file->ino};
        if (s->filesz)
            mm_set_origin(mm, PAGE_DOWN(s->vaddr + bias), PAGE_UP(s->vaddr + bias + s->filesz), &o);
    }
    return 0;
}

static int open_parse(struct task *t, int fd, struct image_file *file, struct loader_image *img,
                      char *why, size_t whylen)
{
    int err = image_map(fd, file, why, whylen);
    if (err < 0)
        return err;
    err = loader_parse(file->data, file->size, img, why, whylen);
    if (err < 0) {
        image_unmap(file);
        return err;
    }
    if (sched_exec_check(&t->machine->sched, img->isa == LOADER_ISA_ARM) < 0) {
        snprintf(why, whylen,
                 "32-bit (AArch32) image, but this machine runs 64-bit user space only "
                 "(needs allow_mismatched_32bit_el0 in --cmdline and a non-empty --aarch32)");
        image_unmap(file);
        return -ENOEXEC;
    }
    if (sched_dl_exec_check(&t->machine->sched, &t->se, img->isa == LOADER_ISA_ARM) < 0) {
        snprintf(why, whylen, "%s",
                 "32-bit (AArch32) image, but a SCHED_DEADLINE task's root domain has CPUs "
                 "that cannot run it (rule U9)");
        image_unmap(file);
        return -ENOEXEC;
    }
    return 0;
}

static int load_interp(struct task *t, struct mm *mm, const struct loader_image *main_img,
                       uint64_t *base, uint64_t *entry, char *why, size_t whylen)
{
    /* open_exec() of PT_INTERP: a path of the process, so under its root
     * (chroot) with the root's symlinks read there */
    char ipath[VFS_PATH_MAX];
    int fd = vfs_resolve(&t->machine->vfs, t, t->proc->cwd, main_img->interp, ipath, sizeof ipath);
    if (fd == 0)
        fd = vfs_follow(&t->machine->vfs, t, ipath, ipath, sizeof ipath);
    if (fd == 0)
        fd = vfs_open_host(&t->machine->vfs, ipath, O_RDONLY, 0);
    if (fd < 0) {
        snprintf(why, whylen, "interpreter %s: %s", main_img->interp, strerror(-fd));
        return fd == -ENOENT ? -ENOENT : fd;
    }
    struct image_file file = {0};
    struct loader_image img;
    char sub[256];
    int err = image_map(fd, &file, sub, sizeof sub);
    close(fd);
    if (err == 0 && (err = loader_parse(file.data, file.size, &img, sub, sizeof sub)) < 0)
        image_unmap(&file);
    if (err < 0) {
        snprintf(why, whylen, "interpreter %s: %s", main_img->interp, sub);
        return err;
    }
    if (img.isa != main_img->isa || !img.is_dyn || img.interp[0]) {
        snprintf(why, whylen, "interpreter %s: not a shared object of the program's ISA",
                 main_img->interp);
        image_unmap(&file);
        return -ELIBBAD;
    }
    uint64_t at = mm_find_free(mm, 0, img.hi - img.lo);
    if (!at) {
        image_unmap(&file);
        return -ENOMEM;
    }
    *base = at - img.lo;
    *entry = img.entry + *base;
    err = load_segments(mm, &img, &file, main_img->interp, *base);
    image_unmap(&file);
    return err;
}

static int count_strings(char *const v[])
{
    int n = 0;
    while (v && v[n])
        n++;
    return n;
}

static int build_stack(struct task *t, struct mm *mm, const struct loader_image *img,
                       uint64_t bias, uint64_t interp_base, const char *execfn,
                       char *const argv[], char *const envp[], const struct cred *nc,
                       bool secure, uint64_t *sp)
{
    const struct abi *abi = mm->abi;
    uint64_t size = rlimit_stack_size(t->proc);
    uint64_t top = abi->stack_top, bottom = top - size;
    int err = mm_map_fixed(mm, bottom, size,
                           PROT_READ | PROT_WRITE | (img->exec_stack ? PROT_EXEC : 0));
    if (err < 0)
        return err;
    const struct loader_auxv auxv[] = {
        {AT_HWCAP, abi->hwcap},
        {AT_PAGESZ, PAGE},
        {AT_CLKTCK, 100},
        {AT_PHDR, img->phdr_vaddr + bias},
        {AT_PHENT, img->phentsize},
        {AT_PHNUM, img->phnum},
        {AT_BASE, interp_base},
        {AT_FLAGS, 0},
        {AT_ENTRY, img->entry + bias},
        {AT_UID, nc->u.real},
        {AT_EUID, nc->u.eff},
        {AT_GID, nc->g.real},
        {AT_EGID, nc->g.eff},
        {AT_SECURE, secure},
        {AT_HWCAP2, abi->hwcap2},
    };
    struct loader_stack_spec spec = {
        .isa = abi->isa,
        .argc = count_strings(argv),
        .argv = (const char *const *)argv,
        .envc = count_strings(envp),
        .envp = (const char *const *)envp,
        .execfn = execfn,
        .platform = abi->platform,
        .auxv = auxv,
        .nauxv = sizeof auxv / sizeof *auxv,
    };
    machine_random_bytes(t->machine, spec.random, sizeof spec.random);
    /* The loader lays the stack out in the ABI's words and says where the
     * strings and auxv went (an empty argv or envp leaves its bounds 0). */
    struct loader_stack_layout layout;
    err = loader_build_stack(&spec, top, mm_host_ptr(mm, bottom, size, 0), size, sp, &layout);
    if (err == 0 && spec.argc > 0) {
        mm->arg_start = layout.arg_start;
        mm->arg_end = layout.arg_end;
    }
    if (err == 0 && spec.envc > 0) {
        mm->env_start = layout.env_start;
        mm->env_end = layout.env_end;
    }
    if (err == 0) {
        mm->auxv_start = layout.auxv_start;
        mm->auxv_end = layout.auxv_end;
    }
    return err;
}

static void close_on_exec(struct process *p)
{
    for (int fd = 0; fd < FD_MAX; fd++) {
        if (p->files->fd[fd] && p->files->cloexec[fd]) {
            locks_process_closed(p, p->files->fd[fd]);
            mq_process_closed(p, p->files->fd[fd]);
            file_put(p->files->fd[fd]);
            p->files->fd[fd] = NULL;
            p->files->cloexec[fd] = false;
        }
    }
}

/* A thread that execs becomes its process's leader, as Linux's de_thread
 * makes it: it takes the leader's tid (the pid), and the old leader, dead
 * by now, is freed under the thread's old tid. The parent sees no exit. */
static void take_leader_tid(struct task *t)
{
    struct process *p = t->proc;
    struct task *leader = NULL;
    for (struct task *o = p->threads; o; o = o->next_thread)
        if (o->tid == p->pid)
            leader = o;
    int old_tid = t->tid;
    task_index_retid(t, p->pid);
    t->se.tid = p->pid;
    if (leader) {
        task_index_retid(leader, old_tid);
        leader->se.tid = old_tid;
        task_queue_free(leader);
    }
}

/* After the point of no return: the process drops its other threads, its
 * old address space and caught handlers, and a vfork parent is released. */
static void flush_old_exec(struct task *t, struct mm *mm)
{
    struct process *p = t->proc;
    for (struct task *o = p->threads; o; o = o->next_thread)
        if (o != t && o->state != TASK_DEAD)
            task_exit(o, 0);
    if (t->tid != p->pid)
        take_leader_tid(t);
    futex_exit_release(t); /* exec_mm_release(): on the old address space */
    struct mm *old = p->mm;
    p->mm = mm;
    mm->loaded = t;
    if (old && old->loaded == t)
        old->loaded = NULL;
    if (old)
        mm_put(old);
    if (t->ctx)
        uc_context_free(t->ctx);
    t->ctx = NULL;
    uc_context_alloc(mm->uc, &t->ctx);
    if (p->sighand->refs > 1) {
        struct sighand *sh = malloc(sizeof *sh);
        if (sh) {
            *sh = *p->sighand;
            sh->refs = 1;
            p->sighand->refs--;
            p->sighand = sh;
        }
    }
    for (int sig = 1; sig <= NSIG_GUEST; sig++) {
        struct sigaction_guest *sa = &p->sighand->action[sig];
        if (sa->handler > 1 /* caught: back to SIG_DFL; ignored stays */)
            *sa = (struct sigaction_guest){0};
    }
    t->altstack_sp = t->altstack_size = 0;
    t->altstack_flags = 0;
    t->clear_child_tid = 0;
    posix_timers_exec(p);
    vfork_release(p);
    close_on_exec(p);
    keys_exec(t); /* prepare_exec_creds(): the thread and process keyrings go */
}

/* check_unsafe_exec(): a tracer without CAP_SYS_PTRACE (Linux asks of the
 * tracer's credentials at attach; here, its current ones) keeps an execve
 * from gaining privilege, as no_new_privs does. */
static bool exec_traced_unsafe(struct task *t)
{
    int tracer = ptrace_tracer_pid(t);
    const struct process *tp = tracer ? process_find(t->machine, tracer) : NULL;
    return tp && !cred_capable(&tp->cred, CAP_SYS_PTRACE);
}

static int map_sigtramp(struct mm *mm)
{
    const struct abi *abi = mm->abi;
    int err = mm_map_fixed(mm, abi->sigtramp, PAGE, PROT_READ | PROT_EXEC);
    if (err == 0)
        memcpy(mm_host_ptr(mm, abi->sigtramp, PAGE, 0), abi->sigtramp_code,
               abi->sigtramp_words * sizeof(uint32_t));
    return err;
}

/* Replaces t's image with the program open on host fd `fd`, known to the
 * guest as `exe`, its file as file_name (NULL: exe). On failure the old
 * image is intact and a negative errno is returned (as execve would); `why`
 * names the defect. */
static int exec_fd(struct task *t, int fd, const char *exe, const char *file_name,
                   char *const argv[], char *const envp[], char *why, size_t whylen)
{
    struct image_file file = {0};
    struct loader_image img;
    why[0] = '\0';
    /* The close-on-exec descriptors close in this process's table only
     * (fd_unshare.h); Linux unshares before the point of no return too. */
    int err = fdtable_unshare(t->proc);
    if (err == 0)
        err = open_parse(t, fd, &file, &img, why, whylen);
    if (err < 0)
        return err;

    const struct abi *abi = abi_for_isa(img.isa);
    struct mm *mm = mm_new(abi, t->machine, &err);
    if (!mm) {
        image_unmap(&file);
        snprintf(why, whylen, "cannot create a %s engine", abi->name);
        return err;
    }
    mm->max_as = rlimit_cur(t->proc, RLIMIT_AS);
    uint64_t bias = img.is_dyn ? abi->dyn_base - img.lo : 0, interp_base = 0;
    uint64_t entry = img.entry + bias, sp = 0;
    err = load_segments(mm, &img, &file, exe, bias);
    image_unmap(&file);
    if (err < 0)
        snprintf(why, whylen, "cannot map its segments");
    if (err == 0 && img.interp[0])
        err = load_interp(t, mm, &img, &interp_base, &entry, why, whylen);
    if (err == 0 && abi->kuser_helpers) {
        err = mm_map_fixed(mm, LOADER_KUSER_ADDR, PAGE, PROT_READ | PROT_EXEC);
        if (err == 0)
            loader_kuser_page(mm_host_ptr(mm, LOADER_KUSER_ADDR, PAGE, 0));
    }
    if (err == 0)
        err = map_sigtramp(mm);
    /* The credentials the program runs with (cap_exec_creds(), Linux's
     * bprm->cred): the auxiliary vector tells them, they replace the old
     * ones at the point of no return. */
    struct cred nc = t->proc->cred;
    bool undumpable;
    bool secure = cap_exec_creds(&nc, &t->proc->cred, t->no_new_privs, exec_traced_unsafe(t),
                                 &undumpable);
    /* AT_EXECFN as the program names it: below its root (chroot) */
    char execfn[VFS_PATH_MAX];
    vfs_path_in_root(t->proc->root, exe, execfn, sizeof execfn);
    if (err == 0 && (err = build_stack(t, mm, &img, bias, interp_base, execfn, argv, envp, &nc,
                                       secure, &sp)) < 0)
        snprintf(why, whylen, "arguments and environment do not fit on the stack");
    if (err < 0) {
        mm_put(mm);
        return err;
    }
    mm->brk_start = mm->brk = PAGE_UP(img.hi + bias);
    abi->start(mm->uc, entry, sp);

    int old_tid = t->tid;
    flush_old_exec(t, mm);
    struct process *p = t->proc;
    p->cred = nc; /* the same groups: nc shares them, no reference taken */
    p->undumpable = undumpable; /* begin_new_exec()'s dumpability */
    snprintf(p->exe, sizeof p->exe, "%s", file_name ? file_name : exe);
    const char *base = strrchr(exe, '/');
    mev_rename(t, base ? base + 1 : exe);
    sched_task_set_comm(&t->se, base ? base + 1 : exe);
    sched_task_exec(&t->machine->sched, &t->se, img.isa == LOADER_ISA_ARM);
    mev_exec(t, exe, old_tid);
    t->stop = true; /* the old engine must not run on */
    return 0;
}

/* ---- programs by path: #! scripts and ELF images ---- */

/* Parses "#!interp [arg]" from the first line: 0 when it is a script. */
static int script_interp(int fd, char *interp, size_t ilen, char *arg, size_t alen)
{
    char line[256];
    ssize_t n = pread(fd, line, sizeof line - 1, 0);
    if (n < 2 || line[0] != '#' || line[1] != '!')
        return -ENOEXEC;
    line[n] = '\0';
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = '\0';
    char *p = line + 2;
    while (*p == ' ' || *p == '\t')
        p++;
    char *end = p;
    while (*end && *end != ' ' && *end != '\t')
        end++;
    char *rest = end;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    *end = '\0';
    size_t rl = strlen(rest);
    while (rl && (rest[rl - 1] == ' ' || rest[rl - 1] == '\t' || rest[rl - 1] == '\r'))
        rest[--rl] = '\0';
    if (!*p)
        return -ENOEXEC;
    snprintf(interp, ilen, "%s", p);
    snprintf(arg, alen, "%s", rest);
    return 0;
}

static int open_exec(struct task *t, const char *path, int *fd)
{
    struct stat st;
    int err = vfs_stat(&t->machine->vfs, t, path, true, &st);
    if (err < 0)
        return err;
    if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
        return -EACCES;
    struct file *f;
    if ((err = file_open_path(t, path, O_RDONLY, 0, &f)) < 0)
        return err;
    if (f->kind != FILE_HOST) {
        file_put(f);
        return -EACCES;
    }
    *fd = dup(f->host_fd);
    file_put(f);
    return *fd < 0 ? -errno : 0;
}

static int exec_depth(struct task *t, const char *path, char **argv, int argc, char **envp,
                      int depth, char *why, size_t whylen);

/* The program open on fd (closed here), known to the guest as path: a #!
 * script through its interpreter (up to 4 levels), an ELF image through
 * exec_fd. A file the guest opened (guest_file) is named in /proc/PID/exe
 * by its own path (d_path()), not by the symlink it was reached through:
 * the JRE's launcher finds its libraries next to it. */
static int exec_open(struct task *t, int fd, const char *path, bool guest_file, char **argv,
                     int argc, char **envp, int depth, char *why, size_t whylen)
{
    char interp[VFS_PATH_MAX], iarg[256];
    if (script_interp(fd, interp, sizeof interp, iarg, sizeof iarg) == 0) {
        close(fd);
        if (depth >= 4) {
            snprintf(why, whylen, "#! interpreters nest more than 4 deep");
            return -ELOOP;
        }
        /* argv becomes: interp [iarg] path argv[1..] */
        char **nargv = calloc((size_t)argc + 4, sizeof *nargv);
        if (!nargv)
            return -ENOMEM;
        int n = 0;
        nargv[n++] = interp;
        if (iarg[0])
            nargv[n++] = iarg;
        nargv[n++] = (char *)path;
        for (int i = 1; i < argc; i++)
            nargv[n++] = argv[i];
        char ipath[VFS_PATH_MAX];
        int err = vfs_resolve(&t->machine->vfs, t, t->proc->cwd, interp, ipath, sizeof ipath);
        if (err < 0)
            snprintf(why, whylen, "#! interpreter %s: %s", interp, strerror(-err));
        else
            err = exec_depth(t, ipath, nargv, n, envp, depth + 1, why, whylen);
        free(nargv);
        return err;
    }
    char real[VFS_PATH_MAX];
    bool named = guest_file && vfs_fd_path(&t->machine->vfs, fd, real, sizeof real) == 0;
    int err = exec_fd(t, fd, path, named ? real : NULL, argv, envp, why, whylen);
    close(fd);
    return err;
}

static int exec_depth(struct task *t, const char *path, char **argv, int argc, char **envp,
                      int depth, char *why, size_t whylen)
{
    int fd;
    int err = open_exec(t, path, &fd);
    if (err < 0) {
        snprintf(why, whylen, "%s: %s", path, strerror(-err));
        return err;
    }
    return exec_open(t, fd, path, true, argv, argc, envp, depth, why, whylen);
}

int exec_path(struct task *t, const char *path, char **argv, int argc, char **envp, char *why,
              size_t whylen)
{
    return exec_depth(t, path, argv, argc, envp, 0, why, whylen);
}

int exec_path_named(struct task *t, const char *path, const char *name, char **argv, int argc,
                    char **envp, char *why, size_t whylen)
{
    int fd;
    int err = open_exec(t, path, &fd);
    if (err < 0) {
        snprintf(why, whylen, "%s: %s", path, strerror(-err));
        return err;
    }
    err = exec_open(t, fd, name, true, argv, argc, envp, 0, why, whylen);
    char real[VFS_PATH_MAX];
    if (err == 0 && vfs_follow(&t->machine->vfs, t, path, real, sizeof real) >= 0)
        snprintf(t->proc->exe, sizeof t->proc->exe, "%s", real); /* the file, not a link */
    return err;
}

int exec_program(struct task *t, int fd, const char *path, char **argv, int argc, char **envp,
                 char *why, size_t whylen)
{
    int dup_fd = dup(fd);
    if (dup_fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return -errno;
    }
    return exec_open(t, dup_fd, path, false, argv, argc, envp, 0, why, whylen);
}
