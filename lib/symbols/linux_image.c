/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_image.c - a Linux kernel file's task layout (xu_btf.h) and
 * module layout (xu_linux_modules.h), both from one read of its .BTF and
 * the kallsyms tables in its .rodata, the file mapped read-only for as long
 * as it takes (see xu_linux_image.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/xu_btf.h"
#include "symbols/xu_elf_section.h"
#include "symbols/xu_linux_image.h"
#include "util/xu_log.h"

/* The kallsyms tables in the image's .rodata; -ENODATA when there are none. */
static int image_kallsyms(const uint8_t *image, size_t size, struct xu_kallsyms *k, char *err,
                          size_t err_size)
{
    Elf *elf = elf_memory((char *)image, size);    /* only read: the cast is safe */
    GElf_Shdr sh;
    int rc = -ENODATA;

    xu_errbuf_printf(err, err_size, "no .rodata");
    if (!elf || !xu_elf_progbits_named(elf, ".rodata", &sh))
        goto out;
    if (sh.sh_offset <= size && sh.sh_size <= size - sh.sh_offset)
        rc = xu_kallsyms_read(image + sh.sh_offset, (size_t)sh.sh_size, k, err, err_size);
out:
    if (elf)
        elf_end(elf);
    return rc;
}

/* Each layout's own verdict, from the BTF and kallsyms read once. */
static void layouts(const struct xu_btf *btf, const struct xu_kallsyms *k,
                    struct xu_linux_image *out)
{
    out->task_rc = xu_linux_task_layout(btf, k, &out->task, out->task_err,
                                        sizeof(out->task_err));
    out->modules_rc = xu_linux_module_layout(btf, k, &out->modules, out->modules_err,
                                             sizeof(out->modules_err));
}

int xu_linux_image_open(const char *path, struct xu_linux_image *out)
{
    struct xu_btf *btf = NULL;
    struct xu_kallsyms k;
    bool have_k = false;
    void *image = MAP_FAILED;
    struct stat sb;
    size_t size = 0;
    char *err = out->task_err;
    size_t err_size = sizeof(out->task_err);
    int fd = -1, rc;

    memset(out, 0, sizeof(*out));
    elf_version(EV_CURRENT);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &sb) < 0 || sb.st_size <= 0) {
        rc = fd < 0 || sb.st_size < 0 ? -errno : -ENODATA;
        xu_errbuf_printf(err, err_size, "cannot read %s", path);
        goto out;
    }
    size = (size_t)sb.st_size;
    image = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (image == MAP_FAILED) {
        rc = -errno;
        xu_errbuf_printf(err, err_size, "cannot map %s", path);
        goto out;
    }
    rc = xu_btf_from_elf(image, size, &btf, err, err_size);
    if (rc < 0)
        goto out;
    rc = image_kallsyms(image, size, &k, err, err_size);
    if (rc < 0)
        goto out;
    have_k = true;
    layouts(btf, &k, out);
out:
    if (rc < 0) {
        /* the file's own failure is both layouts' */
        out->task_rc = out->modules_rc = rc;
        memcpy(out->modules_err, out->task_err, sizeof(out->modules_err));
    }
    if (have_k)
        xu_kallsyms_dispose(&k);
    xu_btf_free(btf);
    if (image != MAP_FAILED)
        munmap(image, size);
    if (fd >= 0)
        close(fd);
    return rc;
}
