/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_end_to_end.c - the whole pipeline on a simulated guest whose answer
 * is known exactly: page tables and frame-pointer stacks in guest memory,
 * the sampler pausing and unwinding, interning, symbols from a real ELF
 * file, and the folded text written atomically to disk.
 *
 * The guest is the thesis's first application: function_1, function_2 and
 * function_3 run in the ratio 1:3:6, all called from main_loop.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "ratio_kernel.h"
#include "sim_guest.h"
#include "output/xu_output.h"
#include "sample/xu_sampler.h"
#include "symbols/xu_symbols.h"

#define T SIM_TEXT_BASE

/* The guest's kernel is tests/helpers/ratio_kernel.h's, written without its
 * call instructions.  In its stacks, function_3's caller returns to
 * main_loop + 0x80, one past main_loop's last byte (a call that ends the
 * function): only the pc - 1 rule attributes it to main_loop. */

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_profile *p;
    struct xu_symtab *st;
    char elf[64], out[64];
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PV, 2, 0), 0);
    xu_sim_target_open(f.g.sim, &f.t, NULL);
    f.m = xu_mem_new(&f.t, NULL);
    f.p = xu_profile_new(0);
    strcpy(f.elf, "/tmp/xu-e2e-XXXXXX");
    close(mkstemp(f.elf));
    assert_int_equal(mkelf_write(f.elf, T, 0x1000, ratio_kernel_syms, RATIO_KERNEL_NSYMS, 0), 0);
    assert_int_equal(xu_symtab_open(f.elf, NULL, &f.st), 0);
    strcpy(f.out, "/tmp/xu-e2e-out-XXXXXX");
    close(mkstemp(f.out));
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    unlink(f->elf);
    unlink(f->out);
    xu_symtab_free(f->st);
    xu_profile_free(f->p);
    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

static void push(struct fixture *f, unsigned int vcpu, unsigned int stack,
                 const uint64_t *chain, unsigned int times)
{
    struct xu_vcpu_regs regs;

    assert_int_equal(sim_guest_chain(&f->g, stack, chain, 4, &regs), 0);
    while (times--)
        assert_int_equal(xu_sim_push_state(f->g.sim, vcpu, &regs), 0);
}

/* Sample, symbolise and write with the given options; return the file. */
static char *profile_to_text(struct fixture *f, const struct xu_output_ops *fmt, bool per_vcpu,
                             uint64_t ticks)
{
    struct xu_sampler_config cfg = { .frequency_hz = 1000, .max_depth = 64, .max_ticks = ticks,
                                     .no_sleep = 1 };
    struct xu_sampler_stats st;
    struct xu_symbolizer *sz;
    struct xu_output_meta meta = { .domid = 1, .domain_name = "ratio", .backend = "sim",
                                   .frequency_hz = 1000, .start_time = 0 };
    struct xu_output_options opts = { .per_vcpu = per_vcpu };
    struct xu_output_ctx ctx = { .profile = f->p, .meta = &meta, .opts = &opts };
    uint64_t *addrs;
    long n;
    FILE *in;
    char *text = calloc(1, 65536);

    assert_int_equal(xu_sampler_run(&f->t, f->m, f->p, &cfg, &st), 0);
    assert_int_equal(st.ticks, ticks);
    n = xu_profile_unique_addrs(f->p, &addrs);
    assert_true(n > 0);
    sz = xu_symbolizer_new(f->st, addrs, (size_t)n);
    assert_non_null(sz);
    ctx.syms = sz;
    assert_int_equal(xu_output_write_path(fmt, f->out, &ctx), 0);
    in = fopen(f->out, "r");
    assert_non_null(in);
    assert_true(fread(text, 1, 65535, in) > 0);
    fclose(in);
    xu_symbolizer_free(sz);
    free(addrs);
    return text;
}

static void test_ratio_guest_folded_exact(void **state)
{
    struct fixture *f = *state;
    char *text;

    push(f, 0, 0, ratio_kernel_in_f1, 1);
    push(f, 0, 1, ratio_kernel_in_f2, 3);
    push(f, 0, 2, ratio_kernel_in_f3, 6);
    text = profile_to_text(f, &xu_output_folded, false, 1000);
    assert_string_equal(text,
        "_start;start_kernel;main_loop;function_1 100\n"
        "_start;start_kernel;main_loop;function_2 300\n"
        "_start;start_kernel;main_loop;function_3 600\n");
    free(text);
}

static void test_two_vcpus_per_vcpu_exact(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs broken;
    char *text;

    push(f, 0, 0, ratio_kernel_in_f3, 1);
    /* vCPU 1: function_2 three ticks in four; the fourth its frame pointer
     * points at itself, a walk that must end early and be marked so */
    push(f, 1, 1, ratio_kernel_in_f2, 3);
    assert_int_equal(sim_guest_chain(&f->g, 2, ratio_kernel_in_f1, 4, &broken), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, broken.fp, broken.fp), 0);
    assert_int_equal(xu_sim_push_state(f->g.sim, 1, &broken), 0);
    text = profile_to_text(f, &xu_output_folded, true, 400);
    assert_string_equal(text,
        "vcpu0;_start;start_kernel;main_loop;function_3 400\n"
        "vcpu1;[incomplete];main_loop;function_1 100\n"
        "vcpu1;_start;start_kernel;main_loop;function_2 300\n");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ratio_guest_folded_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_vcpus_per_vcpu_exact, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
