/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.c - the simulated guest behind xu_sim.h.
 *
 * Deliberately simple and independent of mem.c: the sim writes through its
 * own minimal page walk, so tests of the real walker compare two separate
 * implementations instead of checking code against itself.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xu_sim.h"

#define SIM_DOMID 1
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

struct sim_vstate {
    enum xu_vstate state;
    uint64_t cpu_ns;
};

struct sim_vcpu {
    struct xu_vcpu_regs *states;
    size_t n, cap;
    struct sim_vstate *vstates;     /* the scheduler's view, a cycle too */
    size_t vn, vcap;
    uint64_t cpu_ns;                /* cumulative, as Xen's cpu_time */
    uint64_t cpu_upto;              /* entries added to cpu_ns so far */
};

struct xu_sim {
    enum xu_guest_type type;
    const struct xu_arch_ops *arch;     /* whose page tables and frames it holds */
    uint8_t *mem;
    size_t nr_frames, next_free;
    unsigned int nr_vcpus;
    struct sim_vcpu *vcpus;
    struct xu_sim_counters ctr;
    uint64_t cur_state;         /* index into every vCPU's cycle */
    uint64_t end_countdown;     /* pauses left before the domain ends */
    int end_armed, end_gone;
    unsigned int shutdown_reason;       /* SHUTDOWN_* reported once ended */
    int ended, gone;
    uint64_t dying_countdown;   /* pauses left before the domain is dying */
    int dying_armed, dying;
    unsigned int fail_maps;
    int fail_pause_err, fail_unpause_err, fail_regs_err, fail_open_err;
    uint32_t fail_pause_n, fail_unpause_n, fail_regs_n;
    uint32_t domid;
};

static struct xu_sim *registered;

struct xu_sim *xu_sim_new(enum xu_guest_type type, size_t nr_frames, unsigned int nr_vcpus)
{
    struct xu_sim *sim = calloc(1, sizeof(*sim));

    if (!sim)
        return NULL;
    sim->type = type;
    sim->arch = &xu_arch_x86_64;
    sim->nr_frames = nr_frames;
    sim->nr_vcpus = nr_vcpus;
    sim->mem = calloc(nr_frames, XU_PAGE_SIZE);
    sim->vcpus = calloc(nr_vcpus ? nr_vcpus : 1, sizeof(*sim->vcpus));
    if (!sim->mem || !sim->vcpus) {
        xu_sim_free(sim);
        return NULL;
    }
    /* frame 0 stays unused so a zero entry never looks like a real frame */
    sim->next_free = 1;
    return sim;
}

void xu_sim_free(struct xu_sim *sim)
{
    unsigned int i;

    if (!sim)
        return;
    if (sim->vcpus)
        for (i = 0; i < sim->nr_vcpus; i++) {
            free(sim->vcpus[i].states);
            free(sim->vcpus[i].vstates);
        }
    free(sim->vcpus);
    free(sim->mem);
    free(sim);
}

uint64_t xu_sim_alloc_frame(struct xu_sim *sim)
{
    if (sim->next_free >= sim->nr_frames)
        return UINT64_MAX;
    return sim->next_free++;
}

void *xu_sim_frame(struct xu_sim *sim, uint64_t frame)
{
    if (frame >= sim->nr_frames)
        return NULL;
    return sim->mem + frame * XU_PAGE_SIZE;
}

uint64_t xu_sim_new_root(struct xu_sim *sim)
{
    uint64_t f = xu_sim_alloc_frame(sim);

    return f == UINT64_MAX ? UINT64_MAX : f << XU_PAGE_SHIFT;
}

static uint64_t *table_at(struct xu_sim *sim, uint64_t phys)
{
    return xu_sim_frame(sim, phys >> XU_PAGE_SHIFT);
}

static unsigned int index_at(uint64_t va, int level)
{
    return (unsigned int)((va >> (XU_PAGE_SHIFT + 9 * (level - 1))) & 511);
}

/* The entry for va at level, creating intermediate tables down to it. */
static uint64_t *entry_for(struct xu_sim *sim, uint64_t root, uint64_t va, int level, int create)
{
    uint64_t *table = table_at(sim, root);
    int l;

    for (l = 4; table; l--) {
        uint64_t *e = &table[index_at(va, l)];
        uint64_t f;

        if (l == level)
            return e;
        if (!(*e & XU_PTE_P)) {
            if (!create)
                return NULL;
            f = xu_sim_alloc_frame(sim);
            if (f == UINT64_MAX)
                return NULL;
            *e = (f << XU_PAGE_SHIFT) | XU_PTE_P | XU_PTE_RW | XU_PTE_US;
        } else if (*e & XU_PTE_PS) {
            return NULL;    /* a large page is in the way */
        }
        table = table_at(sim, *e & PTE_ADDR_MASK);
    }
    return NULL;
}

int xu_sim_map(struct xu_sim *sim, uint64_t root, uint64_t va, uint64_t phys,
               enum xu_sim_page_size size)
{
    static const int level_of[] = { [XU_SIM_4K] = 1, [XU_SIM_2M] = 2, [XU_SIM_1G] = 3 };
    static const uint64_t bytes_of[] = { [XU_SIM_4K] = 1ULL << 12, [XU_SIM_2M] = 1ULL << 21,
                                         [XU_SIM_1G] = 1ULL << 30 };
    uint64_t *e;

    if ((unsigned)size > XU_SIM_1G || (va | phys) & (bytes_of[size] - 1))
        return -EINVAL;
    e = entry_for(sim, root, va, level_of[size], 1);
    if (!e)
        return -ENOMEM;
    *e = phys | XU_PTE_P | XU_PTE_RW | (size != XU_SIM_4K ? XU_PTE_PS : 0);
    return 0;
}

int xu_sim_map_range(struct xu_sim *sim, uint64_t root, uint64_t va, uint64_t len)
{
    uint64_t end = va + len, f;
    int rc;

    for (va &= ~(XU_PAGE_SIZE - 1); va < end; va += XU_PAGE_SIZE) {
        f = xu_sim_alloc_frame(sim);
        if (f == UINT64_MAX)
            return -ENOMEM;
        rc = xu_sim_map(sim, root, va, f << XU_PAGE_SHIFT, XU_SIM_4K);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int xu_sim_set_pte(struct xu_sim *sim, uint64_t root, uint64_t va, int level, uint64_t pte)
{
    uint64_t *e;

    if (level < 1 || level > 4)
        return -EINVAL;
    e = entry_for(sim, root, va, level, 0);
    if (!e)
        return -ENOENT;
    *e = pte;
    return 0;
}

/* Host pointer for va, or NULL; the sim's own walk, see the file comment. */
static uint8_t *sim_va(struct xu_sim *sim, uint64_t root, uint64_t va)
{
    uint64_t *table = table_at(sim, root);
    int l;

    for (l = 4; table; l--) {
        uint64_t e = table[index_at(va, l)];
        uint64_t page_bytes = 1ULL << (XU_PAGE_SHIFT + 9 * (l - 1));

        if (!(e & XU_PTE_P))
            return NULL;
        if (l == 1 || (e & XU_PTE_PS)) {
            uint64_t phys = (e & PTE_ADDR_MASK & ~(page_bytes - 1)) | (va & (page_bytes - 1));
            uint8_t *frame = xu_sim_frame(sim, phys >> XU_PAGE_SHIFT);
            return frame ? frame + (phys & (XU_PAGE_SIZE - 1)) : NULL;
        }
        table = table_at(sim, e & PTE_ADDR_MASK);
    }
    return NULL;
}

int xu_sim_write(struct xu_sim *sim, uint64_t root, uint64_t va, const void *buf, size_t len)
{
    const uint8_t *src = buf;

    while (len) {
        size_t chunk = XU_PAGE_SIZE - (va & (XU_PAGE_SIZE - 1));
        uint8_t *dst = sim_va(sim, root, va);

        if (!dst)
            return -EFAULT;
        if (chunk > len)
            chunk = len;
        memcpy(dst, src, chunk);
        src += chunk;
        va += chunk;
        len -= chunk;
    }
    return 0;
}

int xu_sim_write_u64(struct xu_sim *sim, uint64_t root, uint64_t va, uint64_t v)
{
    return xu_sim_write(sim, root, va, &v, sizeof(v));
}

int xu_sim_push_state(struct xu_sim *sim, unsigned int vcpu, const struct xu_vcpu_regs *regs)
{
    struct sim_vcpu *v;

    if (vcpu >= sim->nr_vcpus)
        return -EINVAL;
    v = &sim->vcpus[vcpu];
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        struct xu_vcpu_regs *s = realloc(v->states, cap * sizeof(*s));
        if (!s)
            return -ENOMEM;
        v->states = s;
        v->cap = cap;
    }
    v->states[v->n++] = *regs;
    return 0;
}

int xu_sim_push_vstate(struct xu_sim *sim, unsigned int vcpu, enum xu_vstate state,
                       uint64_t cpu_ns)
{
    struct sim_vcpu *v;

    if (vcpu >= sim->nr_vcpus || (unsigned)state >= XU_VSTATE__COUNT)
        return -EINVAL;
    v = &sim->vcpus[vcpu];
    if (v->vn == v->vcap) {
        size_t cap = v->vcap ? v->vcap * 2 : 16;
        struct sim_vstate *s = realloc(v->vstates, cap * sizeof(*s));
        if (!s)
            return -ENOMEM;
        v->vstates = s;
        v->vcap = cap;
    }
    v->vstates[v->vn++] = (struct sim_vstate){ state, cpu_ns };
    return 0;
}

void xu_sim_shutdown_reason(struct xu_sim *sim, unsigned int code)
{
    sim->shutdown_reason = code;
}

void xu_sim_end_after(struct xu_sim *sim, uint64_t pauses, int gone)
{
    sim->end_armed = 1;
    sim->end_countdown = pauses;
    sim->end_gone = gone;
    if (pauses == 0) {
        sim->ended = 1;
        sim->gone = gone;
    }
}

void xu_sim_dying_after(struct xu_sim *sim, uint64_t pauses)
{
    sim->dying_armed = 1;
    sim->dying_countdown = pauses;
    sim->dying = pauses == 0;
}

void xu_sim_fail_maps(struct xu_sim *sim, unsigned int n)
{
    sim->fail_maps = n;
}

void xu_sim_fail_pause(struct xu_sim *sim, int err, uint32_t n)
{
    sim->fail_pause_err = err;
    sim->fail_pause_n = n;
}

void xu_sim_fail_unpause(struct xu_sim *sim, int err, uint32_t n)
{
    sim->fail_unpause_err = err;
    sim->fail_unpause_n = n;
}

void xu_sim_fail_regs(struct xu_sim *sim, int err, uint32_t n)
{
    sim->fail_regs_err = err;
    sim->fail_regs_n = n;
}

void xu_sim_fail_open(struct xu_sim *sim, int err)
{
    sim->fail_open_err = err;
}

int xu_sim_admin_pause(struct xu_sim *sim)
{
    if (sim->gone)
        return -ESRCH;
    sim->ctr.pause_depth++;
    return 0;
}

int xu_sim_admin_unpause(struct xu_sim *sim)
{
    if (sim->ctr.pause_depth <= 0)
        return -EINVAL;
    sim->ctr.pause_depth--;
    return 0;
}

void xu_sim_register(struct xu_sim *sim, uint32_t domid)
{
    registered = sim;
    if (sim)
        sim->domid = domid;
}

/* Take one of n scripted failures; 0 when none is left. */
static int take_fault(int err, uint32_t *n)
{
    if (*n == 0)
        return 0;
    if (*n != XU_SIM_ALWAYS)
        (*n)--;
    return err;
}

void xu_sim_get_counters(const struct xu_sim *sim, struct xu_sim_counters *out)
{
    *out = sim->ctr;
}

void xu_sim_set_arch(struct xu_sim *sim, const struct xu_arch_ops *arch)
{
    sim->arch = arch;
}

/* ---- the target backend ---- */

static int sim_open(struct xu_target *t, uint32_t domid)
{
    return t->priv ? 0 : -ENODEV;
}

/* Opened by domid, as a Xen backend is. */
static int sim_open_registered(struct xu_target *t, uint32_t domid)
{
    struct xu_sim *sim = registered;

    if (!sim)
        return -ENODEV;
    if (sim->fail_open_err == -EPROTO) {
        xu_error(t->log, "Xen version mismatch: the running hypervisor (simulated) rejects "
                 "the domctl interface this xen-uniprof was built for");
        return -EPROTO;
    }
    if (sim->fail_open_err)
        return sim->fail_open_err;
    if (domid != sim->domid || sim->gone)
        return -ESRCH;
    sim->ctr.opens++;
    t->priv = sim;
    t->arch = sim->arch;
    return 0;
}

static void sim_close(struct xu_target *t)
{
}

static int sim_info(struct xu_target *t, struct xu_domain_info *out)
{
    struct xu_sim *sim = t->priv;
    unsigned int i;

    if (sim->gone)
        return -ESRCH;
    memset(out, 0, sizeof(*out));
    out->domid = t->domid;
    out->type = sim->type;
    out->max_vcpu_id = sim->nr_vcpus ? sim->nr_vcpus - 1 : 0;
    for (i = 0; i < sim->nr_vcpus; i++)
        if (sim->vcpus[i].n && sim->vcpus[i].states[0].online)
            out->nr_online_vcpus++;
    out->guest_width = 8;
    out->paused = sim->ctr.pause_depth > 0;
    out->shutdown = sim->ended && !sim->gone;
    out->shutdown_reason = out->shutdown ? sim->shutdown_reason : 0;
    out->dying = sim->dying;
    return 0;
}

static int sim_pause(struct xu_target *t)
{
    struct xu_sim *sim = t->priv;

    int rc;

    if (sim->gone)
        return -ESRCH;
    rc = take_fault(sim->fail_pause_err, &sim->fail_pause_n);
    if (rc)
        return rc;
    if (sim->end_armed && !sim->ended) {
        if (sim->end_countdown == 0) {
            sim->ended = 1;
            sim->gone = sim->end_gone;
            if (sim->gone)
                return -ESRCH;
        } else {
            sim->end_countdown--;
        }
    }
    if (sim->dying_armed && !sim->dying) {
        if (sim->dying_countdown == 0)
            sim->dying = 1;
        else
            sim->dying_countdown--;
    }
    sim->ctr.pauses++;
    sim->ctr.pause_depth++;
    /* pause number k (1-based) shows state k-1 of each cycle */
    sim->cur_state = sim->ctr.pauses - 1;
    return 0;
}

static int sim_unpause(struct xu_target *t)
{
    struct xu_sim *sim = t->priv;
    int rc;

    sim->ctr.unpause_calls++;
    rc = take_fault(sim->fail_unpause_err, &sim->fail_unpause_n);
    if (rc)
        return rc;
    if (sim->ctr.pause_depth <= 0)
        return -EINVAL;     /* as Xen: unpausing what is not paused fails */
    sim->ctr.unpauses++;
    sim->ctr.pause_depth--;
    return 0;
}

static int sim_vcpu_regs(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    struct xu_sim *sim = t->priv;
    struct sim_vcpu *v;
    int rc;

    if (vcpu >= sim->nr_vcpus)
        return -EINVAL;
    rc = take_fault(sim->fail_regs_err, &sim->fail_regs_n);
    if (rc)
        return rc;
    v = &sim->vcpus[vcpu];
    if (v->n == 0) {
        memset(out, 0, sizeof(*out));
        return 0;
    }
    *out = v->states[sim->cur_state % v->n];
    return 0;
}

static int sim_vcpu_state(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_state *out)
{
    struct xu_sim *sim = t->priv;
    struct sim_vcpu *v;
    uint64_t k = sim->ctr.pauses;   /* asked before pause k + 1 */

    if (vcpu >= sim->nr_vcpus)
        return -EINVAL;
    if (sim->gone)
        return -ESRCH;
    v = &sim->vcpus[vcpu];
    if (v->vn == 0)
        return -EOPNOTSUPP;     /* nothing scripted: as a backend without the op */
    sim->ctr.state_reads++;
    if (sim->ctr.pause_depth > 0)
        sim->ctr.state_reads_paused++;
    while (v->cpu_upto <= k) {
        v->cpu_ns += v->vstates[v->cpu_upto % v->vn].cpu_ns;
        v->cpu_upto++;
    }
    out->state = v->vstates[k % v->vn].state;
    out->cpu_time_ns = v->cpu_ns;
    return 0;
}

static const void *sim_map_frame(struct xu_target *t, uint64_t frame)
{
    struct xu_sim *sim = t->priv;
    const void *p;

    if (sim->fail_maps) {
        sim->fail_maps--;
        errno = EIO;
        return NULL;
    }
    if (sim->dying) {
        errno = ESRCH;
        return NULL;
    }
    p = xu_sim_frame(sim, frame);
    if (!p) {
        errno = EFAULT;
        return NULL;
    }
    sim->ctr.maps++;
    return p;
}

static void sim_unmap_frame(struct xu_target *t, const void *addr)
{
    struct xu_sim *sim = t->priv;

    sim->ctr.unmaps++;
}

const struct xu_target_ops xu_sim_ops = {
    .name = "sim",
    .open = sim_open_registered,
    .close = sim_close,
    .info = sim_info,
    .pause = sim_pause,
    .unpause = sim_unpause,
    .vcpu_regs = sim_vcpu_regs,
    .vcpu_state = sim_vcpu_state,
    .map_frame = sim_map_frame,
    .unmap_frame = sim_unmap_frame,
};

static const struct xu_target_ops sim_ops = {
    .name = "sim",
    .open = sim_open,
    .close = sim_close,
    .info = sim_info,
    .pause = sim_pause,
    .unpause = sim_unpause,
    .vcpu_regs = sim_vcpu_regs,
    .vcpu_state = sim_vcpu_state,
    .map_frame = sim_map_frame,
    .unmap_frame = sim_unmap_frame,
};

int xu_sim_target_open(struct xu_sim *sim, struct xu_target *t, struct xu_log *log)
{
    memset(t, 0, sizeof(*t));
    t->ops = &sim_ops;
    t->arch = sim->arch;
    t->priv = sim;
    t->log = log;
    t->domid = SIM_DOMID;
    return 0;
}
