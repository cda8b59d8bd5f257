/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-vma.c - an address space's VMA list and its index (emu/mm/mm.c):
 * mapping, lookup by address (mm_find_vma, mm_vma_from: binary search of
 * the index), splits by a partial munmap or mprotect, the merge of
 * neighbours made alike again, MAP_FIXED over existing mappings, the
 * bounds at address 0 and at the top of the address space, the argument
 * errors Linux gives, and a thousand VMAs (the index, and pressure mode's
 * windows, mm_window.h). Each address space is a real one (mm_new: its own
 * engine) on a booted machine (kernel-fixture.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>

#include "kernel-fixture.h"
#include "page.h"

#define A 0x400000u /* where most tests map */
#define RW (PROT_READ | PROT_WRITE)

static struct kfix *k;

static int setup(void **state)
{
    (void)state;
    k = kf_boot(LOADER_ISA_AARCH64);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kf_shutdown(k);
    return 0;
}

static struct mm *new_mm(enum loader_isa isa)
{
    int err = 0;
    struct mm *mm = mm_new(abi_for_isa(isa), &k->m, &err);
    assert_int_equal(err, 0);
    assert_non_null(mm);
    return mm;
}

/* The VMAs must be exactly these [start, end, prot] triples, in order;
 * the index must agree with the list. */
static void expect_vmas(const struct mm *mm, const uint64_t (*want)[3], size_t n)
{
    size_t i = 0;
    for (const struct vma *v = mm->vmas; v; v = v->next, i++) {
        assert_true(i < n);
        assert_int_equal(v->start, want[i][0]);
        assert_int_equal(v->end, want[i][1]);
        assert_int_equal(v->prot, (int)want[i][2]);
        assert_ptr_equal(mm_find_vma(mm, v->start), v);
        assert_ptr_equal(mm_find_vma(mm, v->end - 1), v);
        if (!mm->index_lost)
            assert_ptr_equal(mm->index[i], v);
    }
    assert_int_equal(i, n);
    assert_int_equal(mm->nr_vmas, n);
}

static void put_byte(struct mm *mm, uint64_t addr, uint8_t b)
{
    assert_int_equal(copy_to_guest(mm, addr, &b, 1), 0);
}

static uint8_t get_byte(struct mm *mm, uint64_t addr)
{
    uint8_t b = 0xee;
    assert_int_equal(copy_from_guest(mm, &b, addr, 1), 0);
    return b;
}

static void test_map_and_lookup(void **state)
{
    (void)state;
    struct mm *mm = new_mm(LOADER_ISA_AARCH64);
    assert_null(mm->vmas);
    assert_null(mm_find_vma(mm, A));
    assert_null(mm_vma_from(mm, 0));
    assert_int_equal(mm_map_fixed(mm, A, 3 * PAGE, RW), 0);
    assert_int_equal(mm_map_fixed(mm, A + 8 * PAGE, 100, PROT_READ), 0); /* rounded up */
    expect_vmas(mm, (const uint64_t[][3]){{A, A + 3 * PAGE, RW},
                                          {A + 8 * PAGE, A + 9 * PAGE, PROT_READ}}, 2);
    assert_null(mm_find_vma(mm, A - 1));
    assert_null(mm_find_vma(mm, A + 3 * PAGE)); /* end is exclusive */
    assert_null(mm_find_vma(mm, A + 8 * PAGE - 1));
    /* mm_vma_from: the first VMA ending after the address, maybe after it. */
    assert_ptr_equal(mm_vma_from(mm, 0), mm->vmas);
    assert_ptr_equal(mm_vma_from(mm, A + 3 * PAGE), mm->vmas->next);
    assert_null(mm_vma_from(mm, A + 9 * PAGE));
    assert_int_equal(mm->total, 4 * PAGE);
    /* Fresh memory reads zero; a copy may span both VMAs only if both are
     * mapped all along: the gap between them faults. */
    assert_int_equal(get_byte(mm, A + 3 * PAGE - 1), 0);
    uint8_t buf[2 * PAGE];
    assert_int_equal(copy_from_guest(mm, buf, A + 2 * PAGE, sizeof buf), -EFAULT);
    assert_int_equal(copy_to_guest(mm, A + 8 * PAGE, buf, 1), -EFAULT); /* read-only */
    assert_null(mm_host_ptr(mm, A + 2 * PAGE, 2 * PAGE, 0));
    assert_non_null(mm_host_ptr(mm, A, 3 * PAGE, RW));
    mm_put(mm);
}

/* munmap of the middle leaves two VMAs, whose bytes stay where they were. */
static void test_unmap_splits(void **state)
{
    (void)state;
    struct mm *mm = new_mm(LOADER_ISA_AARCH64);
    assert_int_equal(mm_map_fixed(mm, A, 4 * PAGE, RW), 0);
    for (unsigned p = 0; p < 4; p++)
        put_byte(mm, A + p * PAGE + 5, (uint8_t)(0x10 + p));
    uint8_t *host = mm->vmas->host;
    assert_int_equal(mm_unmap(mm, A + PAGE, PAGE), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + PAGE, RW}, {A + 2 * PAGE, A + 4 * PAGE, RW}},
                2);
    assert_ptr_equal(mm->vmas->next->host, host + 2 * PAGE);
    assert_int_equal(get_byte(mm, A + 5), 0x10);
    assert_int_equal(get_byte(mm, A + 2 * PAGE + 5), 0x12);
    assert_int_equal(get_byte(mm, A + 3 * PAGE + 5), 0x13);
    assert_int_equal(mm->total, 3 * PAGE);
    /* The head and the tail of a VMA; a range over a gap and two VMAs. */
    assert_int_equal(mm_unmap(mm, A + 3 * PAGE, PAGE), 0);
    assert_int_equal(mm_unmap(mm, A, 1), 0); /* a partial page is the page */
    expect_vmas(mm, (const uint64_t[][3]){{A + 2 * PAGE, A + 3 * PAGE, RW}}, 1);
    assert_int_equal(mm_map_fixed(mm, A + 5 * PAGE, PAGE, PROT_READ), 0);
    assert_int_equal(mm_unmap(mm, A, 16 * PAGE), 0);
    expect_vmas(mm, NULL, 0);
    assert_int_equal(mm->total, 0);
    assert_int_equal(mm_unmap(mm, A, PAGE), 0); /* nothing there: not an error */
    mm_put(mm);
}

/* mprotect of the middle splits in three; made alike again, the three
 * merge back into one (Linux's vma_merge), the bytes unmoved. */
static void test_protect_splits_and_merges(void **state)
{
    (void)state;
    struct mm *mm = new_mm(LOADER_ISA_AARCH64);
    assert_int_equal(mm_map_fixed(mm, A, 4 * PAGE, RW), 0);
    put_byte(mm, A + 2 * PAGE, 0x42);
    assert_int_equal(mm_protect(mm, A + PAGE, 2 * PAGE, PROT_READ), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + PAGE, RW},
                                          {A + PAGE, A + 3 * PAGE, PROT_READ},
                                          {A + 3 * PAGE, A + 4 * PAGE, RW}}, 3);
    assert_int_equal(copy_to_guest(mm, A + PAGE, "x", 1), -EFAULT);
    assert_int_equal(mm_protect(mm, A + 2 * PAGE, PAGE, PROT_NONE), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + PAGE, RW},
                                          {A + PAGE, A + 2 * PAGE, PROT_READ},
                                          {A + 2 * PAGE, A + 3 * PAGE, PROT_NONE},
                                          {A + 3 * PAGE, A + 4 * PAGE, RW}}, 4);
    assert_int_equal(mm_protect(mm, A, 4 * PAGE, RW), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + 4 * PAGE, RW}}, 1);
    assert_int_equal(get_byte(mm, A + 2 * PAGE), 0x42);
    /* The same rights: nothing changes. */
    assert_int_equal(mm_protect(mm, A + PAGE, PAGE, RW), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + 4 * PAGE, RW}}, 1);
    /* Part of the range unmapped: ENOMEM and no change (mprotect(2)). */
    assert_int_equal(mm_protect(mm, A + 3 * PAGE, 2 * PAGE, PROT_READ), -ENOMEM);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + 4 * PAGE, RW}}, 1);
    assert_int_equal(mm_protect(mm, A + 1, PAGE, PROT_READ), -EINVAL); /* unaligned */
    assert_int_equal(mm_protect(mm, A, 0, PROT_READ), 0);
    mm_put(mm);
}

/* A new mapping next to one of the same rights joins it when their host
 * memory is contiguous (host_alloc asks for the neighbouring host pages,
 * which the host may have given to someone else: then two VMAs). */
/* The VMAs at lo and hi (adjacent, alike) are one unless the host gave
 * them memory that is not contiguous. */
static void expect_joined(const struct mm *mm, uint64_t lo, uint64_t hi, uint64_t end)
{
    const struct vma *a = mm_find_vma(mm, lo), *b = mm_find_vma(mm, hi);
    assert_non_null(a);
    assert_non_null(b);
    if (a == b) {
        assert_int_equal(a->start, lo);
        assert_int_equal(a->end, end);
    } else {
        assert_int_equal(a->end, hi);
        assert_ptr_not_equal(a->host + (a->end - a->start), b->host);
    }
}

static void test_neighbours_merge(void **state)
{
    (void)state;
    struct mm *mm = new_mm(LOADER_ISA_AARCH64);
    assert_int_equal(mm_map_fixed(mm, A, 3 * PAGE, RW), 0);
    assert_int_equal(mm_unmap(mm, A + 2 * PAGE, PAGE), 0);
    assert_int_equal(mm_map_fixed(mm, A + 2 * PAGE, PAGE, RW), 0); /* after it */
    expect_joined(mm, A, A + 2 * PAGE, A + 3 * PAGE);
    assert_ptr_equal(mm_find_vma(mm, A), mm_find_vma(mm, A + 2 * PAGE));
    assert_int_equal(mm_map_fixed(mm, A + 10 * PAGE, PAGE, RW), 0);
    assert_int_equal(mm_map_fixed(mm, A + 9 * PAGE, PAGE, RW), 0); /* before it */
    expect_joined(mm, A + 9 * PAGE, A + 10 * PAGE, A + 11 * PAGE);
    /* Different rights never join. */
    assert_int_equal(mm_map_fixed(mm, A + 3 * PAGE, PAGE, PROT_READ), 0);
    assert_int_equal(mm_find_vma(mm, A + 3 * PAGE)->start, A + 3 * PAGE);
    assert_int_equal(mm_find_vma(mm, A + 3 * PAGE)->prot, PROT_READ);
    assert_int_equal(mm_find_vma(mm, A + 2 * PAGE)->end, A + 3 * PAGE);
    mm_put(mm);
}

/* MAP_FIXED over the middle of two mappings replaces what it covers with
 * fresh zeroed memory and keeps both outer parts. */
static void test_fixed_overlap(void **state)
{
    (void)state;
    struct mm *mm = new_mm(LOADER_ISA_AARCH64);
    assert_int_equal(mm_map_fixed(mm, A, 3 * PAGE, RW), 0);
    assert_int_equal(mm_map_fixed(mm, A + 3 * PAGE, 3 * PAGE, PROT_READ), 0);
    put_byte(mm, A + 2 * PAGE, 0x77);
    put_byte(mm, A + PAGE, 0x66);
    assert_int_equal(mm_map_fixed(mm, A + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_EXEC), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A, A + 2 * PAGE, RW},
                                          {A + 2 * PAGE, A + 4 * PAGE, PROT_READ | PROT_EXEC},
                                          {A + 4 * PAGE, A + 6 * PAGE, PROT_READ}}, 3);
    assert_int_equal(get_byte(mm, A + 2 * PAGE), 0);
    assert_int_equal(get_byte(mm, A + PAGE), 0x66);
    assert_int_equal(mm->total, 6 * PAGE);
    /* Over everything: one VMA. */
    assert_int_equal(mm_map_fixed(mm, A - PAGE, 8 * PAGE, RW), 0);
    expect_vmas(mm, (const uint64_t[][3]){{A - PAGE, A + 7 * PAGE, RW}}, 1);
    assert_int_equal(mm->total, 8 * PAGE);
    mm_put(mm);
}

/* Address 0 and the top of each ISA's address space are ordinary bounds;
 * ranges that wrap past 2^64 are refused as Linux refuses them. */
static void test_bounds(void **state)
{
    (void)state;
    for (int isa = 0; isa < 2; isa++) {
        struct mm *mm = new_mm(isa ? LOADER_ISA_ARM : LOADER_ISA_AARCH64);
        uint64_t top = mm->limit;
        assert_int_equal(top, isa ? 0xffff0000u : UINT64_C(1) << 48);
        assert_int_equal(mm_map_fixed(mm, 0, PAGE, PROT_READ), 0);
        assert_int_equal(mm_map_fixed(mm, top - PAGE, PAGE, RW), 0);
        expect_vmas(mm, (const uint64_t[][3]){{0, PAGE, PROT_READ}, {top - PAGE, top, RW}}, 2);
        assert_ptr_equal(mm_find_vma(mm, 0), mm->vmas);
        assert_ptr_equal(mm_find_vma(mm, top - 1), mm->vmas->next);
        assert_null(mm_find_vma(mm, top));
        assert_null(mm_find_vma(mm, UINT64_MAX));
        assert_null(mm_vma_from(mm, top));
        put_byte(mm, top - 1, 0x5a);
        assert_int_equal(get_byte(mm, top - 1), 0x5a);
        uint8_t two[2];
        assert_int_equal(copy_from_guest(mm, two, top - 1, 2), -EFAULT);
        assert_int_equal(copy_from_guest(mm, two, UINT64_MAX, 2), -EFAULT); /* wraps */
        /* mm_find_free never returns the first 16 pages, nor past the top. */
        uint64_t free_at = mm_find_free(mm, PAGE, PAGE);
        assert_true(free_at >= 16 * PAGE && free_at + PAGE <= top);
        assert_int_equal(mm_find_free(mm, 0, top + PAGE), 0);
        /* Wrapping ranges. */
        uint64_t last = UINT64_MAX - PAGE + 1;
        assert_int_equal(mm_map_fixed(mm, last, 2 * PAGE, RW), -EINVAL);
        assert_int_equal(mm_unmap(mm, last, 2 * PAGE), -EINVAL);
        assert_int_equal(mm_protect(mm, last, 2 * PAGE, RW), -ENOMEM);
        assert_int_equal(mm_unmap(mm, PAGE + 1, PAGE), -EINVAL); /* unaligned */
        assert_int_equal(mm_unmap(mm, PAGE, 0), -EINVAL);
        assert_int_equal(mm_map_fixed(mm, PAGE, 0, RW), -EINVAL);
        expect_vmas(mm, (const uint64_t[][3]){{0, PAGE, PROT_READ}, {top - PAGE, top, RW}}, 2);
        assert_int_equal(mm_unmap(mm, 0, top), 0);
        expect_vmas(mm, NULL, 0);
        mm_put(mm);
    }
}

/* A thousand VMAs (alternating rights, so none joins its neighbour): past
 * WINDOW_PRESSURE regions the address space gathers them into windows,
 * and the index still finds each one; unmapping every other page keeps
 * the order. */
static void test_many_vmas(void **state)
{
    (void)state;
    enum { N = 1000 };
    struct mm *mm = new_mm(LOADER_ISA_AARCH64);
    for (unsigned i = 0; i < N; i++)
        assert_int_equal(mm_map_fixed(mm, A + (uint64_t)i * PAGE, PAGE,
                                      i % 2 ? PROT_NONE : PROT_READ),
                         0);
    assert_int_equal(mm->nr_vmas, N);
    assert_true(mm->pressure);
    assert_false(mm->index_lost);
    for (unsigned i = 0; i < N; i++) {
        const struct vma *v = mm_find_vma(mm, A + (uint64_t)i * PAGE + PAGE / 2);
        assert_non_null(v);
        assert_int_equal(v->start, A + (uint64_t)i * PAGE);
        assert_int_equal(v->prot, i % 2 ? PROT_NONE : PROT_READ);
    }
    assert_null(mm_find_vma(mm, A + (uint64_t)N * PAGE));
    for (unsigned i = 1; i < N; i += 2)
        assert_int_equal(mm_unmap(mm, A + (uint64_t)i * PAGE, PAGE), 0);
    assert_int_equal(mm->nr_vmas, N / 2);
    unsigned i = 0;
    for (const struct vma *v = mm->vmas; v; v = v->next, i += 2) {
        assert_int_equal(v->start, A + (uint64_t)i * PAGE);
        assert_int_equal(v->end, v->start + PAGE);
        assert_ptr_equal(mm->index[i / 2], v);
    }
    assert_int_equal(i, N);
    assert_null(mm_find_vma(mm, A + PAGE));
    assert_ptr_equal(mm_vma_from(mm, A + PAGE), mm_find_vma(mm, A + 2 * PAGE));
    mm_put(mm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_and_lookup),
        cmocka_unit_test(test_unmap_splits),
        cmocka_unit_test(test_protect_splits_and_merges),
        cmocka_unit_test(test_neighbours_merge),
        cmocka_unit_test(test_fixed_overlap),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_many_vmas),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
