/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * flamegraph.c - the frames of a flame graph, and drawing them as an
 * interactive SVG.
 *
 * Each stack becomes a path of name ids, root first (vCPU and
 * "[incomplete]" roots included when they apply).  Drawing sorts the paths
 * by name, as a sorted folded file is, and walks them once: frames shared by
 * neighbouring paths stay open, a frame closes when the next path leaves
 * it, and only then is its width known.  So no tree is ever built: memory is
 * the paths (paths.h: 16 bits a frame of each distinct stack while names
 * are fewer than 65,536) plus the frames actually drawn, and time is one
 * sort and one pass.
 *
 * Frames narrower than min_width are not dropped: each run of adjacent
 * narrow siblings is drawn as one "[merged]" frame where they were, whose
 * tooltip says how many frames and samples it stands for.  Frames below a
 * narrow frame are narrower still and are not drawn.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "function_ids.h"
#include "paths.h"
#include "output/xu_flamegraph.h"

#define FG_DEFAULT_WIDTH 1200
#define FG_MIN_WIDTH_PX 0.1     /* FlameGraph's default */
#define FG_FRAME_H 16
#define FG_FONT 12
#define FG_FONT_W 0.59          /* average glyph width / font size */
#define FG_XPAD 10
#define FG_YPAD_TOP (FG_FONT * 3 + 24)
#define FG_YPAD_BOTTOM (FG_FONT * 2 + 10)
#define FG_MAX_PATH (XU_MAX_DEPTH_LIMIT + 4)    /* all, vcpuN, [state], [incomplete] */

/* ORIGIN_OFF_CPU: a state root of the off-CPU states ("[blocked]"), whose
 * frames are drawn in cold colours. */
enum fg_origin { ORIGIN_APP, ORIGIN_KERNEL, ORIGIN_UNRESOLVED, ORIGIN_SPECIAL, ORIGIN_OFF_CPU };

/* Where a name's function is in the source, for its tooltip. */
struct fg_src {
    uint32_t file;              /* id in files + 1, 0: unknown */
    uint32_t line;              /* 0: unknown or several */
    bool inlined;
    bool seen;
    bool line_varies;
};

struct xu_fg {
    struct xu_paths paths;      /* of name ids: one a stack of each side */
    struct xu_strtab names;
    uint8_t *origin;            /* per name */
    struct fg_src *src;         /* per name */
    size_t origin_cap;
    struct xu_strtab files;
    uint64_t total[2];
    bool off_cpu;               /* every sample is off-CPU (--state=offcpu) */
    bool cpu_weight;            /* counts are microseconds of CPU time */
};

/* A frame to draw, collected during the walk (post-order). */
struct fg_frame {
    uint64_t start, count, before;
    uint32_t name;
    uint32_t depth;
    uint32_t merged;            /* > 0: a run of that many narrow frames */
    bool off;                   /* off-CPU: under an off-CPU state root */
};

/* A frame still open during the walk. */
struct fg_open {
    uint32_t name;
    uint64_t start, total[2];
    /* The current run of narrow children, not yet drawn. */
    uint64_t run_start, run_count, run_before;
    uint32_t run_n;
    bool off;                   /* this frame or one of its callers is an off-CPU root */
};

struct fg_draw {
    FILE *f;
    struct xu_fg *fg;
    const struct xu_output_options *opts;
    double scale;               /* pixels per sample */
    double min_width;
    double before_scale;        /* side 1 -> side 0 normalisation */
    double max_delta;           /* largest |after - before| of a drawn frame */
    uint64_t total[2];
    unsigned int max_depth;     /* deepest drawn frame */
    unsigned int height;
    bool diff;
    uint32_t merged_name;
    struct fg_frame *frames;
    size_t nr_frames, cap_frames;
    uint32_t *order;            /* the paths sorted by name */
};

static long fg_name(struct xu_fg *fg, const char *name, bool has_addr, uint64_t addr);

struct xu_fg *xu_fg_new(void)
{
    struct xu_fg *fg = calloc(1, sizeof(*fg));

    if (!fg)
        return NULL;
    if (fg_name(fg, "all", false, 0) != 0) {
        xu_fg_free(fg);
        errno = ENOMEM;
        return NULL;
    }
    return fg;
}

void xu_fg_free(struct xu_fg *fg)
{
    if (!fg)
        return;
    xu_paths_dispose(&fg->paths);
    xu_strtab_dispose(&fg->names);
    xu_strtab_dispose(&fg->files);
    free(fg->origin);
    free(fg->src);
    free(fg);
}

static bool is_hex_name(const char *s)
{
    if (s[0] != '0' || s[1] != 'x' || !s[2])
        return false;
    for (s += 2; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return false;
    return true;
}

/* Name id in the graph; origin recorded the first time a name is seen. */
static long fg_name(struct xu_fg *fg, const char *name, bool has_addr, uint64_t addr)
{
    long id = xu_strtab_intern(&fg->names, name, strlen(name));

    if (id < 0)
        return id;
    if ((size_t)id >= fg->origin_cap) {
        size_t ncap = fg->origin_cap ? fg->origin_cap * 2 : 1024;
        uint8_t *o = realloc(fg->origin, ncap);
        struct fg_src *src;

        if (!o)
            return -ENOMEM;
        memset(o + fg->origin_cap, 0xff, ncap - fg->origin_cap);
        fg->origin = o;
        src = realloc(fg->src, ncap * sizeof(*src));
        if (!src)
            return -ENOMEM;
        memset(src + fg->origin_cap, 0, (ncap - fg->origin_cap) * sizeof(*src));
        fg->src = src;
        fg->origin_cap = ncap;
    }
    if (fg->origin[id] == 0xff) {
        if (xu_output_off_cpu_frame(name))
            fg->origin[id] = ORIGIN_OFF_CPU;
        else if (name[0] == '[' || strncmp(name, "vcpu", 4) == 0 || id == 0)
            fg->origin[id] = ORIGIN_SPECIAL;
        else if (is_hex_name(name))
            fg->origin[id] = ORIGIN_UNRESOLVED;
        /* The upper half of a 64-bit address space (x86-64's high canonical
         * half, AArch64's TTBR1 range) is the guest kernel's. */
        else if (has_addr && (addr >> 63) != 0)
            fg->origin[id] = ORIGIN_KERNEL;
        else
            fg->origin[id] = ORIGIN_APP;
    }
    return id;
}

/* A name's source position, from a function of a writer: the first file,
 * and the line while every function of that name agrees on it. */
static int fg_note_src(struct xu_fg *fg, uint32_t id, const struct xu_func_src *fs)
{
    struct fg_src *src = &fg->src[id];
    long file = 0;

    if (fs->file && (file = xu_strtab_intern(&fg->files, fs->file, strlen(fs->file))) < 0)
        return -ENOMEM;
    src->inlined = src->inlined || fs->inlined;
    if (!src->seen) {
        src->seen = true;
        src->file = fs->file ? (uint32_t)file + 1 : 0;
        src->line = fs->line;
        src->line_varies = fs->line_varies;
    } else if (fs->line_varies || src->line != fs->line) {
        src->line_varies = true;
        src->line = 0;
    }
    return 0;
}

static int add_path(struct xu_fg *fg, const uint32_t *names, uint32_t len, uint64_t count,
                    int side)
{
    int rc = xu_paths_add(&fg->paths, names, len, count, side);

    if (rc == 0)
        fg->total[side] += count;
    return rc;
}

/* Room for every path of ctx at once, so that the paths grow once a side. */
static int reserve_paths(struct xu_fg *fg, const struct xu_output_ctx *ctx)
{
    size_t nr = xu_profile_nr_stacks(ctx->profile), k, paths = 0, words = 0;
    bool per_vcpu = ctx->opts && ctx->opts->per_vcpu;

    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, k);

        if (xu_output_weight(ctx, s) == 0)
            continue;
        paths++;
        words += 1 + per_vcpu + (xu_output_state_frame(ctx, s) != NULL) +
                 xu_stack_incomplete(s) +
                 (s->depth > XU_MAX_DEPTH_LIMIT ? XU_MAX_DEPTH_LIMIT : s->depth);
    }
    return xu_paths_reserve(&fg->paths, paths, words);
}

int xu_fg_add(struct xu_fg *fg, const struct xu_output_ctx *ctx, int side)
{
    struct xu_funcs fn;
    uint32_t *map = NULL;       /* function id of ctx -> name id of the graph */
    uint32_t path[FG_MAX_PATH], fids[FG_MAX_PATH];
    size_t map_cap = 0, k, nr = xu_profile_nr_stacks(ctx->profile);
    bool per_vcpu = ctx->opts && ctx->opts->per_vcpu;
    long incomplete, id, nf;
    int rc = 0;

    xu_funcs_init(&fn, ctx);
    incomplete = fg_name(fg, XU_INCOMPLETE_FRAME, false, 0);
    if (incomplete < 0) {
        rc = -ENOMEM;
        goto out;
    }
    if (side == 0) {
        fg->off_cpu = ctx->opts && ctx->opts->states == XU_STATES_OFFCPU;
        fg->cpu_weight = ctx->opts && ctx->opts->weight == XU_WEIGHT_CPU;
    }
    rc = reserve_paths(fg, ctx);
    if (rc < 0)
        goto out;
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, k);
        uint64_t weight = xu_output_weight(ctx, s);
        const char *state_root = xu_output_state_frame(ctx, s);
        uint32_t len = 0, i, depth = s->depth;

        if (k + 1 < nr)
            xu_funcs_prefetch(&fn, xu_profile_stack(ctx->profile, k + 1));
        if (weight == 0)
            continue;
        path[len++] = 0;        /* "all" */
        if (per_vcpu) {
            char vname[24];

            snprintf(vname, sizeof(vname), "vcpu%" PRIu32, s->vcpu);
            id = fg_name(fg, vname, false, 0);
            if (id < 0) {
                rc = -ENOMEM;
                goto out;
            }
            path[len++] = (uint32_t)id;
        }
        if (state_root) {
            id = fg_name(fg, state_root, false, 0);
            if (id < 0) {
                rc = -ENOMEM;
                goto out;
            }
            path[len++] = (uint32_t)id;
        }
        if (xu_stack_incomplete(s))
            path[len++] = (uint32_t)incomplete;
        /* A profile bounds depth already; this bounds it for any profile. */
        if (depth > XU_MAX_DEPTH_LIMIT)
            depth = XU_MAX_DEPTH_LIMIT;
        nf = xu_funcs_stack(&fn, s, depth - 1, fids, FG_MAX_PATH - len);
        if (nf < 0) {
            rc = -ENOMEM;
            goto out;
        }
        for (i = 0; i < (uint32_t)nf; i++) {
            uint32_t fid = fids[i];

            if ((size_t)fid >= map_cap) {
                size_t ncap = map_cap ? map_cap * 2 : 1024;
                uint32_t *m;

                while (ncap <= (size_t)fid)
                    ncap *= 2;
                m = realloc(map, ncap * sizeof(*m));
                if (!m) {
                    rc = -ENOMEM;
                    goto out;
                }
                memset(m + map_cap, 0xff, (ncap - map_cap) * sizeof(*m));
                map = m;
                map_cap = ncap;
            }
            if (map[fid] == UINT32_MAX) {
                id = fg_name(fg, xu_funcs_name(&fn, fid), fn.has_addr[fid], fn.addr[fid]);
                if (id < 0 || fg_note_src(fg, (uint32_t)id, &fn.src[fid]) < 0) {
                    rc = -ENOMEM;
                    goto out;
                }
                map[fid] = (uint32_t)id;
            }
            path[len++] = map[fid];
        }
        rc = add_path(fg, path, len, weight, side);
        if (rc < 0)
            goto out;
    }
out:
    free(map);
    xu_funcs_dispose(&fn);
    return rc;
}

/* ------------------------------------------------------------ drawing -- */

extern const char xu_fg_script[];
extern const char xu_fg_style[];

struct name_rank {
    const char *name;
    uint32_t id;
};

static int cmp_rank(const void *a, const void *b)
{
    return strcmp(((const struct name_rank *)a)->name, ((const struct name_rank *)b)->name);
}

/* Sort the paths by name, root first, into d->order.  Names become ranks
 * for the sort and go back to name ids afterwards. */
static int sort_paths(struct fg_draw *d)
{
    struct xu_fg *fg = d->fg;
    size_t n = fg->names.n, i;
    struct name_rank *r = malloc((n ? n : 1) * sizeof(*r));
    uint32_t *rank = malloc((n ? n : 1) * sizeof(*rank));
    int rc = -ENOMEM;

    if (!r || !rank)
        goto out;
    for (i = 0; i < n; i++)
        r[i] = (struct name_rank){ xu_strtab_get(&fg->names, (uint32_t)i), (uint32_t)i };
    qsort(r, n, sizeof(*r), cmp_rank);
    for (i = 0; i < n; i++)
        rank[r[i].id] = (uint32_t)i;
    rc = xu_paths_remap(&fg->paths, rank, n);
    if (rc < 0)
        goto out;
    rc = xu_paths_sort(&fg->paths, &d->order, NULL);
    for (i = 0; i < n; i++)
        rank[i] = r[i].id;
    /* back to ids even when sorting failed: the graph stays as it was (the
     * values are as wide as ranks already, so this allocates nothing) */
    if (xu_paths_remap(&fg->paths, rank, n) < 0 && rc == 0)
        rc = -ENOMEM;
out:
    free(r);
    free(rank);
    return rc;
}

static int push_frame(struct fg_draw *d, uint32_t name, uint64_t start, uint64_t count,
                      uint64_t before, uint32_t depth, uint32_t merged, bool off)
{
    if (d->nr_frames == d->cap_frames) {
        size_t ncap = d->cap_frames ? d->cap_frames * 2 : 1024;
        struct fg_frame *nf = realloc(d->frames, ncap * sizeof(*nf));

        if (!nf)
            return -ENOMEM;
        d->frames = nf;
        d->cap_frames = ncap;
    }
    d->frames[d->nr_frames++] = (struct fg_frame){ start, count, before, name, depth, merged,
                                                   off };
    if (depth > d->max_depth)
        d->max_depth = depth;
    return 0;
}

static bool is_wide(const struct fg_draw *d, uint64_t count)
{
    return count && (double)count * d->scale >= d->min_width;
}

/* Draw o's pending run of narrow children (o is known to be wide). */
static int flush_run(struct fg_draw *d, struct fg_open *o, uint32_t depth)
{
    int rc = 0;

    if (o->run_n && o->run_count)
        rc = push_frame(d, d->merged_name, o->run_start, o->run_count, o->run_before,
                        depth + 1, o->run_n, o->off);
    o->run_n = 0;
    o->run_count = o->run_before = 0;
    return rc;
}

/* Close the open frame at depth (its parent is at depth - 1). */
static int close_frame(struct fg_draw *d, struct fg_open *open, uint32_t depth)
{
    struct fg_open *o = &open[depth], *parent = depth ? &open[depth - 1] : NULL;
    int rc;

    if (!is_wide(d, o->total[0])) {
        /* Narrow (or only in the baseline): part of the parent's run, and
         * whatever is below it is narrower still. */
        o->run_n = 0;
        if (parent && o->total[0]) {
            if (parent->run_n == 0)
                parent->run_start = o->start;
            parent->run_n++;
            parent->run_count += o->total[0];
            parent->run_before += o->total[1];
        }
        return 0;
    }
    rc = flush_run(d, o, depth);
    if (rc == 0 && parent)
        rc = flush_run(d, parent, depth - 1);
    if (rc == 0)
        rc = push_frame(d, o->name, o->start, o->total[0], o->total[1], depth, 0, o->off);
    return rc;
}

/* The walk over the sorted paths: every drawn frame into d->frames. */
static int walk(struct fg_draw *d)
{
    struct fg_open *open = calloc(FG_MAX_PATH, sizeof(*open));
    const struct xu_paths *ps = &d->fg->paths;
    uint32_t depth = 0;         /* frames open: those of the previous path */
    uint64_t cursor = 0;        /* side-0 samples before the current path */
    size_t k;
    int rc = 0;

    if (!open)
        return -ENOMEM;
    for (k = 0; k < xu_paths_count(ps); k++) {
        size_t p = d->order[k];
        uint32_t len = xu_paths_len(ps, p), common = 0, i;
        uint64_t count = ps->counts[p];
        int side = ps->sides[p];

        if (k + XU_PATHS_AHEAD < xu_paths_count(ps)) {
            xu_paths_prefetch_ends(ps, d->order[k + XU_PATHS_AHEAD]);
            __builtin_prefetch(&ps->sides[d->order[k + XU_PATHS_AHEAD]]);
        }
        if (k + XU_PATHS_AHEAD / 2 < xu_paths_count(ps))
            xu_paths_prefetch_vals(ps, d->order[k + XU_PATHS_AHEAD / 2]);
        while (common < depth && common < len && open[common].name == xu_paths_val(ps, p, common))
            common++;
        while (depth > common) {
            rc = close_frame(d, open, --depth);
            if (rc < 0)
                goto out;
        }
        for (; depth < len; depth++) {
            uint32_t name = xu_paths_val(ps, p, depth);

            open[depth] = (struct fg_open){
                .name = name, .start = cursor,
                .off = d->fg->off_cpu || (depth && open[depth - 1].off) ||
                       d->fg->origin[name] == ORIGIN_OFF_CPU,
            };
        }
        for (i = 0; i < len; i++)
            open[i].total[side] += count;
        if (side == 0)
            cursor += count;
    }
    while (depth > 0 && rc == 0)
        rc = close_frame(d, open, --depth);
out:
    free(open);
    return rc;
}

static uint32_t name_hash(const char *s)
{
    return (uint32_t)xu_hash_str(s, strlen(s));
}

static void frame_colour(const struct fg_draw *d, const struct fg_frame *fr, char buf[48])
{
    uint32_t name = fr->name;
    const char *s = xu_strtab_get(&d->fg->names, name);
    uint32_t h = name_hash(s);
    double a = (h & 0xff) / 255.0, b = ((h >> 8) & 0xff) / 255.0, c = ((h >> 16) & 0xff) / 255.0;
    int r, g, bl;

    if (d->diff) {
        double delta = (double)fr->count - (double)fr->before * d->before_scale;
        double v = d->max_delta > 0 ? fabs(delta) / d->max_delta : 0;
        int fade = (int)lround(210 * v);

        if (delta > 0)
            snprintf(buf, 48, "rgb(255,%d,%d)", 255 - fade, 255 - fade);
        else
            snprintf(buf, 48, "rgb(%d,%d,255)", 255 - fade, 255 - fade);
        return;
    }
    if (fr->off && d->fg->origin[name] != ORIGIN_SPECIAL) {
        /* Off-CPU: cold, blue to aqua, the hue still picked by the name,
         * so no off-CPU frame passes for an on-CPU one at a glance. */
        r = (int)(90 * a); g = 110 + (int)(110 * b); bl = 190 + (int)(65 * c);
        snprintf(buf, 48, "rgb(%d,%d,%d)", r, g, bl);
        return;
    }
    if (d->opts && d->opts->palette == XU_PALETTE_ORIGIN) {
        switch (d->fg->origin[name]) {
        case ORIGIN_KERNEL:
            r = 50 + (int)(60 * a); g = 160 + (int)(60 * b); bl = 200 + (int)(55 * c);
            break;
        case ORIGIN_UNRESOLVED:
            r = g = bl = 170 + (int)(30 * a);
            break;
        case ORIGIN_SPECIAL:
            r = g = bl = 220;
            break;
        default:
            r = 205 + (int)(50 * a); g = 90 + (int)(140 * b); bl = (int)(55 * c);
            break;
        }
    } else if (d->fg->origin[name] == ORIGIN_SPECIAL) {
        r = g = bl = 220;
    } else {
        /* Warm: red to yellow, the hue picked by the name alone. */
        r = 205 + (int)(50 * a); g = (int)(230 * b); bl = (int)(55 * c);
    }
    snprintf(buf, 48, "rgb(%d,%d,%d)", r, g, bl);
}

/* Label text that fits width pixels: whole, cut with "..", or nothing. */
static void put_label(FILE *f, const char *name, double width)
{
    size_t fit = (size_t)(width / (FG_FONT * FG_FONT_W)), len = 0, n;
    const unsigned char *p;
    char *cut;

    if (width < 2 * FG_FONT * FG_FONT_W)
        return;
    for (p = (const unsigned char *)name; *p; len++) {
        n = xu_utf8_seq_len(p);
        p += n ? n : 1;
    }
    if (len <= fit) {
        xu_fput_xml(f, name);
        return;
    }
    /* fit >= 2 here: keep fit - 2 code points, then "..". */
    for (p = (const unsigned char *)name, len = 0; *p && len < fit - 2; len++) {
        n = xu_utf8_seq_len(p);
        p += n ? n : 1;
    }
    cut = strndup(name, (size_t)((const char *)p - name));
    if (cut)
        xu_fput_xml(f, cut);
    free(cut);
    fputs("..", f);
}

static double frame_y(const struct fg_draw *d, unsigned int depth)
{
    if (d->opts && d->opts->inverted)
        return FG_YPAD_TOP + depth * FG_FRAME_H;
    return d->height - FG_YPAD_BOTTOM - (depth + 1) * FG_FRAME_H;
}

/* An inlined function's frame has a dashed outline: it is no call. */
#define INLINED_OUTLINE " stroke=\"rgb(60,60,60)\" stroke-width=\"0.8\" stroke-dasharray=\"3,2\""

/* "; inlined; file.c:17" in a tooltip: what the DWARF said of the name. */
static void put_src(FILE *f, const struct xu_fg *fg, uint32_t name)
{
    const struct fg_src *src = &fg->src[name];

    if (src->inlined)
        fputs("; inlined", f);
    if (!src->file)
        return;
    fputs("; ", f);
    xu_fput_xml(f, xu_strtab_get(&fg->files, src->file - 1));
    if (src->line)
        fprintf(f, ":%" PRIu32, src->line);
}

static void draw_frame(struct fg_draw *d, const struct fg_frame *fr)
{
    FILE *f = d->f;
    const char *s = xu_strtab_get(&d->fg->names, fr->name);
    double x = FG_XPAD + (double)fr->start * d->scale, w = (double)fr->count * d->scale;
    double y = frame_y(d, fr->depth);
    char colour[48];

    frame_colour(d, fr, colour);
    fprintf(f, "<g class=\"f\" data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\" data-d=\"%u\">"
            "<title>", fr->start, fr->count, fr->depth);
    xu_fput_xml(f, s);
    if (d->fg->cpu_weight)
        fprintf(f, " (%" PRIu64 " \xc2\xb5s of CPU time, %.2f%%", fr->count,
                100.0 * (double)fr->count / (double)d->total[0]);
    else
        fprintf(f, " (%" PRIu64 " sample%s, %.2f%%", fr->count, fr->count == 1 ? "" : "s",
                100.0 * (double)fr->count / (double)d->total[0]);
    if (d->diff) {
        double pa = 100.0 * (double)fr->count / (double)d->total[0];
        double pb = d->total[1] ? 100.0 * (double)fr->before / (double)d->total[1] : 0;

        fprintf(f, "; before %" PRIu64 ", %.2f%%; %+.2f%%", fr->before, pb, pa - pb);
    }
    if (fr->merged)
        fprintf(f, "; %" PRIu32 " frames narrower than %.2f px", fr->merged, d->min_width);
    if (!fr->merged)
        put_src(f, d->fg, fr->name);
    fprintf(f, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" "
            "fill=\"%s\" rx=\"2\" ry=\"2\"%s/><text x=\"%.2f\" y=\"%.1f\">",
            x, y, w, FG_FRAME_H - 1, colour,
            !fr->merged && d->fg->src[fr->name].inlined ? INLINED_OUTLINE : "",
            x + 3, y + FG_FRAME_H - 5.5);
    put_label(f, s, w);
    fputs("</text></g>\n", f);
}

void xu_fg_subtitle(char *buf, size_t size, const struct xu_output_ctx *ctx)
{
    const struct xu_output_meta *m = ctx->meta;
    struct xu_profile_totals t;
    size_t len = 0;

    xu_profile_get_totals(ctx->profile, &t);
    buf[0] = '\0';
    if (m && m->backend) {
        len += (size_t)snprintf(buf, size, "domain %" PRIu32 "%s%s%s, ", m->domid,
                                m->domain_name ? " (" : "",
                                m->domain_name ? m->domain_name : "",
                                m->domain_name ? ")" : "");
    }
    if (len < size)
        len += (size_t)snprintf(buf + len, size - len, "%" PRIu64 " samples", t.samples);
    if (m && m->duration_s > 0 && len < size)
        len += (size_t)snprintf(buf + len, size - len, ", %.2f s at %.0f Hz", m->duration_s,
                                m->frequency_hz);
    /* what the summary line and --stats call complete (xu_walk_complete) */
    if (t.samples && len < size)
        len += (size_t)snprintf(buf + len, size - len, ", %.1f%% complete stacks",
                                100.0 * (double)xu_profile_complete_samples(&t) /
                                (double)t.samples);
    /* the view, when it is not the plain one: what the widths measure */
    if (ctx->opts && ctx->opts->states != XU_STATES_ALL && len < size)
        len += (size_t)snprintf(buf + len, size - len, "; %s",
                                ctx->opts->states == XU_STATES_ONCPU ? "on-CPU samples only" :
                                ctx->opts->states == XU_STATES_OFFCPU ?
                                "off-CPU samples only (runnable, blocked)" :
                                "split by vCPU state");
    if (ctx->opts && ctx->opts->weight == XU_WEIGHT_CPU && len < size) {
        uint64_t us = 0;
        size_t k, n = xu_profile_nr_stacks(ctx->profile);

        for (k = 0; k < n; k++)
            us += xu_output_weight(ctx, xu_profile_stack(ctx->profile, k));
        if (us < 1000000)
            snprintf(buf + len, size - len, "; width: CPU time (%.3f ms)", (double)us / 1e3);
        else
            snprintf(buf + len, size - len, "; width: CPU time (%.3f s)", (double)us / 1e6);
    }
}

int xu_fg_write_svg(FILE *f, const struct xu_fg *cfg, const struct xu_output_options *opts,
                    const struct xu_fg_labels *labels, struct xu_log *log)
{
    struct xu_fg *fg = (struct xu_fg *)cfg;    /* sorting renumbers names, and back */
    struct fg_draw d = { .f = f, .fg = fg, .opts = opts };
    unsigned int width = opts && opts->width ? opts->width : FG_DEFAULT_WIDTH;
    const char *title = labels && labels->title ? labels->title : NULL;
    size_t i;
    int rc;

    if (width < 200)
        width = 200;
    if (width > 100000)
        width = 100000;
    d.total[0] = fg->total[0];
    d.total[1] = fg->total[1];
    d.diff = d.total[1] > 0;
    d.before_scale = d.diff ? (double)d.total[0] / (double)d.total[1] : 0;
    d.min_width = opts && opts->min_width > 0 ? opts->min_width : FG_MIN_WIDTH_PX;
    d.scale = d.total[0] ? (width - 2.0 * FG_XPAD) / (double)d.total[0] : 0;
    if (!title)
        title = d.diff ? "Differential Flame Graph" : "Flame Graph";
    {
        long merged = fg_name(fg, "[merged]", false, 0);

        if (merged < 0) {
            rc = -ENOMEM;
            goto out;
        }
        d.merged_name = (uint32_t)merged;
    }
    rc = sort_paths(&d);
    if (rc == 0 && d.total[0])
        rc = walk(&d);
    if (rc < 0)
        goto out;
    for (i = 0; d.diff && i < d.nr_frames; i++) {
        double delta = fabs((double)d.frames[i].count -
                            (double)d.frames[i].before * d.before_scale);

        if (delta > d.max_delta)
            d.max_delta = delta;
    }
    d.height = FG_YPAD_TOP + FG_YPAD_BOTTOM + (d.max_depth + 1) * FG_FRAME_H;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
            "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
            "onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\" data-unit=\"%s\">\n",
            width, d.height, width, d.height, fg->cpu_weight ? "\xc2\xb5s of CPU time" : "samples");
    fprintf(f, "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
            "<stop stop-color=\"#eeeeee\" offset=\"5%%\"/>"
            "<stop stop-color=\"%s\" offset=\"95%%\"/></linearGradient></defs>\n",
            d.diff ? "#e0e0ff" : "#eeeeb0");
    fprintf(f, "<style type=\"text/css\"><![CDATA[\n%s]]></style>\n", xu_fg_style);
    fprintf(f, "<script type=\"text/ecmascript\"><![CDATA[\n"
            "var fg_xpad = %d, fg_width = %.2f, fg_font = %d, fg_fontw = %.2f;\n%s]]></script>\n",
            FG_XPAD, width - 2.0 * FG_XPAD, FG_FONT, FG_FONT_W, xu_fg_script);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#bg)\"/>\n",
            width, d.height);
    fprintf(f, "<text id=\"title\" x=\"%u\" y=\"%d\">", width / 2, FG_FONT * 2);
    xu_fput_xml(f, title);
    fputs("</text>\n", f);
    fprintf(f, "<text id=\"subtitle\" x=\"%u\" y=\"%d\">", width / 2, FG_FONT * 2 + 20);
    if (labels && labels->subtitle)
        xu_fput_xml(f, labels->subtitle);
    fputs("</text>\n", f);
    fprintf(f, "<text id=\"unzoom\" class=\"button hide\" x=\"%d\" y=\"%d\">Reset Zoom</text>\n",
            FG_XPAD, FG_FONT * 2);
    fprintf(f, "<text id=\"search\" class=\"button\" x=\"%u\" y=\"%d\">Search</text>\n",
            width - FG_XPAD - 100, FG_FONT * 2);
    fprintf(f, "<text id=\"ignorecase\" class=\"button\" x=\"%u\" y=\"%d\">ic</text>\n",
            width - FG_XPAD - 16, FG_FONT * 2);
    fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n", FG_XPAD,
            d.height - FG_FONT);
    fprintf(f, "<text id=\"matched\" x=\"%u\" y=\"%u\"> </text>\n", width - FG_XPAD,
            d.height - FG_FONT);
    fputs("<g id=\"frames\">\n", f);
    /* Parents before children, as they are drawn: the walk found them
     * children first. */
    for (i = d.nr_frames; i-- > 0;)
        draw_frame(&d, &d.frames[i]);
    fputs("</g>\n</svg>\n", f);
    if (ferror(f))
        rc = -EIO;
out:
    if (rc < 0)
        xu_error(log, "svg: %s", strerror(-rc));
    free(d.frames);
    free(d.order);
    return rc;
}
