/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_linux_image.h - what a Linux kernel file tells the sampler about the running kernel's
 * data: where a task keeps its pid and comm and where the per-CPU current task is
 * (xu_btf.h), and where the module list and each module's name, text and symbols are
 * (xu_linux_modules.h).  Both come from the file's .BTF and the kallsyms tables in its
 * .rodata, which are read once for both (a vmlinux, or the memfd a bzImage was
 * decompressed into).
 */
#ifndef XU_LINUX_IMAGE_H
#define XU_LINUX_IMAGE_H

#include "symbols/xu_btf.h"
#include "symbols/xu_linux_modules.h"

#define XU_LINUX_IMAGE_ERR 160

struct xu_linux_image {
    /* 0: the layout beside it; else why not, with the line in its err */
    int task_rc, modules_rc;
    struct xu_linux_task_layout task;
    struct xu_linux_module_layout modules;     /* the list head at its link-time address */
    char task_err[XU_LINUX_IMAGE_ERR], modules_err[XU_LINUX_IMAGE_ERR];
};

/*
 * Read the file's BTF and kallsyms and both layouts from them.  0 when the file was
 * read (each layout's rc then says whether it was found: -ENOENT names what the kernel
 * lacks), or what made the file unreadable, which both rcs and errs then say too:
 * -ENODATA (no .BTF, no kallsyms), -ENOEXEC, -EBADMSG, -ENOMEM, -errno of the file.
 */
int xu_linux_image_open(const char *path, struct xu_linux_image *out);

#endif
