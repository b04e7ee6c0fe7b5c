/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c - xen-uniprof's entry point: pick the command, parse, run.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "options.h"
#include "record.h"
#include "arch/xu_arch.h"
#include "output/xu_output.h"
#include "symbols/xu_decompress.h"
#include "target/xu_target.h"

/* What this build profiles: the guests of a Xen of the dom0's architecture,
 * each read by the rules of the width Xen reports for it. */
static const char *native_guests(void)
{
    const struct xu_arch_ops *a = xu_arch_native();

    if (a == &xu_arch_x86_64)
        return "x86 PV, PVH and HVM guests, 64-bit and 32-bit (protected mode: paging off, "
               "2-level or PAE; real mode refused)";
    if (a && strcmp(a->name, "arm64") == 0)
        return "arm64 guests, AArch64 and AArch32 (ARM and Thumb-2; short-descriptor and "
               "LPAE tables), each by the width its kernel runs at";
    return "none on this host's architecture";
}

/* The bzImage payloads this build decompresses (xu_decompress.h). */
static void print_kernel_formats(void)
{
    static const enum xu_compression all[] = {
        XU_COMP_GZIP, XU_COMP_XZ, XU_COMP_LZMA, XU_COMP_ZSTD, XU_COMP_LZ4, XU_COMP_BZIP2,
    };
    size_t i;

    printf("linux kernels: bzImage payloads");
    for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (xu_decompress_supported(all[i]))
            printf(" %s", xu_compression_name(all[i]));
    printf("; symbols from kallsyms when there is no symbol table\n");
}

static void print_version(void)
{
    size_t i;

    printf("xen-uniprof %s\n", PACKAGE_VERSION);
    printf("built against Xen %s; backends: %s (default %s)\n", XU_BUILT_XEN_VERSION,
           xu_target_backend_names(), XU_DEFAULT_BACKEND[0] ? XU_DEFAULT_BACKEND : "none");
    printf("output formats:");
    for (i = 0; xu_output_formats[i]; i++)
        printf(" %s", xu_output_formats[i]->name);
    printf("\nguests: %s\n", native_guests());
    /* what the symbol side can do in this build (configure's optional libraries) */
    printf("symbols: ELF symbols%s%s%s%s\n",
#ifdef HAVE_LIBDW
           ", DWARF CFI (libdw)",
#else
           "",
#endif
#ifdef HAVE_LIBIBERTY
           ", C++ and Rust demangling (libiberty)",
#else
           "",
#endif
#ifdef HAVE_ZLIB
           ", gzip kernels",
#else
           "",
#endif
#ifdef HAVE_LIBDEBUGINFOD
           ", debuginfod"
#else
           ""
#endif
           );
    print_kernel_formats();
}

static void print_help(void)
{
    size_t i;

    fputs(xu_options_usage(), stdout);
    printf("\nGuests: %s.\n", native_guests());
    printf("Backends built: %s.\n", xu_target_backend_names());
    printf("\nOutput formats (-f, or chosen by the output file's extension):\n");
    for (i = 0; xu_output_formats[i]; i++)
        printf("  %-11s %-22s %s\n", xu_output_formats[i]->name,
               xu_output_formats[i]->extensions, xu_output_formats[i]->description);
    printf("\nExit status: 0 written, 1 failure, 2 usage error, 3 no such domain,\n"
           "4 no usable symbols, 5 not privileged, 6 domain ended (samples written),\n"
           "7 Xen version mismatch, 8 (stack --core) the core file cannot be read.\n"
           "See xen-uniprof(1).\n");
}

int main(int argc, char **argv)
{
    struct xu_options o;
    char err[256];

    /* Subcommands first: a domain named "convert" (or "diff", "top") can
     * still be profiled as `xen-uniprof -- convert` or by its id. */
    if (argc > 1 && strcmp(argv[1], "convert") == 0)
        return xu_cmd_convert(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "diff") == 0)
        return xu_cmd_diff(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "top") == 0)
        return xu_cmd_top(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "stack") == 0)
        return xu_cmd_stack(argc - 1, argv + 1);

    xu_options_init(&o);
    switch (xu_options_parse(&o, argc, argv, err, sizeof(err))) {
    case XU_PARSE_OK:
        break;
    case XU_PARSE_HELP:
        print_help();
        return XU_EXIT_OK;
    case XU_PARSE_VERSION:
        print_version();
        return XU_EXIT_OK;
    case XU_PARSE_ERROR:
        fprintf(stderr, "xen-uniprof: %s\n", err);
        fprintf(stderr, "Try 'xen-uniprof --help' for more information.\n");
        return XU_EXIT_USAGE;
    }
    return xu_record(&o);
}
