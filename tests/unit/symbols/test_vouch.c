/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_vouch.c - the ELF's word on finished walks: a stack is complete only
 * when its outermost function is a root (entry point, roots list, CFI) and
 * every return address follows a call in the ELF's code; and what the ELF
 * tells the unwinders beforehand (hypercall page, upcall entries, code).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "symbols/xu_vouch.h"

#define TEXT        0x401000ULL
#define ENTRY       TEXT                    /* _entry, the ELF's e_entry */
#define STARTER     (TEXT + 0x100)          /* thread_starter */
#define MAIN        (TEXT + 0x200)
#define WORK        (TEXT + 0x300)
#define CALLBACK    (TEXT + 0x400)          /* hypervisor_callback */
#define HCALL       (TEXT + 0x1000)         /* hypercall_page */

/* return addresses: each after a 5-byte call rel32, or after no call */
#define RET_IN_ENTRY    (ENTRY + 0x10)
#define RET_IN_STARTER  (STARTER + 0x10)
#define RET_IN_MAIN     (MAIN + 0x20)
#define NOT_AFTER_CALL  (MAIN + 0x40)

struct fixture {
    char path[64];
    struct xu_symtab *st;
    struct xu_elf_code *code;
    struct xu_profile *p;
};

static const uint8_t call_rel32[5] = { 0xe8, 0, 0, 0, 0 };

static int setup(void **state)
{
    static const struct mkelf_patch patches[] = {
        { RET_IN_ENTRY - 5, call_rel32, 5 },
        { RET_IN_STARTER - 5, call_rel32, 5 },
        { RET_IN_MAIN - 5, call_rel32, 5 },
        { CALLBACK + 0x40 - 5, call_rel32, 5 },
    };
    static const struct mkelf_section secs[] = {
        { ".text", TEXT, 0x2000, false },
    };
    static const struct mkelf_sym syms[] = {
        { "_entry", ENTRY, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "thread_starter", STARTER, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "main", MAIN, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "work", WORK, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "hypervisor_callback", CALLBACK, 0x80, STT_NOTYPE, STB_GLOBAL, 0 },
        { "hypercall_page", HCALL, 0, STT_NOTYPE, STB_GLOBAL, 0 },
    };
    struct fixture *f = calloc(1, sizeof(*f));
    int fd;

    assert_non_null(f);
    strcpy(f->path, "/tmp/test_vouch.XXXXXX");
    fd = mkstemp(f->path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write_patched(f->path, secs, 1, patches, 4, syms, 6, 0), 0);
    assert_int_equal(xu_symtab_open(f->path, NULL, &f->st), 0);
    assert_int_equal(xu_elf_code_open(f->path, NULL, &f->code), 0);
    f->p = xu_profile_new(0);
    assert_non_null(f->p);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_profile_free(f->p);
    xu_elf_code_free(f->code);
    xu_symtab_free(f->st);
    unlink(f->path);
    free(f);
    return 0;
}

static enum xu_walk_end vouched(struct fixture *f, const uint64_t *pcs, uint32_t n,
                                enum xu_walk_end end, const char *const *roots)
{
    const struct xu_vouch v = { f->st, f->code, &xu_arch_x86_64, roots };

    /* a fresh profile each time: vouching seals one */
    xu_profile_free(f->p);
    f->p = xu_profile_new(0);
    assert_non_null(f->p);
    assert_int_equal(xu_profile_add(f->p, 0, pcs, n, end, 1), 0);
    xu_vouch_profile(f->p, &v);
    return xu_profile_stack(f->p, 0)->end;
}

static void test_chain_to_the_entry_point(void **state)
{
    const uint64_t pcs[] = { WORK + 3, RET_IN_MAIN, RET_IN_ENTRY };

    assert_int_equal(vouched(*state, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
}

static void test_chain_to_a_thread_starter(void **state)
{
    const uint64_t pcs[] = { WORK + 3, RET_IN_MAIN, RET_IN_STARTER };

    assert_int_equal(vouched(*state, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
}

/* -O3 code: rbp held 0 by chance, the leaf alone looked finished */
static void test_lone_leaf_is_not_a_root(void **state)
{
    const uint64_t pcs[] = { WORK + 3 };

    assert_int_equal(vouched(*state, pcs, 1, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_ROOT);
}

/* rbp held data that looked like a frame: its "return address" follows no call */
static void test_return_after_no_call(void **state)
{
    const uint64_t pcs[] = { WORK + 3, NOT_AFTER_CALL, RET_IN_ENTRY };

    assert_int_equal(vouched(*state, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_CALL);
}

static void test_return_outside_the_code(void **state)
{
    const uint64_t pcs[] = { WORK + 3, 0x18620, RET_IN_ENTRY };

    assert_int_equal(vouched(*state, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_CALL);
}

static void test_roots_list_replaces_the_defaults(void **state)
{
    static const char *const only_main[] = { "main", NULL };
    const uint64_t to_starter[] = { WORK + 3, RET_IN_MAIN, RET_IN_STARTER };
    const uint64_t to_main[] = { WORK + 3, RET_IN_MAIN };

    assert_int_equal(vouched(*state, to_starter, 3, XU_WALK_COMPLETE, only_main),
                     XU_WALK_NOT_ROOT);
    assert_int_equal(vouched(*state, to_main, 2, XU_WALK_COMPLETE, only_main), XU_WALK_COMPLETE);
}

static void test_cfi_root_is_vouched_if_calls_check(void **state)
{
    const uint64_t good[] = { WORK + 3, RET_IN_MAIN };
    const uint64_t bad[] = { WORK + 3, NOT_AFTER_CALL };

    assert_int_equal(vouched(*state, good, 2, XU_WALK_CFI_ROOT, NULL), XU_WALK_COMPLETE);
    assert_int_equal(vouched(*state, bad, 2, XU_WALK_CFI_ROOT, NULL), XU_WALK_NOT_CALL);
}

/* The interrupted PC after an upcall marker is exact: it follows no call,
 * and that is right. */
static void test_interrupted_pc_needs_no_call(void **state)
{
    const uint64_t pcs[] = { WORK + 3, CALLBACK + 0x40, XU_PC_UPCALL, MAIN + 0x33,
                             RET_IN_ENTRY };

    assert_int_equal(vouched(*state, pcs, 5, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
}

static void test_other_ends_are_left_alone(void **state)
{
    const uint64_t pcs[] = { WORK + 3 };

    assert_int_equal(vouched(*state, pcs, 1, XU_WALK_UNMAPPED, NULL), XU_WALK_UNMAPPED);
}

static void test_totals_follow(void **state)
{
    struct fixture *f = *state;
    struct xu_profile_totals t;
    const uint64_t leaf[] = { WORK + 3 };
    const struct xu_vouch v = { f->st, f->code, &xu_arch_x86_64, NULL };

    assert_int_equal(xu_profile_add(f->p, 0, leaf, 1, XU_WALK_COMPLETE, 7), 0);
    xu_vouch_profile(f->p, &v);
    xu_profile_get_totals(f->p, &t);
    assert_int_equal(t.by_end[XU_WALK_COMPLETE], 0);
    assert_int_equal(t.by_end[XU_WALK_NOT_ROOT], 7);
    assert_int_equal(xu_profile_complete_samples(&t), 0);
    /* the profile is sealed: the hash no longer finds stacks by their end */
    assert_int_equal(xu_profile_add(f->p, 0, leaf, 1, XU_WALK_COMPLETE, 1), -EPERM);
}

static void test_roots_parse(void **state)
{
    const char **v = NULL;
    char big[XU_MAX_ROOT_NAME + 2];
    size_t n;

    (void)state;
    assert_int_equal(xu_roots_parse("main,idle", &v), 0);
    assert_string_equal(v[0], "main");
    assert_string_equal(v[1], "idle");
    assert_null(v[2]);
    free(v);
    assert_int_equal(xu_roots_parse("+app_main", &v), 0);
    for (n = 0; v[n]; n++)
        ;
    assert_string_equal(v[0], xu_default_roots[0]);
    assert_string_equal(v[n - 1], "app_main");
    free(v);
    assert_int_equal(xu_roots_parse("a,,b", &v), -EINVAL);
    assert_int_equal(xu_roots_parse("a,", &v), -EINVAL);
    assert_int_equal(xu_roots_parse("", &v), -EINVAL);
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    assert_int_equal(xu_roots_parse(big, &v), -EINVAL);
    assert_null(v);
}

static void test_env_from_elf(void **state)
{
    struct fixture *f = *state;
    struct xu_unwind_env env;

    memset(&env, 0xff, sizeof(env));
    xu_unwind_env_from_elf(f->st, f->code, &xu_arch_x86_64, &env);
    assert_int_equal(env.hypercall_page.start, HCALL);
    assert_int_equal(env.hypercall_page.end, HCALL + 4096);
    assert_int_equal(env.nr_boundary, 1);
    assert_int_equal(env.boundary[0].start, CALLBACK);
    assert_int_equal(env.boundary[0].end, CALLBACK + 0x80);
    assert_int_equal(env.nr_text, 1);
    assert_int_equal(env.text[0].start, TEXT);
    assert_int_equal(env.text[0].end, TEXT + 0x2000);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_chain_to_the_entry_point),
        T(test_chain_to_a_thread_starter),
        T(test_lone_leaf_is_not_a_root),
        T(test_return_after_no_call),
        T(test_return_outside_the_code),
        T(test_roots_list_replaces_the_defaults),
        T(test_cfi_root_is_vouched_if_calls_check),
        T(test_interrupted_pc_needs_no_call),
        T(test_other_ends_are_left_alone),
        T(test_totals_follow),
        T(test_env_from_elf),
        T(test_roots_parse),
    };
#undef T

    return cmocka_run_group_tests(tests, NULL, NULL);
}
