/* SPDX-License-Identifier: GPL-2.0-or-later */
/* elf.c - validates ELF32/ELF64 executables as Linux's execve would and lists their segments. */
#include "loader.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* Linux reads at most this many bytes of program headers (load_elf_phdrs). */
#define PHDRS_MAX_BYTES 65536u

/* Where user space must end: the kuser page on ARM, a 48-bit VA on AArch64. */
#define ARM_ADDR_LIMIT ((uint64_t)LOADER_KUSER_ADDR)
#define AARCH64_ADDR_LIMIT (UINT64_C(1) << 48)

/* Sizes no real program asks for; Linux would fail such a mapping with ENOMEM. */
#define ARM_MEMSZ_MAX (UINT64_C(3) << 30)
#define AARCH64_MEMSZ_MAX (UINT64_C(1) << 40)

/* The file header and a program header, both classes widened to 64 bits. */
struct ehdr {
    uint16_t type, machine, phentsize, phnum;
    uint32_t version, flags;
    uint64_t entry, phoff;
};

struct phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, filesz, memsz, align;
};

struct parse {
    const uint8_t *data;
    size_t size;
    int is64;
    uint64_t addr_limit, memsz_max;
    char *why;
    size_t whylen;
    struct loader_image *img;
};

static int fail(struct parse *p, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes the one-line reason and returns err. */
static int fail(struct parse *p, int err, const char *fmt, ...)
{
    va_list ap;

    if (p->why && p->whylen) {
        va_start(ap, fmt);
        vsnprintf(p->why, p->whylen, fmt, ap);
        va_end(ap);
    }
    return err;
}

static uint16_t rd16(const uint8_t *b)
{
    return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t rd64(const uint8_t *b)
{
    return (uint64_t)rd32(b) | (uint64_t)rd32(b + 4) << 32;
}

static const char *machine_name(uint16_t machine)
{
    switch (machine) {
    case EM_386:
        return "EM_386";
    case EM_MIPS:
        return "EM_MIPS";
    case EM_PPC:
        return "EM_PPC";
    case EM_PPC64:
        return "EM_PPC64";
    case EM_S390:
        return "EM_S390";
    case EM_ARM:
        return "EM_ARM";
    case EM_X86_64:
        return "EM_X86_64";
    case EM_AARCH64:
        return "EM_AARCH64";
    case EM_RISCV:
        return "EM_RISCV";
    case EM_LOONGARCH:
        return "EM_LOONGARCH";
    default:
        return "unknown";
    }
}

/* e_ident: magic, class, byte order, version. */
static int check_ident(struct parse *p)
{
    const uint8_t *id = p->data;

    if (p->size < SELFMAG || memcmp(id, ELFMAG, SELFMAG) != 0)
        return fail(p, -ENOEXEC, "not an ELF file: bad magic");
    if (p->size < EI_NIDENT)
        return fail(p, -ENOEXEC, "truncated: ELF identification ends at %d, file is %zu bytes",
                    EI_NIDENT, p->size);
    if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
        return fail(p, -ENOEXEC, "bad class: EI_CLASS %u, expected ELFCLASS32 or ELFCLASS64",
                    id[EI_CLASS]);
    if (id[EI_DATA] == ELFDATA2MSB)
        return fail(p, -ENOEXEC, "big-endian (ELFDATA2MSB) not supported, expected ELFDATA2LSB");
    if (id[EI_DATA] != ELFDATA2LSB)
        return fail(p, -ENOEXEC, "bad data encoding: EI_DATA %u, expected ELFDATA2LSB",
                    id[EI_DATA]);
    if (id[EI_VERSION] != EV_CURRENT)
        return fail(p, -ENOEXEC, "bad ELF version: EI_VERSION %u, expected EV_CURRENT (1)",
                    id[EI_VERSION]);
    p->is64 = id[EI_CLASS] == ELFCLASS64;
    return 0;
}

static int read_ehdr(struct parse *p, struct ehdr *eh)
{
    const uint8_t *b = p->data;
    size_t need = p->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);

    if (p->size < need)
        return fail(p, -ENOEXEC, "truncated: ELF header ends at %zu, file is %zu bytes", need,
                    p->size);
    if (p->is64) {
        eh->type = rd16(b + offsetof(Elf64_Ehdr, e_type));
        eh->machine = rd16(b + offsetof(Elf64_Ehdr, e_machine));
        eh->version = rd32(b + offsetof(Elf64_Ehdr, e_version));
        eh->entry = rd64(b + offsetof(Elf64_Ehdr, e_entry));
        eh->phoff = rd64(b + offsetof(Elf64_Ehdr, e_phoff));
        eh->flags = rd32(b + offsetof(Elf64_Ehdr, e_flags));
        eh->phentsize = rd16(b + offsetof(Elf64_Ehdr, e_phentsize));
        eh->phnum = rd16(b + offsetof(Elf64_Ehdr, e_phnum));
    } else {
        eh->type = rd16(b + offsetof(Elf32_Ehdr, e_type));
        eh->machine = rd16(b + offsetof(Elf32_Ehdr, e_machine));
        eh->version = rd32(b + offsetof(Elf32_Ehdr, e_version));
        eh->entry = rd32(b + offsetof(Elf32_Ehdr, e_entry));
        eh->phoff = rd32(b + offsetof(Elf32_Ehdr, e_phoff));
        eh->flags = rd32(b + offsetof(Elf32_Ehdr, e_flags));
        eh->phentsize = rd16(b + offsetof(Elf32_Ehdr, e_phentsize));
        eh->phnum = rd16(b + offsetof(Elf32_Ehdr, e_phnum));
    }
    return 0;
}

/* ARM: what arm64 Linux's compat_elf_check_arch accepts (arch/arm64/
 * include/asm/elf.h): any EABI version but 0 (the old ABI), whatever its
 * float ABI (Go's linux/arm binaries are not marked hard-float); and an
 * entry point Linux's elf_check_arch accepts. */
static int check_arm_flags(struct parse *p, const struct ehdr *eh)
{
    if (!EF_ARM_EABI_VERSION(eh->flags))
        return fail(p, -ENOEXEC,
                    "old-ABI ARM binary (e_flags 0x%" PRIx32 ", EABI version 0): arm64 Linux "
                    "runs EABI programs only",
                    eh->flags);
    if ((eh->entry & 3) == 2)
        return fail(p, -ENOEXEC, "misaligned ARM entry point 0x%" PRIx64, eh->entry);
    return 0;
}

static int check_ehdr(struct parse *p, const struct ehdr *eh)
{
    int want_machine = p->is64 ? EM_AARCH64 : EM_ARM;
    size_t want_phentsize = p->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    const char *cls = p->is64 ? "ELFCLASS64" : "ELFCLASS32";
    uint64_t phsize;

    if (eh->version != EV_CURRENT)
        return fail(p, -ENOEXEC, "bad ELF version: e_version %" PRIu32 ", expected EV_CURRENT (1)",
                    eh->version);
    if (eh->type == ET_REL)
        return fail(p, -ENOEXEC, "not an executable: ET_REL (relocatable object)");
    if (eh->type == ET_CORE)
        return fail(p, -ENOEXEC, "not an executable: ET_CORE (core dump)");
    if (eh->type != ET_EXEC && eh->type != ET_DYN)
        return fail(p, -ENOEXEC, "not an executable: e_type %u, expected ET_EXEC or ET_DYN",
                    eh->type);
    if (eh->machine != EM_AARCH64 && eh->machine != EM_ARM)
        return fail(p, -ENOEXEC, "wrong machine: %s (%u), expected EM_AARCH64 or EM_ARM",
                    machine_name(eh->machine), eh->machine);
    if (eh->machine != want_machine)
        return fail(p, -ENOEXEC, "wrong class: %s needs %s, file is %s", machine_name(eh->machine),
                    p->is64 ? "ELFCLASS32" : "ELFCLASS64", cls);
    if (!p->is64) {
        int err = check_arm_flags(p, eh);
        if (err)
            return err;
    }
    if (eh->phentsize != want_phentsize)
        return fail(p, -ENOEXEC, "bad e_phentsize %u, expected %zu for %s", eh->phentsize,
                    want_phentsize, cls);
    if (eh->phnum == 0)
        return fail(p, -ENOEXEC, "no program headers (e_phnum 0)");
    phsize = (uint64_t)eh->phnum * eh->phentsize;
    if (phsize > PHDRS_MAX_BYTES)
        return fail(p, -ENOEXEC, "too many program headers: %u of %u bytes exceed %u bytes",
                    eh->phnum, eh->phentsize, PHDRS_MAX_BYTES);
    if (eh->phoff > UINT64_MAX - phsize)
        return fail(p, -ENOEXEC, "program header offset 0x%" PRIx64 " overflows", eh->phoff);
    if (eh->phoff + phsize > p->size)
        return fail(p, -ENOEXEC, "truncated: program headers end at %" PRIu64 ", file is %zu bytes",
                    eh->phoff + phsize, p->size);
    return 0;
}

static void read_phdr(const struct parse *p, const struct ehdr *eh, unsigned i, struct phdr *ph)
{
    const uint8_t *b = p->data + eh->phoff + (uint64_t)i * eh->phentsize;

    if (p->is64) {
        ph->type = rd32(b + offsetof(Elf64_Phdr, p_type));
        ph->flags = rd32(b + offsetof(Elf64_Phdr, p_flags));
        ph->offset = rd64(b + offsetof(Elf64_Phdr, p_offset));
        ph->vaddr = rd64(b + offsetof(Elf64_Phdr, p_vaddr));
        ph->filesz = rd64(b + offsetof(Elf64_Phdr, p_filesz));
        ph->memsz = rd64(b + offsetof(Elf64_Phdr, p_memsz));
        ph->align = rd64(b + offsetof(Elf64_Phdr, p_align));
    } else {
        ph->type = rd32(b + offsetof(Elf32_Phdr, p_type));
        ph->flags = rd32(b + offsetof(Elf32_Phdr, p_flags));
        ph->offset = rd32(b + offsetof(Elf32_Phdr, p_offset));
        ph->vaddr = rd32(b + offsetof(Elf32_Phdr, p_vaddr));
        ph->filesz = rd32(b + offsetof(Elf32_Phdr, p_filesz));
        ph->memsz = rd32(b + offsetof(Elf32_Phdr, p_memsz));
        ph->align = rd32(b + offsetof(Elf32_Phdr, p_align));
    }
}

/* Program header i's bytes [offset, offset + filesz) must lie inside the file. */
static int check_in_file(struct parse *p, unsigned i, const char *what, const struct phdr *ph)
{
    if (ph->offset > UINT64_MAX - ph->filesz)
        return fail(p, -ENOEXEC,
                    "%s (program header %u): p_offset 0x%" PRIx64 " + p_filesz 0x%" PRIx64
                    " overflows",
                    what, i, ph->offset, ph->filesz);
    if (ph->offset + ph->filesz > p->size)
        return fail(p, -ENOEXEC,
                    "truncated: %s (program header %u) ends at %" PRIu64 ", file is %zu bytes",
                    what, i, ph->offset + ph->filesz, p->size);
    return 0;
}

static int prot_of(uint32_t flags)
{
    return (flags & PF_R ? PROT_READ : 0) | (flags & PF_W ? PROT_WRITE : 0) |
           (flags & PF_X ? PROT_EXEC : 0);
}

/* Whether p_vaddr + p_memsz passes the top of the class's address arithmetic. */
static int end_wraps(const struct parse *p, const struct phdr *ph)
{
    if (p->is64)
        return ph->vaddr > UINT64_MAX - ph->memsz;
    return ph->vaddr + ph->memsz > (uint64_t)UINT32_MAX + 1;
}

static int add_load(struct parse *p, unsigned i, const struct phdr *ph)
{
    struct loader_image *img = p->img;
    const struct loader_segment *prev = img->nseg ? &img->seg[img->nseg - 1] : NULL;
    uint64_t end, skew = ph->vaddr - ph->offset;
    struct loader_segment *s;
    int err;

    if (ph->filesz > ph->memsz)
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): p_filesz 0x%" PRIx64
                    " exceeds p_memsz 0x%" PRIx64,
                    i, ph->filesz, ph->memsz);
    err = check_in_file(p, i, "PT_LOAD", ph);
    if (err)
        return err;
    if (ph->memsz > p->memsz_max)
        return fail(p, -ENOMEM,
                    "PT_LOAD (program header %u): p_memsz 0x%" PRIx64
                    " is too large (limit 0x%" PRIx64 ")",
                    i, ph->memsz, p->memsz_max);
    if (end_wraps(p, ph))
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): p_vaddr 0x%" PRIx64 " + p_memsz 0x%" PRIx64
                    " wraps around",
                    i, ph->vaddr, ph->memsz);
    end = ph->vaddr + ph->memsz;
    if (end > p->addr_limit)
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): ends at 0x%" PRIx64
                    ", above the %s address-space limit 0x%" PRIx64,
                    i, end, p->is64 ? "AArch64" : "ARM", p->addr_limit);
    if (skew % LOADER_PAGE_SIZE)
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): p_vaddr 0x%" PRIx64 " and p_offset 0x%" PRIx64
                    " differ modulo the page size %u",
                    i, ph->vaddr, ph->offset, LOADER_PAGE_SIZE);
    /* p_align must be a power of two to mean anything; Linux ignores the rest. */
    if (ph->align > 1 && !(ph->align & (ph->align - 1)) && (skew & (ph->align - 1)))
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): p_vaddr 0x%" PRIx64 " and p_offset 0x%" PRIx64
                    " differ modulo p_align 0x%" PRIx64,
                    i, ph->vaddr, ph->offset, ph->align);
    if (ph->memsz == 0)
        return 0;
    if (prev && ph->vaddr < prev->vaddr)
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): p_vaddr 0x%" PRIx64
                    " below the previous segment's 0x%" PRIx64 " (segments not sorted)",
                    i, ph->vaddr, prev->vaddr);
    if (prev && ph->vaddr < prev->vaddr + prev->memsz)
        return fail(p, -EINVAL,
                    "PT_LOAD (program header %u): [0x%" PRIx64 ", 0x%" PRIx64
                    ") overlaps the previous segment [0x%" PRIx64 ", 0x%" PRIx64 ")",
                    i, ph->vaddr, end, prev->vaddr, prev->vaddr + prev->memsz);
    if (img->nseg == LOADER_MAX_SEGMENTS)
        return fail(p, -ENOEXEC, "too many PT_LOAD segments: more than %d", LOADER_MAX_SEGMENTS);
    s = &img->seg[img->nseg++];
    s->vaddr = ph->vaddr;
    s->memsz = ph->memsz;
    s->filesz = ph->filesz;
    s->offset = ph->offset;
    s->prot = prot_of(ph->flags);
    return 0;
}

/* Copies at most 64 bytes of an untrusted string, replacing what would break a one-line reason. */
static void printable(char *dst, size_t dstlen, const char *src)
{
    size_t i;

    for (i = 0; i + 1 < dstlen && src[i]; i++)
        dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
    dst[i] = '\0';
}

static int set_interp(struct parse *p, unsigned i, const struct phdr *ph)
{
    const char *path;
    char shown[65];
    int err;

    if (p->img->interp[0])
        return fail(p, -ENOEXEC, "more than one PT_INTERP (program header %u)", i);
    err = check_in_file(p, i, "PT_INTERP", ph);
    if (err)
        return err;
    path = (const char *)p->data + ph->offset;
    if (ph->filesz > LOADER_INTERP_MAX)
        return fail(p, -ENOEXEC, "PT_INTERP path too long: %" PRIu64 " bytes, limit %d", ph->filesz,
                    LOADER_INTERP_MAX);
    if (ph->filesz < 2 || path[0] == '\0')
        return fail(p, -ENOEXEC, "PT_INTERP path is empty");
    if (path[ph->filesz - 1] != '\0')
        return fail(p, -ENOEXEC, "PT_INTERP path is not NUL-terminated");
    if (path[0] != '/') {
        printable(shown, sizeof(shown), path);
        return fail(p, -ENOEXEC, "PT_INTERP path \"%s\" is not absolute", shown);
    }
    memcpy(p->img->interp, path, ph->filesz);
    return 0;
}

static int walk_phdrs(struct parse *p, const struct ehdr *eh, int *have_phdr)
{
    struct phdr ph;
    unsigned i;
    int err = 0;

    for (i = 0; i < eh->phnum && !err; i++) {
        read_phdr(p, eh, i, &ph);
        switch (ph.type) {
        case PT_LOAD:
            err = add_load(p, i, &ph);
            break;
        case PT_INTERP:
            err = set_interp(p, i, &ph);
            break;
        case PT_GNU_STACK:
            p->img->exec_stack = !!(ph.flags & PF_X);
            break;
        case PT_PHDR:
            if (!*have_phdr)
                p->img->phdr_vaddr = ph.vaddr;
            *have_phdr = 1;
            break;
        default:
            break;
        }
    }
    return err;
}

static const struct loader_segment *segment_at(const struct loader_image *img, uint64_t addr)
{
    unsigned i;

    for (i = 0; i < img->nseg; i++)
        if (addr >= img->seg[i].vaddr && addr - img->seg[i].vaddr < img->seg[i].memsz)
            return &img->seg[i];
    return NULL;
}

/* Linux's AT_PHDR without PT_PHDR: the PT_LOAD whose file bytes hold e_phoff. */
static uint64_t phdr_from_loads(const struct loader_image *img, uint64_t phoff)
{
    unsigned i;

    for (i = 0; i < img->nseg; i++) {
        const struct loader_segment *s = &img->seg[i];
        if (phoff >= s->offset && phoff - s->offset < s->filesz)
            return s->vaddr + (phoff - s->offset);
    }
    return 0;
}

static int finish(struct parse *p, const struct ehdr *eh, int have_phdr)
{
    struct loader_image *img = p->img;
    const struct loader_segment *last, *s;
    uint64_t entry = p->is64 ? eh->entry : eh->entry & ~UINT64_C(1);

    if (img->nseg == 0)
        return fail(p, -ENOEXEC, "no PT_LOAD segment with p_memsz > 0");
    s = segment_at(img, entry);
    if (!s || !(s->prot & PROT_EXEC))
        return fail(p, -ENOEXEC,
                    "entry point 0x%" PRIx64 " is not inside an executable PT_LOAD segment",
                    eh->entry);
    last = &img->seg[img->nseg - 1];
    img->lo = img->seg[0].vaddr & ~(uint64_t)(LOADER_PAGE_SIZE - 1);
    img->hi =
        (last->vaddr + last->memsz + LOADER_PAGE_SIZE - 1) & ~(uint64_t)(LOADER_PAGE_SIZE - 1);
    /* An ET_DYN image is placed as one block: its whole span must be reservable. */
    if (img->is_dyn && img->hi - img->lo > p->memsz_max)
        return fail(p, -ENOMEM, "PT_LOAD segments span 0x%" PRIx64 " bytes (limit 0x%" PRIx64 ")",
                    img->hi - img->lo, p->memsz_max);
    img->isa = p->is64 ? LOADER_ISA_AARCH64 : LOADER_ISA_ARM;
    img->entry = eh->entry;
    img->phnum = eh->phnum;
    img->phentsize = eh->phentsize;
    if (!have_phdr)
        img->phdr_vaddr = phdr_from_loads(img, eh->phoff);
    return 0;
}

int loader_parse(const void *data, size_t size, struct loader_image *img, char *why, size_t whylen)
{
    struct parse p = {.data = data, .size = size, .why = why, .whylen = whylen, .img = img};
    struct ehdr eh = {0};
    int have_phdr = 0;
    int err;

    memset(img, 0, sizeof(*img));
    if (why && whylen)
        why[0] = '\0';
    err = check_ident(&p);
    if (!err)
        err = read_ehdr(&p, &eh);
    if (!err)
        err = check_ehdr(&p, &eh);
    if (err)
        return err;
    p.addr_limit = p.is64 ? AARCH64_ADDR_LIMIT : ARM_ADDR_LIMIT;
    p.memsz_max = p.is64 ? AARCH64_MEMSZ_MAX : ARM_MEMSZ_MAX;
    img->is_dyn = eh.type == ET_DYN;
    err = walk_phdrs(&p, &eh, &have_phdr);
    if (!err)
        err = finish(&p, &eh, have_phdr);
    if (err)
        memset(img, 0, sizeof(*img));
    return err;
}
