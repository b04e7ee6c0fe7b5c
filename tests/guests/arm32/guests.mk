# SPDX-License-Identifier: GPL-2.0-only
# tests/guests/Makefile with ARCH=arm32: the same programs as ARMv7 (AArch32) kernels
# (arm32/head.S, boot.c, guest.lds), cross-built with arm-linux-gnueabihf-gcc, for an
# arm64 Xen's 32-bit domains.  Three types:
#   arm32        ARM-state code, short-descriptor page tables
#   arm32thumb  Thumb-2 code (GCC's r7 frame pointer below the locals), short descriptors
#   arm32lpae    ARM-state code, LPAE page tables (TTBR0/TTBR1 split 3G/1G)
# Each guest comes as an ELF (the symbols a profiler reads, --elf) and as the zImage xl's
# kernel= boots (libxenguest's zImage32 loader takes no ELF on arm).
CROSS_COMPILE ?= arm-linux-gnueabihf-
CC := $(CROSS_COMPILE)gcc
LD := $(CROSS_COMPILE)ld
NM := $(CROSS_COMPILE)nm
OBJCOPY := $(CROSS_COMPILE)objcopy

TYPES := arm32 arm32thumb arm32lpae

# armv7ve: the hardware divide (ARMv8's AArch32 has it), so no libgcc is linked; soft
# float and general registers only: no FPU state for Xen to switch.
BASE_CFLAGS := -O1 -g -std=gnu11 -ffreestanding -fno-pic -fno-pie -fno-stack-protector \
	-fno-ipa-icf -fno-optimize-sibling-calls -march=armv7ve -mfloat-abi=soft \
	-Wall -Wextra -Wno-main -I$(SRC)
arm32_CFLAGS := -marm
arm32thumb_CFLAGS := -mthumb
arm32lpae_CFLAGS := -marm -DARM32_LPAE
# The frame-pointer build carries no unwind tables (no .ARM.exidx), so only frame records
# can unwind it; the other has EHABI tables (.ARM.exidx) and, from -g, .debug_frame.
FP_CFLAGS := -fno-omit-frame-pointer -fno-unwind-tables -fno-asynchronous-unwind-tables
CFI_CFLAGS := -fomit-frame-pointer -funwind-tables
LDFLAGS_GUEST := -nostdlib -no-pie -z max-page-size=4096 -z noexecstack --no-warn-rwx-segments

FP_ELFS := $(foreach p,$(PROGS),$(foreach t,$(TYPES),$(O)/$(p)-$(t).elf))
NOFP_ELFS := $(foreach p,$(PROGS),$(foreach t,$(TYPES),$(O)/$(p)-nofp-$(t).elf))
ELFS := $(FP_ELFS) $(NOFP_ELFS)
all: $(ELFS) $(ELFS:.elf=.map) $(ELFS:.elf=.zImage)
.PHONY: all clean

HEADERS := $(SRC)guest.h $(SRC)truth.h $(SRC)arm_console.h $(SRC)arm32/guests.mk

# $(1) = variant dir (fp|cfi), $(2) = type, $(3) = variant CFLAGS
define arm32_rules
$(O)/obj/$(1)/$(2)/%.o: $(SRC)%.c $(HEADERS)
	@mkdir -p $$(@D)
	$(CC) $(BASE_CFLAGS) $($(2)_CFLAGS) $(3) -c -o $$@ $$<
$(O)/obj/$(1)/$(2)/boot.o: $(SRC)arm32/boot.c $(HEADERS)
	@mkdir -p $$(@D)
	$(CC) $(BASE_CFLAGS) $($(2)_CFLAGS) $(3) -c -o $$@ $$<
$(O)/obj/$(1)/$(2)/head.o: $(SRC)arm32/head.S $(HEADERS)
	@mkdir -p $$(@D)
	$(CC) $(BASE_CFLAGS) $($(2)_CFLAGS) -c -o $$@ $$<
endef
$(foreach t,$(TYPES),$(eval $(call arm32_rules,fp,$(t),$(FP_CFLAGS))))
$(foreach t,$(TYPES),$(eval $(call arm32_rules,cfi,$(t),$(CFI_CFLAGS))))

# $(1) = variant, $(2) = name infix, $(3) = program, $(4) = type
define arm32_link
$(O)/$(3)$(2)-$(4).elf: $(O)/obj/$(1)/$(4)/head.o $(O)/obj/$(1)/$(4)/boot.o \
		$(O)/obj/$(1)/$(4)/truth.o $(O)/obj/$(1)/$(4)/$(3).o $(SRC)arm32/guest.lds
	@mkdir -p $$(@D)
	$(LD) $(LDFLAGS_GUEST) -T $(SRC)arm32/guest.lds -o $$@ $$(filter %.o,$$^)
endef
$(foreach p,$(PROGS),$(foreach t,$(TYPES),$(eval $(call arm32_link,fp,,$(p),$(t)))))
$(foreach p,$(PROGS),$(foreach t,$(TYPES),$(eval $(call arm32_link,cfi,-nofp,$(p),$(t)))))

# The zImage: the loadable bytes from the header on (bss excluded; head.S zeroes it).
%.zImage: %.elf
	$(OBJCOPY) -O binary -R .bss $< $@

# nm -n maps, the format xenctx -s reads.
%.map: %.elf
	$(NM) -n $< > $@

clean:
	rm -rf $(O)/obj $(ELFS) $(ELFS:.elf=.map) $(ELFS:.elf=.zImage)
