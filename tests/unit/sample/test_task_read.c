/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_task_read.c - the current Linux task of a paused vCPU, read from a
 * simulated guest laid out as Debian's 6.1 kernel keeps it (per-CPU
 * current_task, task_struct.pid and .comm at that kernel's offsets), and
 * the sampler naming every sample's task with it.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim_guest.h"
#include "sample/xu_sampler.h"
#include "sample/xu_task_read.h"

#define PERCPU   0xffff888000100000ULL      /* a CPU's per-CPU area (its GS base) */
#define TASKS    0xffff888000200000ULL      /* task_structs, 0x2000 apart */
#define UNMAPPED 0xffff888000800000ULL
#define CURRENT_TASK 0x1fb80ULL             /* Debian 6.1.0-56's */
#define PID_OFF  0x970u
#define COMM_OFF 0xba0u

static const struct xu_linux_task_layout layout = {
    .pid_offset = PID_OFF, .pid_size = 4, .comm_offset = COMM_OFF, .comm_size = 16,
    .current_task = CURRENT_TASK, .current_from = "current_task",
};

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 1, 0), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, PERCPU, 0x20000), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, TASKS, 0x8000), 0);
    assert_int_equal(xu_sim_target_open(f.g.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

/* Task k at TASKS + k * 0x2000 with pid and comm (16 bytes written as given). */
static uint64_t put_task(struct fixture *f, unsigned int k, uint32_t pid, const char comm[16])
{
    uint64_t task = TASKS + (uint64_t)k * 0x2000;

    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, task + PID_OFF, &pid, sizeof(pid)), 0);
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, task + COMM_OFF, comm, 16), 0);
    return task;
}

static void set_current(struct fixture *f, uint64_t task)
{
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, PERCPU + CURRENT_TASK, task), 0);
}

/* A vCPU stopped in kernel code with this CPU's base. */
static void kernel_regs(struct fixture *f, struct xu_vcpu_regs *r)
{
    static const uint64_t chain[] = { SIM_TEXT_BASE + 0x1010, SIM_TEXT_BASE + 0x10 };

    assert_int_equal(sim_guest_chain(&f->g, 0, chain, 2, r), 0);
    r->kernel_percpu = PERCPU;
}

static bool read_task(struct fixture *f, const struct xu_vcpu_regs *r, int32_t *pid,
                      char comm[16])
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, r);
    return xu_task_read_linux(f->m, r, &layout, pid, comm);
}

static void test_good_task(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    char comm[16];
    int32_t pid = -1;

    set_current(f, put_task(f, 1, 4242, "busy\0\0\0\0\0\0\0\0\0\0\0"));
    kernel_regs(f, &r);
    assert_true(read_task(f, &r, &pid, comm));
    assert_int_equal(pid, 4242);
    assert_string_equal(comm, "busy");
    /* user mode: the same base (the kernel's, swapped aside), the same task */
    r.kernel_mode = false;
    r.ip = 0x401000;
    assert_true(read_task(f, &r, &pid, comm));
    assert_int_equal(pid, 4242);
}

/*
 * Page-table isolation: a vCPU on the user half of an 8 KiB pair whose top
 * level maps none of the kernel; the task is read through the kernel's
 * half, 4 KiB below, and only where the pair can be one.
 */
static void test_kpti(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    uint64_t kernel, user;
    char comm[16];
    int32_t pid = -1;

    set_current(f, put_task(f, 3, 777, "dd\0\0\0\0\0\0\0\0\0\0\0\0\0"));
    kernel_regs(f, &r);
    /* the pair: an even frame holding the kernel's top level, the next one empty */
    do
        kernel = xu_sim_alloc_frame(f->g.sim);
    while (kernel != UINT64_MAX && (kernel & 1));
    user = xu_sim_alloc_frame(f->g.sim);
    assert_true(kernel != UINT64_MAX && user == kernel + 1);
    memcpy(xu_sim_frame(f->g.sim, kernel), xu_sim_frame(f->g.sim, f->g.root >> 12), 4096);
    r.kernel_mode = false;
    r.ip = 0x401000;
    r.mmu.root = user << 12;
    assert_true(read_task(f, &r, &pid, comm));
    assert_int_equal(pid, 777);
    assert_string_equal(comm, "dd");
    /* in kernel mode too: the entry code before its switch of tables, the
     * exit code after it */
    r.kernel_mode = true;
    pid = -1;
    assert_true(read_task(f, &r, &pid, comm));
    assert_int_equal(pid, 777);
    /* on a PV vCPU's two roots (the second one that of the kernel: empty
     * here) or without long-mode paging the roots are what they say */
    r.kernel_mode = false;
    r.mmu.root_hi = user << 12;
    assert_false(read_task(f, &r, &pid, comm));
    r.mmu.root_hi = 0;
    r.mmu.paging = XU_PAGING_PAE;
    assert_false(read_task(f, &r, &pid, comm));
    /* an even root is no user half */
    r.mmu.paging = XU_PAGING_LONG4;
    assert_true(xu_sim_alloc_frame(f->g.sim) == user + 1);
    r.mmu.root = (user + 1) << 12;
    assert_false(read_task(f, &r, &pid, comm));
}

static void test_idle_task(void **state)
{
    struct fixture *f = *state;
    struct xu_tasks *tasks = malloc(sizeof(*tasks));
    struct xu_vcpu_regs r;
    char comm[16], buf[19];
    int32_t pid = -1;
    uint32_t i;

    assert_non_null(tasks);
    xu_tasks_init(tasks);
    set_current(f, put_task(f, 2, 0, "swapper/1\0\0\0\0\0\0"));
    kernel_regs(f, &r);
    assert_true(read_task(f, &r, &pid, comm));
    assert_int_equal(pid, 0);
    i = xu_tasks_intern(tasks, pid, comm);
    assert_int_equal(xu_tasks_intern(tasks, 0, "swapper/0\0\0\0\0\0\0"), i);
    assert_string_equal(xu_pseudo_frame_name(tasks, xu_pc_task(i), buf, sizeof(buf)), "[idle]");
    free(tasks);
}

/* Whatever the guest holds, a task that cannot be read is unknown. */
static void test_garbage(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    char comm[16];
    int32_t pid = -1;
    uint64_t good = put_task(f, 3, 7, "dd\0\0\0\0\0\0\0\0\0\0\0\0\0");
    uint64_t bad_pid = put_task(f, 0, 0x7fffffff, "dd\0\0\0\0\0\0\0\0\0\0\0\0\0");
    static const uint64_t pointers[] = {
        0, 0x401000, UNMAPPED, 0xffff888000200004ULL, 0x8000000000000000ULL,
        0xfffffffffffffff8ULL,
    };
    size_t k;

    kernel_regs(f, &r);
    for (k = 0; k < sizeof(pointers) / sizeof(pointers[0]); k++) {
        set_current(f, pointers[k]);
        assert_false(read_task(f, &r, &pid, comm));
    }
    set_current(f, bad_pid);
    assert_false(read_task(f, &r, &pid, comm));
    /* a comm without its NUL */
    set_current(f, put_task(f, 3, 7, "0123456789abcdef"));
    assert_false(read_task(f, &r, &pid, comm));
    set_current(f, put_task(f, 3, 7, "dd\0\0\0\0\0\0\0\0\0\0\0\0\0"));
    assert_true(read_task(f, &r, &pid, comm));
    /* bases that are not a kernel's: none, a user one, one past the mapping */
    r.kernel_percpu = 0;
    assert_false(read_task(f, &r, &pid, comm));
    r.kernel_percpu = 0x7f0000000000ULL;
    assert_false(read_task(f, &r, &pid, comm));
    r.kernel_percpu = UNMAPPED;
    assert_false(read_task(f, &r, &pid, comm));
    r.kernel_percpu = 0xffffffffffffff00ULL;       /* base + offset wraps to user space */
    assert_false(read_task(f, &r, &pid, comm));
    (void)good;
}

/* A layout without the per-CPU pointer (no kallsyms) reads nothing. */
static void test_no_layout(void **state)
{
    struct fixture *f = *state;
    struct xu_linux_task_layout l = layout;
    struct xu_vcpu_regs r;
    char comm[16];
    int32_t pid;

    set_current(f, put_task(f, 1, 4242, "busy\0\0\0\0\0\0\0\0\0\0\0"));
    kernel_regs(f, &r);
    l.current_from = NULL;
    xu_mem_set_context(f->m, &r);
    assert_false(xu_task_read_linux(f->m, &r, &l, &pid, comm));
    assert_false(xu_task_read_linux(f->m, &r, NULL, &pid, comm));
}

/*
 * The sampler with tasks: a kernel sample keeps its chain under its task,
 * a user-mode one is [user] under its task (a root: its walk counts as
 * complete), one whose task pointer is garbage is under "unknown".
 */
static void test_sampler_names_tasks(void **state)
{
    static const uint64_t chain[] = { SIM_TEXT_BASE + 0x1010, SIM_TEXT_BASE + 0x2020,
                                      SIM_TEXT_BASE + 0x10 };
    struct fixture *f = *state;
    struct xu_tasks *tasks = malloc(sizeof(*tasks));
    struct xu_profile *p = xu_profile_new(0);
    struct xu_sampler_config cfg = { 0 };
    struct xu_sampler_stats st;
    struct xu_vcpu_regs r, user;
    const struct xu_stack *s;
    uint64_t busy = put_task(f, 1, 4242, "busy\0\0\0\0\0\0\0\0\0\0\0");
    char buf[19];

    assert_non_null(tasks);
    assert_non_null(p);
    xu_tasks_init(tasks);
    set_current(f, busy);
    assert_int_equal(sim_guest_chain(&f->g, 1, chain, 3, &r), 0);
    r.kernel_percpu = PERCPU;
    user = r;
    user.kernel_mode = false;
    user.ip = 0x401000;
    assert_int_equal(xu_sim_push_state(f->g.sim, 0, &r), 0);
    assert_int_equal(xu_sim_push_state(f->g.sim, 0, &user), 0);
    assert_int_equal(xu_sim_push_state(f->g.sim, 0, &user), 0);
    cfg.frequency_hz = 1000;
    cfg.max_depth = 32;
    cfg.no_sleep = 1;
    cfg.max_ticks = 30;
    cfg.task_layout = &layout;
    cfg.tasks = tasks;
    assert_int_equal(xu_sampler_run(&f->t, f->m, p, &cfg, &st), 0);
    assert_int_equal(st.samples, 30);
    assert_int_equal(st.tasks_unknown, 0);
    assert_int_equal(xu_profile_nr_stacks(p), 2);
    s = xu_profile_stack(p, 0);
    assert_int_equal(s->depth, 4);
    assert_memory_equal(s->pcs, chain, sizeof(chain));
    assert_int_equal(s->count, 10);
    assert_true(xu_pc_is_task(s->pcs[3]));
    assert_string_equal(xu_pseudo_frame_name(tasks, s->pcs[3], buf, sizeof(buf)),
                        "[task] busy/4242");
    s = xu_profile_stack(p, 1);
    assert_int_equal(s->depth, 2);
    assert_int_equal(s->pcs[0], XU_PC_USER);
    assert_int_equal(s->pcs[1], xu_profile_stack(p, 0)->pcs[3]);
    assert_int_equal(s->count, 20);
    assert_true(xu_walk_complete(s->end));

    /* the task pointer now leads nowhere */
    xu_profile_clear(p);
    set_current(f, UNMAPPED);
    assert_int_equal(xu_sampler_run(&f->t, f->m, p, &cfg, &st), 0);
    assert_int_equal(st.tasks_unknown, 30);
    s = xu_profile_stack(p, 0);
    assert_int_equal(s->pcs[s->depth - 1], xu_pc_task(XU_TASKS_UNKNOWN));
    assert_string_equal(xu_pseudo_frame_name(tasks, s->pcs[s->depth - 1], buf, sizeof(buf)),
                        "[task] unknown");
    xu_profile_free(p);
    free(tasks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_good_task, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kpti, setup, teardown),
        cmocka_unit_test_setup_teardown(test_idle_task, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sampler_names_tasks, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
