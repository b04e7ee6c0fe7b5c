/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands.h - the subcommands: the offline `xen-uniprof convert` and
 * `xen-uniprof diff`, and the live `xen-uniprof top`.
 *
 * Each takes its own argv (argv[0] is the subcommand's name), prints its
 * own diagnostics to stderr and returns the process exit status of
 * exit_codes.h: for convert and diff 0 written, 1 failure, 2 usage error
 * (the message names the bad option), 4 the ELF given cannot be used for
 * symbols; top's are a recording's (cmd_top.c).
 */
#ifndef XU_COMMANDS_H
#define XU_COMMANDS_H

#include <stdbool.h>

#include "input/xu_input.h"
#include "util/xu_log.h"
#include "output/xu_output.h"
#include "symbols/xu_symbols.h"

int xu_cmd_convert(int argc, char **argv);
int xu_cmd_diff(int argc, char **argv);
/* `xen-uniprof top`: a live command, with the record run's exit statuses. */
int xu_cmd_top(int argc, char **argv);
/* `xen-uniprof stack`: a live domain's vCPUs now, or a core file's
 * (cmd_stack.c); the record run's exit statuses and 8 for a bad core. */
int xu_cmd_stack(int argc, char **argv);

/* Shared by the two: a profile read from a file, ready for the writers. */
struct xu_loaded {
    struct xu_input *input;
    struct xu_symbolizer *syms;     /* NULL when frames are names or no ELF */
    struct xu_output_meta meta;
    struct xu_output_ctx ctx;       /* profile, syms/names, meta: opts and log to fill */
};

/*
 * Read path (any input format) and make it writable: symbols from symtab
 * (may be NULL) when its frames are addresses, with the inlined functions
 * and source lines of elf_path's DWARF, as oo asks (--no-demangle,
 * --no-inline, --lines: xu_output_symbolizer_new()).  0 or an exit status.
 */
int xu_cmd_load(const char *path, enum xu_input_format fmt, const struct xu_symtab *symtab,
                const char *elf_path, const struct xu_output_options *oo,
                struct xu_log *log, struct xu_loaded *out);
void xu_cmd_loaded_dispose(struct xu_loaded *l);

/*
 * Open --elf: 0, *out and *symbols_path (malloc'd: the file the symbols come
 * from, path itself or, for a stripped path, its debug file found as the
 * record path finds one), or XU_EXIT_SYMBOLS with the reason logged.
 */
int xu_cmd_open_elf(const char *path, struct xu_log *log, struct xu_symtab **out,
                    char **symbols_path);

#endif
