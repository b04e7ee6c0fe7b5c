/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_task_open.c - a Linux kernel file's task layout (xu_btf.h) and
 * module layout (xu_linux_modules.h): its .BTF and the kallsyms tables in
 * its .rodata, read from the file mapped read-only for as long as it takes.
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
#include "symbols/xu_linux_modules.h"
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

/* What a layout takes from the file's BTF and kallsyms. */
typedef int (*layout_fn)(const struct xu_btf *b, const struct xu_kallsyms *k, void *out,
                         char *err, size_t err_size);

static int open_layout(const char *path, layout_fn fn, void *out, char *err, size_t err_size)
{
    struct xu_btf *btf = NULL;
    struct xu_kallsyms k;
    bool have_k = false;
    void *image = MAP_FAILED;
    struct stat sb;
    size_t size = 0;
    int fd = -1, rc;

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
    rc = fn(btf, &k, out, err, err_size);
out:
    if (have_k)
        xu_kallsyms_dispose(&k);
    xu_btf_free(btf);
    if (image != MAP_FAILED)
        munmap(image, size);
    if (fd >= 0)
        close(fd);
    return rc;
}

static int task_layout(const struct xu_btf *b, const struct xu_kallsyms *k, void *out,
                       char *err, size_t err_size)
{
    return xu_linux_task_layout(b, k, out, err, err_size);
}

int xu_linux_task_layout_open(const char *path, struct xu_linux_task_layout *out, char *err,
                              size_t err_size)
{
    memset(out, 0, sizeof(*out));
    return open_layout(path, task_layout, out, err, err_size);
}

static int module_layout(const struct xu_btf *b, const struct xu_kallsyms *k, void *out,
                         char *err, size_t err_size)
{
    return xu_linux_module_layout(b, k, out, err, err_size);
}

int xu_linux_module_layout_open(const char *path, struct xu_linux_module_layout *out,
                                char *err, size_t err_size)
{
    memset(out, 0, sizeof(*out));
    return open_layout(path, module_layout, out, err, err_size);
}
