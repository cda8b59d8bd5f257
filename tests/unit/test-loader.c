/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-loader.c - loader/: ELF checks on synthetic images, the initial stack, the kuser page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "loader.h"

/* ---- building ELF images in memory ---- */

#define MAX_PH 24

struct tph {
    uint32_t type, flags;
    uint64_t offset, vaddr, filesz, memsz, align;
};

/* Everything an image header says, widened; build() writes it for either class. */
struct telf {
    int is64;
    uint16_t type, machine, phentsize, phnum;
    uint32_t flags;
    uint64_t entry, phoff;
    unsigned nph;
    struct tph ph[MAX_PH];
    size_t size;
};

static uint8_t image[1 << 17];

static void wr16(uint8_t *b, uint16_t v)
{
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}

static void wr32(uint8_t *b, uint32_t v)
{
    wr16(b, (uint16_t)v);
    wr16(b + 2, (uint16_t)(v >> 16));
}

static void wr64(uint8_t *b, uint64_t v)
{
    wr32(b, (uint32_t)v);
    wr32(b + 4, (uint32_t)(v >> 32));
}

static void write_ehdr(const struct telf *t)
{
    memcpy(image, ELFMAG, SELFMAG);
    image[EI_CLASS] = t->is64 ? ELFCLASS64 : ELFCLASS32;
    image[EI_DATA] = ELFDATA2LSB;
    image[EI_VERSION] = EV_CURRENT;
    if (t->is64) {
        wr16(image + offsetof(Elf64_Ehdr, e_type), t->type);
        wr16(image + offsetof(Elf64_Ehdr, e_machine), t->machine);
        wr32(image + offsetof(Elf64_Ehdr, e_version), EV_CURRENT);
        wr64(image + offsetof(Elf64_Ehdr, e_entry), t->entry);
        wr64(image + offsetof(Elf64_Ehdr, e_phoff), t->phoff);
        wr32(image + offsetof(Elf64_Ehdr, e_flags), t->flags);
        wr16(image + offsetof(Elf64_Ehdr, e_ehsize), sizeof(Elf64_Ehdr));
        wr16(image + offsetof(Elf64_Ehdr, e_phentsize), t->phentsize);
        wr16(image + offsetof(Elf64_Ehdr, e_phnum), t->phnum);
    } else {
        wr16(image + offsetof(Elf32_Ehdr, e_type), t->type);
        wr16(image + offsetof(Elf32_Ehdr, e_machine), t->machine);
        wr32(image + offsetof(Elf32_Ehdr, e_version), EV_CURRENT);
        wr32(image + offsetof(Elf32_Ehdr, e_entry), (uint32_t)t->entry);
        wr32(image + offsetof(Elf32_Ehdr, e_phoff), (uint32_t)t->phoff);
        wr32(image + offsetof(Elf32_Ehdr, e_flags), t->flags);
        wr16(image + offsetof(Elf32_Ehdr, e_ehsize), sizeof(Elf32_Ehdr));
        wr16(image + offsetof(Elf32_Ehdr, e_phentsize), t->phentsize);
        wr16(image + offsetof(Elf32_Ehdr, e_phnum), t->phnum);
    }
}

static void write_phdr(const struct telf *t, uint8_t *b, const struct tph *ph)
{
    if (t->is64) {
        wr32(b + offsetof(Elf64_Phdr, p_type), ph->type);
        wr32(b + offsetof(Elf64_Phdr, p_flags), ph->flags);
        wr64(b + offsetof(Elf64_Phdr, p_offset), ph->offset);
        wr64(b + offsetof(Elf64_Phdr, p_vaddr), ph->vaddr);
        wr64(b + offsetof(Elf64_Phdr, p_paddr), ph->vaddr);
        wr64(b + offsetof(Elf64_Phdr, p_filesz), ph->filesz);
        wr64(b + offsetof(Elf64_Phdr, p_memsz), ph->memsz);
        wr64(b + offsetof(Elf64_Phdr, p_align), ph->align);
    } else {
        wr32(b + offsetof(Elf32_Phdr, p_type), ph->type);
        wr32(b + offsetof(Elf32_Phdr, p_flags), ph->flags);
        wr32(b + offsetof(Elf32_Phdr, p_offset), (uint32_t)ph->offset);
        wr32(b + offsetof(Elf32_Phdr, p_vaddr), (uint32_t)ph->vaddr);
        wr32(b + offsetof(Elf32_Phdr, p_paddr), (uint32_t)ph->vaddr);
        wr32(b + offsetof(Elf32_Phdr, p_filesz), (uint32_t)ph->filesz);
        wr32(b + offsetof(Elf32_Phdr, p_memsz), (uint32_t)ph->memsz);
        wr32(b + offsetof(Elf32_Phdr, p_align), (uint32_t)ph->align);
    }
}

/* Writes t into image (zeroed first) and returns the file size. Program headers
 * that would not fit the buffer (a huge e_phoff) are left out. */
static size_t build(const struct telf *t)
{
    size_t entsize = t->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    unsigned i;

    memset(image, 0, sizeof(image));
    write_ehdr(t);
    for (i = 0; i < t->nph; i++) {
        if (t->phoff > sizeof(image) || (i + 1) * entsize > sizeof(image) - t->phoff)
            break;
        write_phdr(t, image + t->phoff + i * entsize, &t->ph[i]);
    }
    return t->size;
}

static struct tph *add_ph(struct telf *t, uint32_t type, uint32_t flags, uint64_t offset,
                          uint64_t vaddr, uint64_t filesz, uint64_t memsz, uint64_t align)
{
    struct tph *ph = &t->ph[t->nph++];

    *ph = (struct tph){type, flags, offset, vaddr, filesz, memsz, align};
    t->phnum = (uint16_t)t->nph;
    return ph;
}

/* A static AArch64 ET_EXEC: text RX at 0x400000, data RW at 0x411000 (bss after). */
static struct telf elf64_exec(void)
{
    struct telf t = {.is64 = 1,
                     .type = ET_EXEC,
                     .machine = EM_AARCH64,
                     .phentsize = sizeof(Elf64_Phdr),
                     .entry = 0x400100,
                     .phoff = sizeof(Elf64_Ehdr),
                     .size = 0x1100};

    add_ph(&t, PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x1000, 0x1000, 0x10000);
    add_ph(&t, PT_LOAD, PF_R | PF_W, 0x1000, 0x411000, 0x100, 0x2000, 0x10000);
    add_ph(&t, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0x10);
    return t;
}

/* A static armhf ET_EXEC with a Thumb entry point, like Debian's gcc makes. */
static struct telf elf32_exec(void)
{
    struct telf t = {.is64 = 0,
                     .type = ET_EXEC,
                     .machine = EM_ARM,
                     .flags = EF_ARM_EABI_VER5 | EF_ARM_ABI_FLOAT_HARD,
                     .phentsize = sizeof(Elf32_Phdr),
                     .entry = 0x10101,
                     .phoff = sizeof(Elf32_Ehdr),
                     .size = 0x1080};

    add_ph(&t, PT_LOAD, PF_R | PF_X, 0, 0x10000, 0x1000, 0x1000, 0x1000);
    add_ph(&t, PT_LOAD, PF_R | PF_W, 0x1000, 0x21000, 0x80, 0x1000, 0x1000);
    add_ph(&t, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0x10);
    return t;
}

/* An AArch64 static-pie: ET_DYN based at 0 with a PT_PHDR. */
static struct telf elf64_pie(void)
{
    struct telf t = {.is64 = 1,
                     .type = ET_DYN,
                     .machine = EM_AARCH64,
                     .phentsize = sizeof(Elf64_Phdr),
                     .entry = 0x200,
                     .phoff = sizeof(Elf64_Ehdr),
                     .size = 0x1100};

    add_ph(&t, PT_PHDR, PF_R, 0x40, 0x40, 4 * sizeof(Elf64_Phdr), 4 * sizeof(Elf64_Phdr), 8);
    add_ph(&t, PT_LOAD, PF_R | PF_X, 0, 0, 0x1000, 0x1000, 0x10000);
    add_ph(&t, PT_LOAD, PF_R | PF_W, 0x1000, 0x11000, 0x100, 0x1800, 0x10000);
    add_ph(&t, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0x10);
    return t;
}

#define INTERP64 "/lib/ld-linux-aarch64.so.1"
#define INTERP_OFF 0x300

/* elf64_pie() with a PT_INTERP at INTERP_OFF; the caller writes the path. */
static struct telf elf64_dyn_interp(size_t len)
{
    struct telf t = elf64_pie();

    t.ph[0].filesz = t.ph[0].memsz = 5 * sizeof(Elf64_Phdr);
    add_ph(&t, PT_INTERP, PF_R, INTERP_OFF, INTERP_OFF, len, len, 1);
    return t;
}

/* ---- checking loader_parse ---- */

static struct loader_image img;
static char why[256];

static void assert_parses(size_t size)
{
    int err = loader_parse(image, size, &img, why, sizeof(why));

    if (err != 0)
        fail_msg("loader_parse returned %d: %s", err, why);
    assert_string_equal(why, "");
}

static void assert_refused(size_t size, int err, const char *reason)
{
    assert_int_equal(loader_parse(image, size, &img, why, sizeof(why)), err);
    if (!strstr(why, reason))
        fail_msg("reason \"%s\" does not contain \"%s\"", why, reason);
}

static void assert_segment(unsigned i, uint64_t vaddr, uint64_t memsz, uint64_t filesz,
                           uint64_t offset, int prot)
{
    assert_in_range(i, 0, img.nseg - 1);
    assert_int_equal(img.seg[i].vaddr, vaddr);
    assert_int_equal(img.seg[i].memsz, memsz);
    assert_int_equal(img.seg[i].filesz, filesz);
    assert_int_equal(img.seg[i].offset, offset);
    assert_int_equal(img.seg[i].prot, prot);
}

/* ---- valid images ---- */

static void test_parse_elf64_exec(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    assert_parses(build(&t));
    assert_int_equal(img.isa, LOADER_ISA_AARCH64);
    assert_int_equal(img.is_dyn, 0);
    assert_int_equal(img.entry, 0x400100);
    assert_int_equal(img.phdr_vaddr, 0x400040);
    assert_int_equal(img.phnum, 3);
    assert_int_equal(img.phentsize, 56);
    assert_int_equal(img.lo, 0x400000);
    assert_int_equal(img.hi, 0x413000);
    assert_int_equal(img.nseg, 2);
    assert_segment(0, 0x400000, 0x1000, 0x1000, 0, PROT_READ | PROT_EXEC);
    assert_segment(1, 0x411000, 0x2000, 0x100, 0x1000, PROT_READ | PROT_WRITE);
    assert_string_equal(img.interp, "");
    assert_int_equal(img.exec_stack, 0);
}

static void test_parse_elf32_arm_exec(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    assert_parses(build(&t));
    assert_int_equal(img.isa, LOADER_ISA_ARM);
    assert_int_equal(img.is_dyn, 0);
    assert_int_equal(img.entry, 0x10101);
    assert_int_equal(img.phdr_vaddr, 0x10034);
    assert_int_equal(img.phnum, 3);
    assert_int_equal(img.phentsize, 32);
    assert_int_equal(img.lo, 0x10000);
    assert_int_equal(img.hi, 0x22000);
    assert_int_equal(img.nseg, 2);
    assert_segment(0, 0x10000, 0x1000, 0x1000, 0, PROT_READ | PROT_EXEC);
    assert_segment(1, 0x21000, 0x1000, 0x80, 0x1000, PROT_READ | PROT_WRITE);
}

static void test_parse_elf32_arm_entry(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.entry = 0x10ffc; /* ARM state, last word of the text segment */
    assert_parses(build(&t));
    assert_int_equal(img.entry, 0x10ffc);
}

static void test_parse_static_pie(void **state)
{
    struct telf t = elf64_pie();

    (void)state;
    assert_parses(build(&t));
    assert_int_equal(img.is_dyn, 1);
    assert_int_equal(img.entry, 0x200);
    assert_int_equal(img.phdr_vaddr, 0x40);
    assert_int_equal(img.lo, 0);
    assert_int_equal(img.hi, 0x13000);
    assert_int_equal(img.nseg, 2);
    assert_segment(1, 0x11000, 0x1800, 0x100, 0x1000, PROT_READ | PROT_WRITE);
}

static void test_parse_phdr_from_pt_phdr(void **state)
{
    struct telf t = elf64_pie();

    (void)state;
    t.ph[0].vaddr = 0x840; /* PT_PHDR wins over the PT_LOAD computation */
    assert_parses(build(&t));
    assert_int_equal(img.phdr_vaddr, 0x840);
}

static void test_parse_phdr_not_loaded(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[0].offset = 0x1000; /* text no longer covers the program headers at 64 */
    t.ph[0].vaddr = 0x401000;
    t.ph[0].filesz = 0x100;
    t.entry = 0x401000;
    assert_parses(build(&t));
    assert_int_equal(img.phdr_vaddr, 0);
}

static void test_parse_interp(void **state)
{
    struct telf t = elf64_dyn_interp(sizeof(INTERP64));
    size_t size = build(&t);

    (void)state;
    memcpy(image + INTERP_OFF, INTERP64, sizeof(INTERP64));
    assert_parses(size);
    assert_string_equal(img.interp, INTERP64);
}

static void test_parse_interp_longest(void **state)
{
    struct telf t = elf64_dyn_interp(LOADER_INTERP_MAX);
    size_t size = build(&t);

    (void)state;
    image[INTERP_OFF] = '/';
    memset(image + INTERP_OFF + 1, 'a', LOADER_INTERP_MAX - 2);
    assert_parses(size);
    assert_int_equal(strlen(img.interp), LOADER_INTERP_MAX - 1);
}

static void test_parse_exec_stack(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[2].flags = PF_R | PF_W | PF_X;
    assert_parses(build(&t));
    assert_int_equal(img.exec_stack, 1);
}

static void test_parse_empty_load_dropped(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    add_ph(&t, PT_LOAD, PF_R, 0, 0x100000, 0, 0, 0x1000);
    assert_parses(build(&t));
    assert_int_equal(img.nseg, 2);
    assert_int_equal(img.hi, 0x413000);
}

static void test_parse_shared_page(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.ph[0].memsz = t.ph[0].filesz = 0x1010; /* text ends inside page 0x11000 */
    t.ph[1].offset = 0x1010;
    t.ph[1].vaddr = 0x11010; /* and data starts in it */
    t.size = 0x1090;
    assert_parses(build(&t));
    assert_int_equal(img.nseg, 2);
    assert_int_equal(img.hi, 0x13000);
}

static void test_parse_why_optional(void **state)
{
    struct telf t = elf64_exec();
    size_t size = build(&t);

    (void)state;
    image[0] = 0;
    assert_int_equal(loader_parse(image, size, &img, NULL, 0), -ENOEXEC);
    why[0] = 'x';
    assert_int_equal(loader_parse(image, size, &img, why, 1), -ENOEXEC);
    assert_string_equal(why, "");
}

static void test_parse_failure_clears_image(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.entry = 0x411000;
    assert_refused(build(&t), -ENOEXEC, "entry point");
    assert_int_equal(img.nseg, 0);
    assert_int_equal(img.lo, 0);
}

/* ---- truncated files ---- */

static void test_parse_truncated_empty(void **state)
{
    (void)state;
    assert_refused(0, -ENOEXEC, "not an ELF file: bad magic");
}

static void test_parse_truncated_ident(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    build(&t);
    assert_refused(10, -ENOEXEC, "truncated: ELF identification ends at 16, file is 10 bytes");
}

static void test_parse_truncated_ehdr64(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    build(&t);
    assert_refused(40, -ENOEXEC, "truncated: ELF header ends at 64, file is 40 bytes");
}

static void test_parse_truncated_ehdr32(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    build(&t);
    assert_refused(51, -ENOEXEC, "truncated: ELF header ends at 52, file is 51 bytes");
}

static void test_parse_truncated_phdrs(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    build(&t);
    assert_refused(200, -ENOEXEC, "truncated: program headers end at 232, file is 200 bytes");
}

static void test_parse_truncated_phdrs32(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    build(&t);
    assert_refused(147, -ENOEXEC, "truncated: program headers end at 148, file is 147 bytes");
}

static void test_parse_truncated_segment(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.size = 0x10ff;
    assert_refused(build(&t), -ENOEXEC,
                   "truncated: PT_LOAD (program header 1) ends at 4352, file is 4351 bytes");
}

static void test_parse_truncated_interp(void **state)
{
    struct telf t = elf64_dyn_interp(sizeof(INTERP64));

    (void)state;
    t.ph[4].offset = 0x10f0;
    assert_refused(build(&t), -ENOEXEC,
                   "truncated: PT_INTERP (program header 4) ends at 4363, file is 4352 bytes");
}

/* ---- bad identification and file header ---- */

static void test_parse_bad_magic(void **state)
{
    struct telf t = elf64_exec();
    size_t size = build(&t);

    (void)state;
    image[3] = 'G';
    assert_refused(size, -ENOEXEC, "not an ELF file: bad magic");
}

static void test_parse_bad_class(void **state)
{
    struct telf t = elf64_exec();
    size_t size = build(&t);

    (void)state;
    image[EI_CLASS] = 3;
    assert_refused(size, -ENOEXEC, "bad class: EI_CLASS 3, expected ELFCLASS32 or ELFCLASS64");
}

static void test_parse_wrong_class_aarch64(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.machine = EM_AARCH64;
    assert_refused(build(&t), -ENOEXEC,
                   "wrong class: EM_AARCH64 needs ELFCLASS64, file is ELFCLASS32");
}

static void test_parse_wrong_class_arm(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.machine = EM_ARM;
    assert_refused(build(&t), -ENOEXEC, "wrong class: EM_ARM needs ELFCLASS32, file is ELFCLASS64");
}

static void test_parse_wrong_machine_x86_64(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.machine = EM_X86_64;
    assert_refused(build(&t), -ENOEXEC,
                   "wrong machine: EM_X86_64 (62), expected EM_AARCH64 or EM_ARM");
}

static void test_parse_wrong_machine_unknown(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.machine = 9999;
    assert_refused(build(&t), -ENOEXEC, "wrong machine: unknown (9999)");
}

static void test_parse_big_endian(void **state)
{
    struct telf t = elf64_exec();
    size_t size = build(&t);

    (void)state;
    image[EI_DATA] = ELFDATA2MSB;
    assert_refused(size, -ENOEXEC, "big-endian (ELFDATA2MSB) not supported");
}

static void test_parse_bad_data(void **state)
{
    struct telf t = elf64_exec();
    size_t size = build(&t);

    (void)state;
    image[EI_DATA] = 0;
    assert_refused(size, -ENOEXEC, "bad data encoding: EI_DATA 0");
}

static void test_parse_bad_ident_version(void **state)
{
    struct telf t = elf64_exec();
    size_t size = build(&t);

    (void)state;
    image[EI_VERSION] = 2;
    assert_refused(size, -ENOEXEC, "bad ELF version: EI_VERSION 2");
}

static void test_parse_bad_e_version(void **state)
{
    struct telf t = elf32_exec();
    size_t size = build(&t);

    (void)state;
    wr32(image + offsetof(Elf32_Ehdr, e_version), 0);
    assert_refused(size, -ENOEXEC, "bad ELF version: e_version 0");
}

static void test_parse_et_rel(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.type = ET_REL;
    assert_refused(build(&t), -ENOEXEC, "not an executable: ET_REL");
}

static void test_parse_et_core(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.type = ET_CORE;
    assert_refused(build(&t), -ENOEXEC, "not an executable: ET_CORE");
}

static void test_parse_et_unknown(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.type = 0xfe00;
    assert_refused(build(&t), -ENOEXEC, "not an executable: e_type 65024");
}

/* compat_elf_check_arch: any EABI version but 0, whatever the float ABI. */
static void test_parse_arm_soft_float(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.flags = EF_ARM_EABI_VER5 | EF_ARM_ABI_FLOAT_SOFT;
    assert_parses(build(&t));
}

static void test_parse_arm_float_unmarked(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.flags = EF_ARM_EABI_VER5;
    assert_parses(build(&t));
}

static void test_parse_arm_old_eabi(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.flags = EF_ARM_EABI_VER4 | EF_ARM_ABI_FLOAT_HARD;
    assert_parses(build(&t));
}

static void test_parse_arm_oabi(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.flags = 0;
    assert_refused(build(&t), -ENOEXEC, "old-ABI ARM binary (e_flags 0x0, EABI version 0)");
}

static void test_parse_arm_misaligned_entry(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.entry = 0x10102;
    assert_refused(build(&t), -ENOEXEC, "misaligned ARM entry point 0x10102");
}

static void test_parse_phentsize_wrong(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.phentsize = sizeof(Elf32_Phdr);
    assert_refused(build(&t), -ENOEXEC, "bad e_phentsize 32, expected 56 for ELFCLASS64");
}

static void test_parse_phentsize_wrong32(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.phentsize = sizeof(Elf64_Phdr);
    assert_refused(build(&t), -ENOEXEC, "bad e_phentsize 56, expected 32 for ELFCLASS32");
}

static void test_parse_phnum_zero(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.phnum = 0;
    assert_refused(build(&t), -ENOEXEC, "no program headers (e_phnum 0)");
}

static void test_parse_phnum_huge(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.phnum = 1171; /* 1171 * 56 = 65576 */
    assert_refused(build(&t), -ENOEXEC, "too many program headers: 1171 of 56 bytes exceed 65536");
}

static void test_parse_phnum_largest(void **state)
{
    struct telf t = elf32_exec();
    size_t size;

    (void)state;
    t.phnum = 2048; /* 2048 * 32 = 65536: allowed; the rest are PT_NULL */
    t.size = 0x12000;
    t.ph[0].filesz = t.ph[0].memsz = 0x11000; /* text covers the headers, ending at 0x10034 */
    t.ph[1].offset = 0x11000;
    size = build(&t);
    assert_parses(size);
    assert_int_equal(img.phnum, 2048);
}

static void test_parse_phoff_beyond_file(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.phoff = 0x2000;
    assert_refused(build(&t), -ENOEXEC,
                   "truncated: program headers end at 8360, file is 4352 bytes");
}

static void test_parse_phoff_overflow(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.phoff = UINT64_MAX - 100;
    assert_refused(build(&t), -ENOEXEC, "program header offset 0xffffffffffffff9b overflows");
}

/* ---- PT_LOAD layouts ---- */

static void test_parse_filesz_over_memsz(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].filesz = 0x2001;
    t.size = 0x4000;
    assert_refused(build(&t), -EINVAL,
                   "PT_LOAD (program header 1): p_filesz 0x2001 exceeds p_memsz 0x2000");
}

static void test_parse_offset_filesz_beyond_file(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.ph[1].offset = 0x2000;
    t.ph[1].vaddr = 0x22000;
    assert_refused(build(&t), -ENOEXEC,
                   "truncated: PT_LOAD (program header 1) ends at 8320, file is 4224 bytes");
}

static void test_parse_offset_filesz_overflow(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].offset = UINT64_MAX - 0xff;
    t.ph[1].vaddr = 0x410000;
    assert_refused(build(&t), -ENOEXEC,
                   "PT_LOAD (program header 1): p_offset 0xffffffffffffff00 + p_filesz 0x100 "
                   "overflows");
}

static void test_parse_overlapping_segments(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].offset = 0x800;
    t.ph[1].vaddr = 0x400800;
    assert_refused(build(&t), -EINVAL,
                   "PT_LOAD (program header 1): [0x400800, 0x402800) overlaps the previous "
                   "segment [0x400000, 0x401000)");
}

static void test_parse_unsorted_segments(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].vaddr = 0x301000;
    assert_refused(build(&t), -EINVAL,
                   "below the previous segment's 0x400000 (segments not sorted)");
}

static void test_parse_misaligned_vaddr_offset(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].vaddr = 0x411800;
    assert_refused(build(&t), -EINVAL,
                   "PT_LOAD (program header 1): p_vaddr 0x411800 and p_offset 0x1000 differ "
                   "modulo the page size 4096");
}

static void test_parse_misaligned_p_align(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].vaddr = 0x412000; /* congruent modulo 4 KiB, not modulo 64 KiB */
    assert_refused(build(&t), -EINVAL, "differ modulo p_align 0x10000");
}

static void test_parse_p_align_not_power_of_two(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].align = 0x3000; /* meaningless; ignored as Linux does */
    t.ph[1].vaddr = 0x412000;
    assert_parses(build(&t));
}

static void test_parse_above_limit_aarch64(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].vaddr = 0xfffffffff000;
    assert_refused(build(&t), -EINVAL,
                   "PT_LOAD (program header 1): ends at 0x1000000001000, above the AArch64 "
                   "address-space limit 0x1000000000000");
}

static void test_parse_above_limit_arm(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.ph[1].vaddr = 0xffff0000; /* the kuser page */
    assert_refused(build(&t), -EINVAL,
                   "ends at 0xffff1000, above the ARM address-space limit 0xffff0000");
}

static void test_parse_wrapping_aarch64(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].vaddr = 0xffffffffffff1000;
    t.ph[1].memsz = 0x20000;
    assert_refused(build(&t), -EINVAL,
                   "PT_LOAD (program header 1): p_vaddr 0xffffffffffff1000 + p_memsz 0x20000 "
                   "wraps around");
}

static void test_parse_wrapping_arm(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.ph[1].vaddr = 0xfff01000;
    t.ph[1].memsz = 0x200000;
    assert_refused(build(&t), -EINVAL, "p_vaddr 0xfff01000 + p_memsz 0x200000 wraps around");
}

static void test_parse_absurd_memsz_aarch64(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[1].memsz = (UINT64_C(1) << 40) + 1;
    assert_refused(build(&t), -ENOMEM,
                   "PT_LOAD (program header 1): p_memsz 0x10000000001 is too large "
                   "(limit 0x10000000000)");
}

static void test_parse_absurd_memsz_arm(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.ph[1].memsz = 0xc0000001;
    assert_refused(build(&t), -ENOMEM, "p_memsz 0xc0000001 is too large (limit 0xc0000000)");
}

static void test_parse_absurd_span_pie(void **state)
{
    struct telf t = elf64_pie();

    (void)state;
    t.ph[2].vaddr = UINT64_C(2) << 40;
    t.ph[2].vaddr += 0x1000;
    assert_refused(build(&t), -ENOMEM, "PT_LOAD segments span 0x20000003000 bytes");
}

static void test_parse_no_load(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.ph[0].type = PT_NOTE;
    t.ph[1].type = PT_NOTE;
    assert_refused(build(&t), -ENOEXEC, "no PT_LOAD segment");
}

static void test_parse_too_many_loads(void **state)
{
    struct telf t = elf64_exec();
    unsigned i;

    (void)state;
    t.nph = 0;
    for (i = 0; i <= LOADER_MAX_SEGMENTS; i++)
        add_ph(&t, PT_LOAD, PF_R | PF_X, 0, 0x400000 + 0x1000 * i, 0, 0x1000, 0x1000);
    assert_refused(build(&t), -ENOEXEC, "too many PT_LOAD segments: more than 16");
}

static void test_parse_entry_outside(void **state)
{
    struct telf t = elf64_exec();

    (void)state;
    t.entry = 0x500000;
    assert_refused(build(&t), -ENOEXEC,
                   "entry point 0x500000 is not inside an executable PT_LOAD segment");
}

static void test_parse_entry_not_executable(void **state)
{
    struct telf t = elf32_exec();

    (void)state;
    t.entry = 0x21001; /* Thumb entry in the RW data segment */
    assert_refused(build(&t), -ENOEXEC, "entry point 0x21001 is not inside an executable");
}

/* ---- PT_INTERP ---- */

static void test_parse_interp_not_terminated(void **state)
{
    struct telf t = elf64_dyn_interp(sizeof(INTERP64) - 1);
    size_t size = build(&t);

    (void)state;
    memcpy(image + INTERP_OFF, INTERP64, sizeof(INTERP64));
    assert_refused(size, -ENOEXEC, "PT_INTERP path is not NUL-terminated");
}

static void test_parse_interp_relative(void **state)
{
    struct telf t = elf64_dyn_interp(sizeof("lib/ld.so"));
    size_t size = build(&t);

    (void)state;
    memcpy(image + INTERP_OFF, "lib/ld.so", sizeof("lib/ld.so"));
    assert_refused(size, -ENOEXEC, "PT_INTERP path \"lib/ld.so\" is not absolute");
}

static void test_parse_interp_relative_unprintable(void **state)
{
    struct telf t = elf64_dyn_interp(4);
    size_t size = build(&t);

    (void)state;
    memcpy(image + INTERP_OFF, "a\nb", 4);
    assert_refused(size, -ENOEXEC, "PT_INTERP path \"a?b\" is not absolute");
}

static void test_parse_interp_too_long(void **state)
{
    struct telf t = elf64_dyn_interp(LOADER_INTERP_MAX + 1);
    size_t size = build(&t);

    (void)state;
    image[INTERP_OFF] = '/';
    memset(image + INTERP_OFF + 1, 'a', LOADER_INTERP_MAX - 1);
    assert_refused(size, -ENOEXEC, "PT_INTERP path too long: 257 bytes, limit 256");
}

static void test_parse_interp_empty(void **state)
{
    struct telf t = elf64_dyn_interp(1);

    (void)state;
    assert_refused(build(&t), -ENOEXEC, "PT_INTERP path is empty");
}

static void test_parse_interp_leading_nul(void **state)
{
    struct telf t = elf64_dyn_interp(8);

    (void)state;
    assert_refused(build(&t), -ENOEXEC, "PT_INTERP path is empty");
}

static void test_parse_interp_two(void **state)
{
    struct telf t = elf64_dyn_interp(sizeof(INTERP64));
    size_t size;

    (void)state;
    t.ph[0].filesz = t.ph[0].memsz = 6 * sizeof(Elf64_Phdr);
    add_ph(&t, PT_INTERP, PF_R, INTERP_OFF, INTERP_OFF, sizeof(INTERP64), sizeof(INTERP64), 1);
    size = build(&t);
    memcpy(image + INTERP_OFF, INTERP64, sizeof(INTERP64));
    assert_refused(size, -ENOEXEC, "more than one PT_INTERP (program header 5)");
}

/* ---- loader_build_stack ---- */

#define STACK_SIZE 4096

static uint8_t stack[STACK_SIZE];

static const char *const test_argv[] = {"prog", "a1"};
static const char *const test_envp[] = {"HOME=/", "X=1"};
static const struct loader_auxv test_auxv[] = {
    {AT_PAGESZ, 4096},
    {AT_PHDR, 0x400040},
    {AT_ENTRY, 0x400100},
};

static struct loader_stack_spec stack_spec(enum loader_isa isa, const char *platform)
{
    struct loader_stack_spec s = {
        .isa = isa,
        .argc = 2,
        .argv = test_argv,
        .envc = 2,
        .envp = test_envp,
        .execfn = "/bin/prog",
        .platform = platform,
        .random = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
        .auxv = test_auxv,
        .nauxv = 3,
    };
    return s;
}

/* The stack buffer as guest memory ending at top. */
struct guest_stack {
    uint64_t top;
    unsigned word;
};

static const uint8_t *guest(const struct guest_stack *g, uint64_t addr)
{
    uint64_t base = g->top - STACK_SIZE;

    assert_in_range(addr, base, g->top - 1);
    return stack + (addr - base);
}

static uint64_t word_at(const struct guest_stack *g, uint64_t addr)
{
    const uint8_t *b = guest(g, addr);
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < g->word; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static const char *string_at(const struct guest_stack *g, uint64_t addr)
{
    return (const char *)guest(g, addr);
}

/* Checks argc, argv, envp and the auxv types in order, reading upward from sp. */
static void assert_stack_tables(const struct guest_stack *g, uint64_t sp,
                                const struct loader_stack_spec *s)
{
    static const uint64_t types[] = {AT_RANDOM, AT_EXECFN, AT_PLATFORM, AT_PAGESZ,
                                     AT_PHDR,   AT_ENTRY,  AT_NULL};
    uint64_t q = sp, w = g->word;
    unsigned i, t;

    assert_int_equal(sp % 16, 0);
    assert_int_equal(word_at(g, q), 2);
    assert_string_equal(string_at(g, word_at(g, q + w)), "prog");
    assert_string_equal(string_at(g, word_at(g, q + 2 * w)), "a1");
    assert_int_equal(word_at(g, q + 3 * w), 0);
    assert_string_equal(string_at(g, word_at(g, q + 4 * w)), "HOME=/");
    assert_string_equal(string_at(g, word_at(g, q + 5 * w)), "X=1");
    assert_int_equal(word_at(g, q + 6 * w), 0);
    q += 7 * w;
    for (i = 0, t = 0; t < sizeof(types) / sizeof(types[0]); t++, i++) {
        if (types[t] == AT_PLATFORM && !s->platform) {
            i--;
            continue;
        }
        assert_int_equal(word_at(g, q + 2 * i * w), types[t]);
    }
    assert_int_equal(word_at(g, q + 2 * (i - 1) * w + w), 0);
    assert_memory_equal(guest(g, word_at(g, q + w)), s->random, 16);
    assert_string_equal(string_at(g, word_at(g, q + 3 * w)), "/bin/prog");
    if (s->platform)
        assert_string_equal(string_at(g, word_at(g, q + 5 * w)), s->platform);
}

static void test_stack_aarch64_layout(void **state)
{
    struct loader_stack_spec s = stack_spec(LOADER_ISA_AARCH64, "aarch64");
    struct guest_stack g = {.top = 0x7ffffffff000, .word = 8};
    struct loader_stack_layout l;
    uint64_t sp = 0, q;

    (void)state;
    memset(stack, 0xaa, sizeof(stack));
    assert_int_equal(loader_build_stack(&s, g.top, stack, STACK_SIZE, &sp, &l), 0);
    assert_stack_tables(&g, sp, &s);
    /* Exact addresses: NULL word, execfn, envp and argv strings, align, platform, random. */
    assert_int_equal(word_at(&g, g.top - 8), 0);
    assert_int_equal(word_at(&g, sp + 8), g.top - 37);  /* argv[0] */
    assert_int_equal(word_at(&g, sp + 16), g.top - 32); /* argv[1] */
    assert_int_equal(word_at(&g, sp + 32), g.top - 29); /* envp[0] */
    assert_int_equal(word_at(&g, sp + 40), g.top - 22); /* envp[1] */
    q = sp + 56;
    assert_int_equal(word_at(&g, q + 8), g.top - 72);  /* AT_RANDOM */
    assert_int_equal(word_at(&g, q + 24), g.top - 18); /* AT_EXECFN */
    assert_int_equal(word_at(&g, q + 40), g.top - 56); /* AT_PLATFORM */
    assert_int_equal(word_at(&g, q + 56), 4096);
    assert_int_equal(word_at(&g, q + 72), 0x400040);
    assert_int_equal(word_at(&g, q + 88), 0x400100);
    assert_int_equal(sp, g.top - 240);
    assert_int_equal(q + 112, g.top - 72); /* the tables end at the random bytes */
    for (q = g.top - 48; q < g.top - 37; q++)
        assert_int_equal(*guest(&g, q), 0); /* alignment padding below argv[0] is zeroed */
    /* The layout: argv's strings, envp's up to execfn, auxv with AT_NULL. */
    assert_int_equal(l.arg_start, g.top - 37);
    assert_int_equal(l.arg_end, g.top - 29);
    assert_int_equal(l.env_start, g.top - 29);
    assert_int_equal(l.env_end, g.top - 18);
    assert_int_equal(l.auxv_start, sp + 56);
    assert_int_equal(l.auxv_end, g.top - 72);
}

static void test_stack_arm_layout(void **state)
{
    struct loader_stack_spec s = stack_spec(LOADER_ISA_ARM, "v8l");
    struct guest_stack g = {.top = 0xbf000000, .word = 4};
    struct loader_stack_layout l;
    uint64_t sp = 0, q;

    (void)state;
    memset(stack, 0xaa, sizeof(stack));
    assert_int_equal(loader_build_stack(&s, g.top, stack, STACK_SIZE, &sp, &l), 0);
    assert_stack_tables(&g, sp, &s);
    assert_int_equal(word_at(&g, g.top - 4), 0);
    assert_int_equal(word_at(&g, sp + 4), g.top - 33);
    assert_int_equal(word_at(&g, sp + 8), g.top - 28);
    assert_int_equal(word_at(&g, sp + 16), g.top - 25);
    assert_int_equal(word_at(&g, sp + 20), g.top - 18);
    q = sp + 28;
    assert_int_equal(word_at(&g, q + 4), g.top - 68);
    assert_int_equal(word_at(&g, q + 12), g.top - 14);
    assert_int_equal(word_at(&g, q + 20), g.top - 52);
    assert_int_equal(sp, g.top - 160);
    assert_int_equal(word_at(&g, sp + 84), 0); /* padding above AT_NULL is zeroed */
    assert_int_equal(l.arg_start, g.top - 33);
    assert_int_equal(l.arg_end, g.top - 25);
    assert_int_equal(l.env_start, g.top - 25);
    assert_int_equal(l.env_end, g.top - 14);
    assert_int_equal(l.auxv_start, sp + 28);
    assert_int_equal(l.auxv_end, sp + 84);
}

static void test_stack_no_platform(void **state)
{
    struct loader_stack_spec s = stack_spec(LOADER_ISA_AARCH64, NULL);
    struct guest_stack g = {.top = 0x800000, .word = 8};
    uint64_t sp = 0;

    (void)state;
    assert_int_equal(loader_build_stack(&s, g.top, stack, STACK_SIZE, &sp, NULL), 0);
    assert_stack_tables(&g, sp, &s);
    assert_int_equal(word_at(&g, sp + 56 + 32), AT_PAGESZ);
}

static void test_stack_empty_argv_envp(void **state)
{
    struct loader_stack_spec s = stack_spec(LOADER_ISA_ARM, NULL);
    struct guest_stack g = {.top = 0x100000000, .word = 4};
    uint64_t sp = 0;

    (void)state;
    s.argc = s.envc = 0;
    s.argv = s.envp = NULL;
    s.nauxv = 0;
    assert_int_equal(loader_build_stack(&s, g.top, stack, STACK_SIZE, &sp, NULL), 0);
    assert_int_equal(word_at(&g, sp), 0);
    assert_int_equal(word_at(&g, sp + 4), 0);
    assert_int_equal(word_at(&g, sp + 8), 0);
    assert_int_equal(word_at(&g, sp + 12), AT_RANDOM);
    assert_int_equal(word_at(&g, sp + 20), AT_EXECFN);
    assert_int_equal(word_at(&g, sp + 28), AT_NULL);
}

/* The exact size the stack needs succeeds with the same sp; one byte less is -E2BIG. */
static void assert_exact_fit(enum loader_isa isa, uint64_t top)
{
    struct loader_stack_spec s = stack_spec(isa, "aarch64");
    uint64_t sp = 0, sp2 = 0;
    size_t need;

    assert_int_equal(loader_build_stack(&s, top, stack, STACK_SIZE, &sp, NULL), 0);
    need = (size_t)(top - sp);
    assert_int_equal(loader_build_stack(&s, top, stack + STACK_SIZE - need, need, &sp2, NULL), 0);
    assert_int_equal(sp2, sp);
    assert_int_equal(loader_build_stack(&s, top, stack + STACK_SIZE - need + 1, need - 1, &sp2, NULL),
                     -E2BIG);
}

static void test_stack_too_small(void **state)
{
    struct loader_stack_spec s = stack_spec(LOADER_ISA_AARCH64, "aarch64");
    uint64_t sp = 0;

    (void)state;
    assert_exact_fit(LOADER_ISA_AARCH64, 0x7ffffffff000);
    assert_exact_fit(LOADER_ISA_ARM, 0xbf000000);
    assert_int_equal(loader_build_stack(&s, 0x10000, stack, 0, &sp, NULL), -E2BIG);
    assert_int_equal(loader_build_stack(&s, 0x10000, stack, 20, &sp, NULL), -E2BIG);
}

static void test_stack_bad_spec(void **state)
{
    struct loader_stack_spec s = stack_spec(LOADER_ISA_ARM, NULL);
    uint64_t sp = 0;

    (void)state;
    assert_int_equal(loader_build_stack(&s, UINT64_C(1) << 33, stack, STACK_SIZE, &sp, NULL), -EINVAL);
    assert_int_equal(loader_build_stack(&s, 100, stack, STACK_SIZE, &sp, NULL), -EINVAL);
    s.argc = -1;
    assert_int_equal(loader_build_stack(&s, 0x10000, stack, STACK_SIZE, &sp, NULL), -EINVAL);
    s = stack_spec(LOADER_ISA_ARM, NULL);
    s.execfn = NULL;
    assert_int_equal(loader_build_stack(&s, 0x10000, stack, STACK_SIZE, &sp, NULL), -EINVAL);
}

/* ---- loader_kuser_page ---- */

static uint32_t page_word(const uint8_t *page, unsigned off)
{
    return (uint32_t)page[off] | (uint32_t)page[off + 1] << 8 | (uint32_t)page[off + 2] << 16 |
           (uint32_t)page[off + 3] << 24;
}

static const struct {
    unsigned off;
    uint32_t insn;
} kuser_words[] = {
    /* __kuser_cmpxchg64 */
    {0xf60, 0xe92d00f0}, /* push {r4, r5, r6, r7} */
    {0xf64, 0xe1c040d0}, /* ldrd r4, r5, [r0] */
    {0xf68, 0xe1c160d0}, /* ldrd r6, r7, [r1] */
    {0xf6c, 0xf57ff05b}, /* dmb ish */
    {0xf70, 0xe1b20f9f}, /* ldrexd r0, r1, [r2] */
    {0xf74, 0xe0303004}, /* eors r3, r0, r4 */
    {0xf78, 0x00313005}, /* eorseq r3, r1, r5 */
    {0xf7c, 0x01a23f96}, /* strexdeq r3, r6, r7, [r2] */
    {0xf80, 0x03330001}, /* teqeq r3, #1 */
    {0xf84, 0x0afffff9}, /* beq 0xf70 */
    {0xf88, 0xf57ff05b}, /* dmb ish */
    {0xf8c, 0xe2730000}, /* rsbs r0, r3, #0 */
    {0xf90, 0xe8bd00f0}, /* pop {r4, r5, r6, r7} */
    {0xf94, 0xe12fff1e}, /* bx lr */
    /* __kuser_memory_barrier */
    {0xfa0, 0xf57ff05b}, /* dmb ish */
    {0xfa4, 0xe12fff1e}, /* bx lr */
    /* __kuser_cmpxchg */
    {0xfc0, 0xf57ff05b}, /* dmb ish */
    {0xfc4, 0xe1923f9f}, /* ldrex r3, [r2] */
    {0xfc8, 0xe0533000}, /* subs r3, r3, r0 */
    {0xfcc, 0x01823f91}, /* strexeq r3, r1, [r2] */
    {0xfd0, 0x03330001}, /* teqeq r3, #1 */
    {0xfd4, 0x0afffffa}, /* beq 0xfc4 */
    {0xfd8, 0xe2730000}, /* rsbs r0, r3, #0 */
    {0xfdc, 0xeaffffef}, /* b 0xfa0 */
    /* __kuser_get_tls */
    {0xfe0, 0xee1d0f70}, /* mrc p15, 0, r0, c13, c0, 3 */
    {0xfe4, 0xe12fff1e}, /* bx lr */
    /* __kuser_helper_version */
    {0xffc, 5},
};

#define KUSER_NWORDS (sizeof(kuser_words) / sizeof(kuser_words[0]))

static void test_kuser_helpers(void **state)
{
    uint8_t page[LOADER_PAGE_SIZE];
    unsigned i;

    (void)state;
    loader_kuser_page(page);
    for (i = 0; i < KUSER_NWORDS; i++)
        assert_int_equal(page_word(page, kuser_words[i].off), kuser_words[i].insn);
}

static void test_kuser_version(void **state)
{
    uint8_t page[LOADER_PAGE_SIZE];

    (void)state;
    loader_kuser_page(page);
    assert_int_equal(page_word(page, 0xffc), 5);
}

static void test_kuser_poison(void **state)
{
    uint8_t page[LOADER_PAGE_SIZE];
    unsigned off, i, npoison = 0;

    (void)state;
    memset(page, 0, sizeof(page));
    loader_kuser_page(page);
    for (off = 0; off < LOADER_PAGE_SIZE; off += 4) {
        for (i = 0; i < KUSER_NWORDS && kuser_words[i].off != off; i++)
            ;
        if (i == KUSER_NWORDS) {
            assert_int_equal(page_word(page, off), 0xe7fddef1);
            npoison++;
        }
    }
    assert_int_equal(npoison, LOADER_PAGE_SIZE / 4 - KUSER_NWORDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_elf64_exec),
        cmocka_unit_test(test_parse_elf32_arm_exec),
        cmocka_unit_test(test_parse_elf32_arm_entry),
        cmocka_unit_test(test_parse_static_pie),
        cmocka_unit_test(test_parse_phdr_from_pt_phdr),
        cmocka_unit_test(test_parse_phdr_not_loaded),
        cmocka_unit_test(test_parse_interp),
        cmocka_unit_test(test_parse_interp_longest),
        cmocka_unit_test(test_parse_exec_stack),
        cmocka_unit_test(test_parse_empty_load_dropped),
        cmocka_unit_test(test_parse_shared_page),
        cmocka_unit_test(test_parse_why_optional),
        cmocka_unit_test(test_parse_failure_clears_image),
        cmocka_unit_test(test_parse_truncated_empty),
        cmocka_unit_test(test_parse_truncated_ident),
        cmocka_unit_test(test_parse_truncated_ehdr64),
        cmocka_unit_test(test_parse_truncated_ehdr32),
        cmocka_unit_test(test_parse_truncated_phdrs),
        cmocka_unit_test(test_parse_truncated_phdrs32),
        cmocka_unit_test(test_parse_truncated_segment),
        cmocka_unit_test(test_parse_truncated_interp),
        cmocka_unit_test(test_parse_bad_magic),
        cmocka_unit_test(test_parse_bad_class),
        cmocka_unit_test(test_parse_wrong_class_aarch64),
        cmocka_unit_test(test_parse_wrong_class_arm),
        cmocka_unit_test(test_parse_wrong_machine_x86_64),
        cmocka_unit_test(test_parse_wrong_machine_unknown),
        cmocka_unit_test(test_parse_big_endian),
        cmocka_unit_test(test_parse_bad_data),
        cmocka_unit_test(test_parse_bad_ident_version),
        cmocka_unit_test(test_parse_bad_e_version),
        cmocka_unit_test(test_parse_et_rel),
        cmocka_unit_test(test_parse_et_core),
        cmocka_unit_test(test_parse_et_unknown),
        cmocka_unit_test(test_parse_arm_soft_float),
        cmocka_unit_test(test_parse_arm_float_unmarked),
        cmocka_unit_test(test_parse_arm_old_eabi),
        cmocka_unit_test(test_parse_arm_oabi),
        cmocka_unit_test(test_parse_arm_misaligned_entry),
        cmocka_unit_test(test_parse_phentsize_wrong),
        cmocka_unit_test(test_parse_phentsize_wrong32),
        cmocka_unit_test(test_parse_phnum_zero),
        cmocka_unit_test(test_parse_phnum_huge),
        cmocka_unit_test(test_parse_phnum_largest),
        cmocka_unit_test(test_parse_phoff_beyond_file),
        cmocka_unit_test(test_parse_phoff_overflow),
        cmocka_unit_test(test_parse_filesz_over_memsz),
        cmocka_unit_test(test_parse_offset_filesz_beyond_file),
        cmocka_unit_test(test_parse_offset_filesz_overflow),
        cmocka_unit_test(test_parse_overlapping_segments),
        cmocka_unit_test(test_parse_unsorted_segments),
        cmocka_unit_test(test_parse_misaligned_vaddr_offset),
        cmocka_unit_test(test_parse_misaligned_p_align),
        cmocka_unit_test(test_parse_p_align_not_power_of_two),
        cmocka_unit_test(test_parse_above_limit_aarch64),
        cmocka_unit_test(test_parse_above_limit_arm),
        cmocka_unit_test(test_parse_wrapping_aarch64),
        cmocka_unit_test(test_parse_wrapping_arm),
        cmocka_unit_test(test_parse_absurd_memsz_aarch64),
        cmocka_unit_test(test_parse_absurd_memsz_arm),
        cmocka_unit_test(test_parse_absurd_span_pie),
        cmocka_unit_test(test_parse_no_load),
        cmocka_unit_test(test_parse_too_many_loads),
        cmocka_unit_test(test_parse_entry_outside),
        cmocka_unit_test(test_parse_entry_not_executable),
        cmocka_unit_test(test_parse_interp_not_terminated),
        cmocka_unit_test(test_parse_interp_relative),
        cmocka_unit_test(test_parse_interp_relative_unprintable),
        cmocka_unit_test(test_parse_interp_too_long),
        cmocka_unit_test(test_parse_interp_empty),
        cmocka_unit_test(test_parse_interp_leading_nul),
        cmocka_unit_test(test_parse_interp_two),
        cmocka_unit_test(test_stack_aarch64_layout),
        cmocka_unit_test(test_stack_arm_layout),
        cmocka_unit_test(test_stack_no_platform),
        cmocka_unit_test(test_stack_empty_argv_envp),
        cmocka_unit_test(test_stack_too_small),
        cmocka_unit_test(test_stack_bad_spec),
        cmocka_unit_test(test_kuser_helpers),
        cmocka_unit_test(test_kuser_version),
        cmocka_unit_test(test_kuser_poison),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
