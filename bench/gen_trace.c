/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gen_trace.c - make the offline benchmark's input: a raw trace of N samples
 * of D-deep stacks (the uniprof text format xen-uniprof writes) and an ELF
 * whose symbols cover every address in it.
 *
 * Two shapes (--shape, tree unless told), both seeded so that every run
 * writes the same bytes:
 *
 *   tree         stacks drawn from a fixed pseudo-random call tree of F
 *                functions (2,000 unless told), each sample a root-to-leaf
 *                path, which gives the mix of shared prefixes real profiles
 *                have;
 *   prefix-free  every frame of every stack drawn independently from the F
 *                functions: stacks share no prefix beyond chance, so
 *                anything keyed by prefix (a trie, a frame tree) gets a
 *                node for nearly every frame.
 *
 * The function count only changes which names a path goes through (more
 * functions: more distinct names and addresses to symbolise and sort);
 * a tree of 2,000 writes the bytes the generator always wrote.
 *
 * With distinct = 0 (the default) every sample takes a fresh path, so
 * nearly every sample is a distinct stack (in a tree they still share long
 * prefixes; prefix-free they share nothing).  With distinct = K, samples are drawn
 * from K fixed paths with a skewed (product of two uniforms) frequency, as
 * a real profile's few thousand distinct stacks with a hot few.
 *
 * Usage: gen_trace [--shape=tree|prefix-free] OUT.raw OUT.elf [samples] [depth]
 *                  [distinct] [functions]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkelf.h"

#define DEFAULT_FUNCS 2000
#define MAX_FUNCS 100000        /* the ELF holds their code: 25 MiB at most */
#define NAME_SIZE 24
#define FUNC_SIZE 0x100
#define TEXT 0xffffffff80100000ULL

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A root-first path: each level picks one of 4 children of the last. */
static void random_path(uint64_t *path, unsigned long depth, unsigned long nfuncs)
{
    unsigned long fn = 0, k;

    for (k = 0; k < depth; k++) {
        fn = (fn * 4 + 1 + next() % 4) % nfuncs;
        path[k] = TEXT + fn * FUNC_SIZE + 0x10 + (next() % 8) * 8;
    }
}

/*
 * Every frame in any of the functions, at any byte of it past the first
 * (a return address's pc - 1 stays inside), independently of the others.
 */
static void prefix_free_path(uint64_t *path, unsigned long depth, unsigned long nfuncs)
{
    unsigned long k;

    for (k = 0; k < depth; k++)
        path[k] = TEXT + (next() % nfuncs) * FUNC_SIZE + 1 + next() % (FUNC_SIZE - 1);
}

/* The ELF: nfuncs functions "function_NNNN" of FUNC_SIZE bytes each. */
static int write_elf(const char *path, unsigned long nfuncs)
{
    struct mkelf_sym *syms = calloc(nfuncs, sizeof(*syms));
    char *names = calloc(nfuncs, NAME_SIZE);
    unsigned long i;
    int rc = -1;

    if (!syms || !names) {
        perror("gen_trace");
        goto out;
    }
    for (i = 0; i < nfuncs; i++) {
        char *name = names + i * NAME_SIZE;

        snprintf(name, NAME_SIZE, "function_%04lu", i);
        syms[i] = (struct mkelf_sym){ name, TEXT + (uint64_t)i * FUNC_SIZE, FUNC_SIZE,
                                      STT_FUNC, STB_GLOBAL, 0 };
    }
    rc = mkelf_write(path, TEXT, (uint64_t)nfuncs * FUNC_SIZE, syms, nfuncs, 0);
    if (rc < 0)
        perror(path);
out:
    free(syms);
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned long samples, depth, distinct, nfuncs, s, k;
    void (*make_path)(uint64_t *, unsigned long, unsigned long) = random_path;
    uint64_t *paths = NULL;
    FILE *f;

    if (argc > 1 && strncmp(argv[1], "--shape=", 8) == 0) {
        if (strcmp(argv[1] + 8, "prefix-free") == 0) {
            make_path = prefix_free_path;
        } else if (strcmp(argv[1] + 8, "tree") != 0) {
            fprintf(stderr, "gen_trace: the shapes are tree and prefix-free\n");
            return 2;
        }
        argv++;
        argc--;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: gen_trace [--shape=tree|prefix-free] OUT.raw OUT.elf "
                "[samples] [depth] [distinct] [functions]\n");
        return 2;
    }
    samples = argc > 3 ? strtoul(argv[3], NULL, 10) : 1000000;
    depth = argc > 4 ? strtoul(argv[4], NULL, 10) : 20;
    distinct = argc > 5 ? strtoul(argv[5], NULL, 10) : 0;
    nfuncs = argc > 6 ? strtoul(argv[6], NULL, 10) : DEFAULT_FUNCS;
    if (depth > 256 || distinct > 10000000 || nfuncs < 1 || nfuncs > MAX_FUNCS) {
        fprintf(stderr, "gen_trace: depth at most 256, distinct at most 10,000,000, "
                "functions 1 to 100,000\n");
        return 2;
    }
    if (write_elf(argv[2], nfuncs) < 0)
        return 1;
    f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fprintf(f, "#unikernel stack tracer using sim hypercall interface\n"
               "#tracing domid 1 on 2026-11-22 00:00:00 UTC (+0000)\n\n");
    if (distinct) {
        paths = malloc(distinct * depth * sizeof(*paths));
        if (!paths) {
            perror("gen_trace");
            return 1;
        }
        for (s = 0; s < distinct; s++)
            make_path(paths + s * depth, depth, nfuncs);
    }
    for (s = 0; s < samples; s++) {
        uint64_t own[256];
        const uint64_t *path = own;

        if (distinct)
            path = paths + (next() % distinct) * (next() % distinct) / distinct * depth;
        else
            make_path(own, depth, nfuncs);
        for (k = depth; k-- > 0;)   /* innermost first */
            fprintf(f, "%#llx\n", (unsigned long long)path[k]);
        fputs("1\n\n", f);
    }
    free(paths);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
