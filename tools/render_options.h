/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * render_options.h - the options every command that writes a profile
 * shares: how the profile is drawn (flame graph size, title, colours),
 * whether vCPUs are kept apart, the view on vCPU states (which samples,
 * weighted how), whether function names are demangled, and whether frames
 * show inlined functions and source lines.  One table and
 * one parser, so that `xen-uniprof DOMAIN`, `convert` and `diff` spell and
 * check them alike.
 *
 * Use: put XU_RENDER_LONG_OPTIONS in the command's struct option table,
 * and hand every getopt_long() result to xu_render_option() first.
 */
#ifndef XU_RENDER_OPTIONS_H
#define XU_RENDER_OPTIONS_H

#include <getopt.h>
#include <stddef.h>

#include "output/xu_output.h"

/* getopt values, above any short option and any command's own long ones */
enum {
    XU_ROPT_PER_VCPU = 0x1000,
    XU_ROPT_TITLE,
    XU_ROPT_SUBTITLE,
    XU_ROPT_WIDTH,
    XU_ROPT_MIN_WIDTH,
    XU_ROPT_INVERTED,
    XU_ROPT_PALETTE,
    XU_ROPT_WEIGHT,
    XU_ROPT_STATE,
    XU_ROPT_NO_DEMANGLE,
    XU_ROPT_NO_INLINE,
    XU_ROPT_LINES,
};

#define XU_RENDER_LONG_OPTIONS                                          \
    { "per-vcpu",  no_argument,       NULL, XU_ROPT_PER_VCPU },         \
    { "title",     required_argument, NULL, XU_ROPT_TITLE },            \
    { "subtitle",  required_argument, NULL, XU_ROPT_SUBTITLE },         \
    { "width",     required_argument, NULL, XU_ROPT_WIDTH },            \
    { "min-width", required_argument, NULL, XU_ROPT_MIN_WIDTH },        \
    { "inverted",  no_argument,       NULL, XU_ROPT_INVERTED },         \
    { "palette",   required_argument, NULL, XU_ROPT_PALETTE },         \
    { "weight",    required_argument, NULL, XU_ROPT_WEIGHT },          \
    { "state",     required_argument, NULL, XU_ROPT_STATE },           \
    { "no-demangle", no_argument,     NULL, XU_ROPT_NO_DEMANGLE },      \
    { "no-inline", no_argument,       NULL, XU_ROPT_NO_INLINE },        \
    { "lines",     no_argument,       NULL, XU_ROPT_LINES }

/* Help text for these options, formatted like the commands' own. */
#define XU_RENDER_USAGE \
    "      --per-vcpu         keep vCPUs apart (folded lines start with vcpuN;)\n" \
    "      --title=TEXT       svg: the title (default: from the domain)\n" \
    "      --subtitle=TEXT    svg: the line under it (default: samples, rate)\n" \
    "      --width=PIXELS     svg: image width, 200-100000 (default 1200)\n" \
    "      --min-width=PIXELS svg: frames narrower than this are merged into\n" \
    "                         one [merged] frame per parent (default 0.1)\n" \
    "      --inverted         svg: icicle graph, roots at the top\n" \
    "      --palette=NAME     svg: hash (colour by name, stable across runs;\n" \
    "                         the default) or origin (guest kernel, application)\n" \
    "      --weight=WHAT      samples (each counts 1; the default) or cpu (each\n" \
    "                         weighs the CPU time its vCPU used since the\n" \
    "                         previous tick)\n" \
    "      --state=WHICH      all (the default), oncpu (running), offcpu\n" \
    "                         (runnable, blocked), or split (under [running],\n" \
    "                         [runnable], [blocked] root frames)\n" \
    "      --no-demangle      keep function names as the ELF spells them (C++,\n" \
    "                         Rust and OCaml names are shown readable by default)\n" \
    "      --no-inline        no frames for inlined functions (by default, with\n" \
    "                         the ELF's DWARF, each shows as a frame, marked _[i])\n" \
    "      --lines            frames per source line: folded and svg name them\n" \
    "                         name:LINE, the report shows file:line (svg\n" \
    "                         tooltips, pprof and speedscope have lines anyway)\n"

/* The long name of a render option's getopt value ("--width"), or NULL. */
const char *xu_render_option_name(int c);

/*
 * If c is a render option, apply arg to *oo and return 1, or return -1
 * with a message naming the option in err.  Return 0 for any other c.
 */
int xu_render_option(int c, const char *arg, struct xu_output_options *oo,
                     char *err, size_t errlen);

#endif
