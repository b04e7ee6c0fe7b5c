/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_vouch.c - the ELF's word on finished walks: a stack is complete only
 * when its outermost function is a root (entry point, roots list, CFI) and
 * every return address follows a call in the ELF's code; and what the ELF
 * tells the unwinders beforehand (hypercall page, upcall entries, code).
 */
#include "config.h"

#include <elf.h>
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
#include "symbols/xu_elf_code.h"
#include "symbols/xu_elf_synth.h"
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

/* f's ELF written from these and opened. */
static void build(struct fixture *f, const struct mkelf_section *secs, size_t nsecs,
                  const struct mkelf_patch *patches, size_t npatches,
                  const struct mkelf_sym *syms, size_t nsyms)
{
    int fd;

    xu_elf_code_free(f->code);
    xu_symtab_free(f->st);
    f->code = NULL;
    f->st = NULL;
    if (!f->path[0]) {
        strcpy(f->path, "/tmp/test_vouch.XXXXXX");
        fd = mkstemp(f->path);
        assert_true(fd >= 0);
        close(fd);
    }
    assert_int_equal(mkelf_write_patched(f->path, secs, nsecs, patches, npatches, syms, nsyms,
                                         0), 0);
    assert_int_equal(xu_symtab_open(f->path, NULL, &f->st), 0);
    assert_int_equal(xu_elf_code_open(f->path, NULL, &f->code), 0);
}

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

    assert_non_null(f);
    build(f, secs, 1, patches, 4, syms, 6);
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

/* A root's own frame may hold a return address pushed by hand, after no
 * call (Linux's head_64.S does, for unwinders to stop there); a frame
 * that is no root may not, outermost or not. */
static void test_root_frame_needs_no_call(void **state)
{
    const uint64_t pcs[] = { WORK + 3, RET_IN_MAIN, STARTER + 0x40 };
    const uint64_t not_root[] = { WORK + 3, RET_IN_STARTER, NOT_AFTER_CALL };

    assert_int_equal(vouched(*state, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
    assert_int_equal(vouched(*state, not_root, 3, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_CALL);
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

/* An image read from a running kernel's memory names the code the kernel freed after
 * boot (XU_ELF_FREED_CODE_SECTION): a return address there is taken on the walk's
 * word, one past it or in a file without that section is not. */
static void test_freed_code_on_the_walks_word(void **state)
{
    struct fixture *f = *state;
    const uint64_t freed = TEXT + 0x10000;
    const uint64_t through[] = { WORK + 3, freed + 0x10, RET_IN_ENTRY };
    const uint64_t past[] = { WORK + 3, freed + 0x1000, RET_IN_ENTRY };
    static uint8_t text[0x2000];
    const struct xu_elf_synth_section secs[] = {
        { ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT, text, sizeof(text) },
        { XU_ELF_FREED_CODE_SECTION, SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, freed, NULL,
          0x1000 },
    };
    char *path;
    int fd;

    assert_int_equal(vouched(f, through, 3, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_CALL);
    memcpy(text + (RET_IN_ENTRY - 5 - TEXT), call_rel32, 5);
    assert_int_equal(xu_elf_synth_memfd(secs, 2, EM_X86_64, ENTRY, &fd, &path), 0);
    xu_elf_code_free(f->code);
    assert_int_equal(xu_elf_code_open(path, NULL, &f->code), 0);
    close(fd);
    free(path);
    assert_true(xu_elf_code_freed(f->code, freed));
    assert_false(xu_elf_code_freed(f->code, freed + 0x1000));
    assert_int_equal(vouched(f, through, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
    assert_int_equal(vouched(f, past, 3, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_CALL);
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
    uint64_t start;

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
    /* where functions begin, for the prologue of one without a frame
     * record; a label is no function */
    assert_true(env.func_start(env.func_ctx, MAIN + 0x33, &start, NULL));
    assert_int_equal(start, MAIN);
    assert_false(env.func_start(env.func_ctx, CALLBACK + 0x10, &start, NULL));
    assert_false(env.func_start(env.func_ctx, TEXT + 0x1f00, &start, NULL));
}

/* An ARM ELF's function starts: a Thumb function's without its symbol's
 * bit 0, and said to be Thumb, for the prologue reader. */
static void test_env_arm_thumb(void **state)
{
    struct xu_symtab *st = NULL;
    struct xu_unwind_env env;
    uint64_t start;
    bool thumb;

    (void)state;
    assert_int_equal(xu_symtab_open_for(XU_TEST_SRCDIR "/tests/unit/unwind/ehabi_fixture.elf",
                                        EM_ARM, NULL, &st), 0);
    memset(&env, 0, sizeof(env));
    xu_unwind_env_from_elf(st, NULL, &xu_arch_arm32, &env);
    thumb = false;
    assert_true(env.func_start(env.func_ctx, 0x10022, &start, &thumb));
    assert_int_equal(start, 0x1001c);
    assert_true(thumb);
    assert_true(env.func_start(env.func_ctx, 0x1001c, &start, &thumb));
    assert_int_equal(start, 0x1001c);
    assert_true(env.func_start(env.func_ctx, 0x10010, &start, &thumb));
    assert_int_equal(start, 0x10008);
    assert_false(thumb);
    assert_true(env.func_start(env.func_ctx, 0x10010, &start, NULL));
    xu_symtab_free(st);
}

/*
 * A unikernel linked at 0 (Unikraft's Xen platform): the entry point is 0,
 * the boot code is assembly whose labels, not a function, are the
 * outermost frames, and the hypercall page follows it with no function
 * symbol in between.
 */
#define UK_START    0x0ULL                  /* _libxenplat_start, e_entry 0 */
#define UK_LABEL    0x40ULL                 /* nofsgsbase */
#define UK_RET      (UK_LABEL + 0x10)       /* after "call _libxenplat_x86entry" */
#define UK_HCALL    0x1000ULL
#define UK_MAIN     0x2000ULL
#define UK_WORK     0x2100ULL

static void build_linked_at_zero(struct fixture *f)
{
    static const struct mkelf_patch patches[] = {
        { UK_RET - 5, call_rel32, 5 },
        { UK_MAIN + 0x20 - 5, call_rel32, 5 },
    };
    static const struct mkelf_section secs[] = {
        { ".text", 0, 0x3000, false },
    };
    static const struct mkelf_sym syms[] = {
        { "_libxenplat_start", UK_START, 0, STT_NOTYPE, STB_GLOBAL, 0 },
        { "nofsgsbase", UK_LABEL, 0, STT_NOTYPE, STB_LOCAL, 0 },
        { "hypercall_page", UK_HCALL, 0, STT_NOTYPE, STB_GLOBAL, 0 },
        { "main", UK_MAIN, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "work", UK_WORK, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    };

    build(f, secs, 1, patches, 2, syms, 5);
}

static void test_entry_at_zero_and_its_labels(void **state)
{
    struct fixture *f = *state;
    const uint64_t to_label[] = { UK_WORK + 3, UK_MAIN + 0x20, UK_RET };
    const uint64_t to_main[] = { UK_WORK + 3, UK_MAIN + 0x20 };

    build_linked_at_zero(f);
    assert_int_equal(vouched(f, to_label, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
    assert_int_equal(vouched(f, to_main, 2, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_ROOT);
}

/* The entry code stops at the hypercall page: a walk that got no further
 * than a stub is not finished, however close to the entry it lies. */
static void test_bare_hypercall_page_is_not_a_root(void **state)
{
    struct fixture *f = *state;
    const uint64_t bare[] = { UK_HCALL + 29 * 32 + 10 };

    build_linked_at_zero(f);
    assert_int_equal(vouched(f, bare, 1, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_ROOT);
}

/* An entry point of 0 with no code there is nothing: no stack becomes
 * complete because 0 is "in" some symbol. */
static void test_zero_entry_without_code_at_zero(void **state)
{
    struct fixture *f = *state;
    uint64_t entries[XU_ELF_CODE_MAX_ENTRIES];

    /* e_entry is the first section's address: the data section at 0 */
    static const struct mkelf_section secs[] = {
        { ".data", 0, 0x100, true },
        { ".text", TEXT, 0x2000, false },
    };
    static const struct mkelf_sym syms[] = {
        { "main", MAIN, 0x100, STT_FUNC, STB_GLOBAL, 1 },
    };

    build(f, secs, 2, NULL, 0, syms, 1);
    assert_int_equal(xu_elf_code_entries(f->code, entries), 0);
}

/* Xen's notes say where Xen starts the guest, whatever e_entry says. */
#define NOTE_AT     0x100ULL
#define XEN_START   (TEXT + 0x800)          /* a label Xen's note names */
#define XEN_RET     (XEN_START + 0x20)

static void build_with_note(struct fixture *f, uint32_t type, uint32_t descsz)
{
    static uint8_t note[24];
    const uint32_t hdr[3] = { 4, descsz, type };
    const uint64_t desc = XEN_START;
    static const struct mkelf_sym syms[] = {
        { "xen_start", XEN_START, 0, STT_NOTYPE, STB_GLOBAL, 1 },
        { "main", MAIN, 0x100, STT_FUNC, STB_GLOBAL, 1 },
        { "work", WORK, 0x100, STT_FUNC, STB_GLOBAL, 1 },
        { "later", TEXT + 0x1000, 0x100, STT_FUNC, STB_GLOBAL, 1 },
    };
    const struct mkelf_section secs[] = {
        { ".note.Xen", NOTE_AT, 16 + descsz, false },
        { ".text", TEXT, 0x2000, false },
    };
    const struct mkelf_patch patches[] = {
        { NOTE_AT, note, 16 + descsz },
        { XEN_RET - 5, call_rel32, 5 },
        { RET_IN_MAIN - 5, call_rel32, 5 },
    };

    memcpy(note, hdr, sizeof(hdr));
    memcpy(note + 12, "Xen", 4);
    memcpy(note + 16, &desc, descsz);
    build(f, secs, 2, patches, 3, syms, 4);
}

static void test_xen_entry_notes(void **state)
{
    struct fixture *f = *state;
    const uint64_t pcs[] = { WORK + 3, RET_IN_MAIN, XEN_RET };
    uint64_t entries[XU_ELF_CODE_MAX_ENTRIES];

    build_with_note(f, 1, 8);           /* XEN_ELFNOTE_ENTRY, a 64-bit word */
    assert_int_equal(xu_elf_code_entries(f->code, entries), 1);
    assert_int_equal(entries[0], XEN_START);
    assert_int_equal(vouched(f, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
    build_with_note(f, 18, 4);          /* XEN_ELFNOTE_PHYS32_ENTRY (PVH) */
    assert_int_equal(vouched(f, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_COMPLETE);
    build_with_note(f, 2, 8);           /* HYPERCALL_PAGE: not an entry */
    assert_int_equal(xu_elf_code_entries(f->code, entries), 0);
    assert_int_equal(vouched(f, pcs, 3, XU_WALK_COMPLETE, NULL), XU_WALK_NOT_ROOT);
}

static void test_xen_guest_string(void **state)
{
    static const char guest[] = "GUEST_OS=linux,VIRT_ENTRY=0x1,ENTRY=0x401800,XEN_VER=xen-3.0";
    struct fixture *f = *state;
    uint64_t entries[XU_ELF_CODE_MAX_ENTRIES];
    const struct mkelf_section secs[] = {
        { "__xen_guest", NOTE_AT, sizeof(guest), true },
        { ".text", TEXT, 0x2000, false },
    };
    const struct mkelf_patch patches[] = { { NOTE_AT, (const uint8_t *)guest, sizeof(guest) } };
    static const struct mkelf_sym syms[] = {
        { "main", MAIN, 0x100, STT_FUNC, STB_GLOBAL, 1 },
    };

    build(f, secs, 2, patches, 1, syms, 1);
    assert_int_equal(xu_elf_code_entries(f->code, entries), 1);
    assert_int_equal(entries[0], 0x401800);
}

static void test_outermost_not_root(void **state)
{
    struct fixture *f = *state;
    const uint64_t to_main[] = { WORK + 3, RET_IN_MAIN };
    const uint64_t leaf[] = { WORK + 5 };
    const uint64_t done[] = { WORK + 3, RET_IN_MAIN, RET_IN_ENTRY };
    const struct xu_vouch v = { f->st, f->code, &xu_arch_x86_64, NULL };
    double share;

    assert_null(xu_vouch_outermost_not_root(f->p, f->st, &share));
    assert_int_equal(xu_profile_add(f->p, 0, to_main, 2, XU_WALK_COMPLETE, 3), 0);
    assert_int_equal(xu_profile_add(f->p, 0, leaf, 1, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(f->p, 0, done, 3, XU_WALK_COMPLETE, 5), 0);
    xu_vouch_profile(f->p, &v);
    assert_string_equal(xu_vouch_outermost_not_root(f->p, f->st, &share), "main");
    assert_true(share > 74.9 && share < 75.1);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_chain_to_the_entry_point),
        T(test_chain_to_a_thread_starter),
        T(test_lone_leaf_is_not_a_root),
        T(test_return_after_no_call),
        T(test_root_frame_needs_no_call),
        T(test_return_outside_the_code),
        T(test_roots_list_replaces_the_defaults),
        T(test_cfi_root_is_vouched_if_calls_check),
        T(test_interrupted_pc_needs_no_call),
        T(test_freed_code_on_the_walks_word),
        T(test_other_ends_are_left_alone),
        T(test_totals_follow),
        T(test_env_from_elf),
        cmocka_unit_test(test_env_arm_thumb),
        T(test_roots_parse),
        T(test_entry_at_zero_and_its_labels),
        T(test_bare_hypercall_page_is_not_a_root),
        T(test_zero_entry_without_code_at_zero),
        T(test_xen_entry_notes),
        T(test_xen_guest_string),
        T(test_outermost_not_root),
    };
#undef T

    return cmocka_run_group_tests(tests, NULL, NULL);
}
