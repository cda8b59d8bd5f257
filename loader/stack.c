/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stack.c - builds a process's initial stack (strings, auxv, envp, argv, argc) as Linux does. */
#include "loader.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

#define STACK_ALIGN 16u

/* A downward allocator over buf, which holds guest memory [base, base + size). */
struct stack {
    uint8_t *buf;
    uint64_t base, p;
    unsigned word;
};

static uint8_t *at(const struct stack *s, uint64_t addr)
{
    return s->buf + (addr - s->base);
}

static int push(struct stack *s, const void *src, uint64_t len, uint64_t *addr)
{
    if (len > s->p - s->base)
        return -E2BIG;
    s->p -= len;
    memcpy(at(s, s->p), src, len);
    *addr = s->p;
    return 0;
}

static int push_string(struct stack *s, const char *str, uint64_t *addr)
{
    return push(s, str, strlen(str) + 1, addr);
}

/* Moves p down to a multiple of align (a power of two), zeroing the gap. */
static int align_down(struct stack *s, uint64_t align)
{
    uint64_t np = s->p & ~(align - 1);

    if (np < s->base)
        return -E2BIG;
    memset(at(s, np), 0, s->p - np);
    s->p = np;
    return 0;
}

static void put_word(const struct stack *s, uint64_t addr, uint64_t val)
{
    uint8_t *b = at(s, addr);
    unsigned i;

    for (i = 0; i < s->word; i++)
        b[i] = (uint8_t)(val >> (8 * i));
}

/* Copies n strings downward so that v[0] ends up lowest, as execve does. */
static int push_strings(struct stack *s, int n, const char *const *v)
{
    uint64_t addr;
    int i, err;

    for (i = n - 1; i >= 0; i--) {
        err = push_string(s, v[i], &addr);
        if (err)
            return err;
    }
    return 0;
}

/* Writes pointers to n strings that lie back to back from *addr upward; returns the next word. */
static uint64_t put_pointers(const struct stack *s, uint64_t q, int n, const char *const *v,
                             uint64_t *addr)
{
    int i;

    for (i = 0; i < n; i++, q += s->word) {
        put_word(s, q, *addr);
        *addr += strlen(v[i]) + 1;
    }
    put_word(s, q, 0);
    return q + s->word;
}

static uint64_t put_auxv(const struct stack *s, uint64_t q, unsigned n,
                         const struct loader_auxv *auxv)
{
    unsigned i;

    for (i = 0; i < n; i++, q += 2 * s->word) {
        put_word(s, q, auxv[i].type);
        put_word(s, q + s->word, auxv[i].val);
    }
    return q;
}

/* Writes argc, argv, envp and auxv upward from sp; strings holds argv[0]'s
 * address. Says in *layout where the strings and auxv are. */
static void put_tables(const struct stack *s, const struct loader_stack_spec *spec, uint64_t sp,
                       uint64_t strings, const struct loader_auxv *own, unsigned nown,
                       struct loader_stack_layout *layout)
{
    static const struct loader_auxv end = {AT_NULL, 0};
    uint64_t q = sp;

    put_word(s, q, (uint64_t)spec->argc);
    layout->arg_start = strings;
    q = put_pointers(s, q + s->word, spec->argc, spec->argv, &strings);
    layout->arg_end = layout->env_start = strings;
    q = put_pointers(s, q, spec->envc, spec->envp, &strings);
    layout->env_end = strings;
    layout->auxv_start = q;
    q = put_auxv(s, q, nown, own);
    q = put_auxv(s, q, spec->nauxv, spec->auxv);
    layout->auxv_end = put_auxv(s, q, 1, &end);
}

static int build(struct stack *s, const struct loader_stack_spec *spec, uint64_t *sp,
                 struct loader_stack_layout *layout)
{
    static const uint8_t zero[8];
    struct loader_auxv own[3];
    uint64_t addr, strings, need, lo;
    unsigned nown;
    int err;

    /* Linux ends the stack with a NULL word, then execfn, envp and argv strings. */
    err = push(s, zero, s->word, &addr);
    if (!err)
        err = push_string(s, spec->execfn, &addr);
    if (err)
        return err;
    own[1] = (struct loader_auxv){AT_EXECFN, addr};
    err = push_strings(s, spec->envc, spec->envp);
    if (!err)
        err = push_strings(s, spec->argc, spec->argv);
    strings = s->p;
    if (!err)
        err = align_down(s, STACK_ALIGN);
    if (!err && spec->platform) {
        err = push_string(s, spec->platform, &addr);
        own[2] = (struct loader_auxv){AT_PLATFORM, addr};
    }
    if (!err)
        err = push(s, spec->random, sizeof(spec->random), &addr);
    if (err)
        return err;
    own[0] = (struct loader_auxv){AT_RANDOM, addr};
    nown = spec->platform ? 3 : 2;

    /* argc, argv + NULL, envp + NULL, auxv pairs + the AT_NULL pair */
    need = (1 + ((uint64_t)spec->argc + 1) + ((uint64_t)spec->envc + 1) +
            2 * ((uint64_t)nown + spec->nauxv + 1)) *
           s->word;
    if (need > s->p - s->base)
        return -E2BIG;
    lo = (s->p - need) & ~(uint64_t)(STACK_ALIGN - 1);
    if (lo < s->base)
        return -E2BIG;
    memset(at(s, lo), 0, s->p - lo);
    s->p = lo;
    put_tables(s, spec, lo, strings, own, nown, layout);
    *sp = lo;
    return 0;
}

int loader_build_stack(const struct loader_stack_spec *spec, uint64_t top, uint8_t *buf,
                       size_t size, uint64_t *sp, struct loader_stack_layout *layout)
{
    struct loader_stack_layout unused;
    struct stack s = {.buf = buf, .base = top - size, .p = top};
    uint64_t limit = spec->isa == LOADER_ISA_ARM ? UINT64_C(1) << 32 : UINT64_MAX;

    if (spec->argc < 0 || spec->envc < 0 || !spec->execfn || top < size || top > limit ||
        (spec->nauxv && !spec->auxv))
        return -EINVAL;
    s.word = spec->isa == LOADER_ISA_ARM ? 4 : 8;
    return build(&s, spec, sp, layout ? layout : &unused);
}
