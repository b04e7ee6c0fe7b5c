# SPDX-License-Identifier: GPL-2.0-only
# tests/guests/Makefile with ARCH=arm64: the same programs as arm64 kernels (arm64/head.S,
# boot.c, guest.lds), cross-built.  Each guest comes as an ELF (the symbols a profiler
# reads, --elf) and as the raw Image xl's kernel= boots (libxenguest's zImage64 loader
# takes no ELF on arm).
CROSS_COMPILE ?= aarch64-linux-gnu-
CC := $(CROSS_COMPILE)gcc
LD := $(CROSS_COMPILE)ld
NM := $(CROSS_COMPILE)nm
OBJCOPY := $(CROSS_COMPILE)objcopy

# No Xen headers (boot.c carries its few ABI numbers).  -mbranch-protection=none: no
# pointer authentication, so the return addresses in frame records are plain addresses.
# -mcmodel=small: adrp reaches anything within 4 GiB of the code, which the image is.
BASE_CFLAGS := -O1 -g -std=gnu11 -ffreestanding -fno-pic -fno-pie -fno-stack-protector \
	-fno-ipa-icf -fno-optimize-sibling-calls -mgeneral-regs-only -mcmodel=small \
	-mbranch-protection=none -Wall -Wextra -Wno-main -I$(SRC)
# aarch64 GCC emits unwind tables by default even without the asynchronous ones: the
# frame-pointer build must carry none, as on x86, so that only frame records can unwind it.
FP_CFLAGS := -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-asynchronous-unwind-tables \
	-fno-unwind-tables
CFI_CFLAGS := -fomit-frame-pointer -fasynchronous-unwind-tables
LDFLAGS_GUEST := -nostdlib -no-pie -z max-page-size=4096 -z noexecstack --no-warn-rwx-segments

FP_ELFS := $(foreach p,$(PROGS),$(O)/$(p)-arm64.elf)
NOFP_ELFS := $(foreach p,$(PROGS),$(O)/$(p)-nofp-arm64.elf)
ELFS := $(FP_ELFS) $(NOFP_ELFS)
all: $(ELFS) $(ELFS:.elf=.map) $(ELFS:.elf=.Image)
.PHONY: all clean

HEADERS := $(SRC)guest.h $(SRC)truth.h $(SRC)arm_console.h $(SRC)arm64/guests.mk

# $(1) = variant dir (fp|cfi), $(2) = variant CFLAGS
define arm64_rules
$(O)/obj/$(1)/arm64/%.o: $(SRC)%.c $(HEADERS)
	@mkdir -p $$(@D)
	$(CC) $(BASE_CFLAGS) $(2) -c -o $$@ $$<
$(O)/obj/$(1)/arm64/boot.o: $(SRC)arm64/boot.c $(HEADERS)
	@mkdir -p $$(@D)
	$(CC) $(BASE_CFLAGS) $(2) -c -o $$@ $$<
$(O)/obj/$(1)/arm64/head.o: $(SRC)arm64/head.S
	@mkdir -p $$(@D)
	$(CC) $(BASE_CFLAGS) -c -o $$@ $$<
endef
$(eval $(call arm64_rules,fp,$(FP_CFLAGS)))
$(eval $(call arm64_rules,cfi,$(CFI_CFLAGS)))

# $(1) = variant, $(2) = name infix, $(3) = program
define arm64_link
$(O)/$(3)$(2)-arm64.elf: $(O)/obj/$(1)/arm64/head.o $(O)/obj/$(1)/arm64/boot.o $(O)/obj/$(1)/arm64/truth.o \
		$(O)/obj/$(1)/arm64/$(3).o $(SRC)arm64/guest.lds
	@mkdir -p $$(@D)
	$(LD) $(LDFLAGS_GUEST) -T $(SRC)arm64/guest.lds -o $$@ $$(filter %.o,$$^)
endef
$(foreach p,$(PROGS),$(eval $(call arm64_link,fp,,$(p))))
$(foreach p,$(PROGS),$(eval $(call arm64_link,cfi,-nofp,$(p))))

# The Image: the loadable bytes from the header on (bss excluded; head.S zeroes it).
%.Image: %.elf
	$(OBJCOPY) -O binary $< $@

# nm -n maps, the format xenctx -s reads.
%.map: %.elf
	$(NM) -n $< > $@

clean:
	rm -rf $(O)/obj $(ELFS) $(ELFS:.elf=.map) $(ELFS:.elf=.Image)
