/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_orc_stubs.c - which stub the code at a vCPU's pc is the rest of
 * (orc_stubs.c): the indirect-branch thunks, Xen PV's exception stub and
 * its iret, read from each of their instructions, and code that is none
 * of them, or only part of one.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "unwind/orc_stubs.h"

#define PC 0xffffffff81027e70ULL

static enum xu_orc_stub_kind decode(const uint8_t *code, size_t n, uint64_t pc,
                                    struct xu_orc_stub *out)
{
    uint8_t buf[XU_ORC_STUB_CODE];

    /* what follows the stub in memory: int3 padding */
    memset(buf, 0xcc, sizeof(buf));
    memcpy(buf, code, n < sizeof(buf) ? n : sizeof(buf));
    return xu_orc_stub_decode(buf, sizeof(buf), pc, out);
}

static void test_thunks(void **state)
{
    const uint8_t lfence_jmp[] = { 0x0f, 0xae, 0xe8, 0xff, 0xe0 };     /* lfence; jmp *%rax */
    const uint8_t hint_jmp[] = { 0x3e, 0x41, 0xff, 0xe3 };             /* ds jmp *%r11 */
    const uint8_t retpoline[] = { 0xe8, 0x06, 0x00, 0x00, 0x00 };      /* call .+11 */
    const uint8_t far_call[] = { 0xe8, 0x00, 0x10, 0x00, 0x00 };
    const uint8_t call_reg[] = { 0xff, 0xd0 };                         /* call *%rax */
    struct xu_orc_stub s;

    (void)state;
    assert_int_equal(decode(lfence_jmp, sizeof(lfence_jmp), PC, &s), XU_ORC_STUB_THUNK);
    assert_int_equal(decode(lfence_jmp + 3, 2, PC, &s), XU_ORC_STUB_THUNK);
    assert_int_equal(decode(hint_jmp, sizeof(hint_jmp), PC, &s), XU_ORC_STUB_THUNK);
    assert_int_equal(decode(retpoline, sizeof(retpoline), PC, &s), XU_ORC_STUB_THUNK);
    assert_int_equal(decode(far_call, sizeof(far_call), PC, &s), XU_ORC_STUB_NONE);
    assert_int_equal(decode(call_reg, sizeof(call_reg), PC, &s), XU_ORC_STUB_NONE);
    /* the branch's last byte not in what was read */
    assert_int_equal(xu_orc_stub_decode(lfence_jmp, 4, PC, &s), XU_ORC_STUB_NONE);
}

/* Debian 6.1's xen_asm_exc_page_fault: pop %rcx; pop %r11; jmp asm_exc_page_fault. */
static void test_pv_trap(void **state)
{
    const uint8_t stub[] = { 0x59, 0x41, 0x5b, 0xe9, 0x68, 0x8d, 0xbd, 0x00 };
    const uint64_t target = PC + 8 + 0xbd8d68;
    const uint8_t short_jmp[] = { 0x59, 0x41, 0x5b, 0xeb, 0xf0 };
    const uint8_t rcx_only[] = { 0x59, 0xe9, 0x00, 0x01, 0x00, 0x00 };
    const uint8_t other_pop[] = { 0x5b, 0x41, 0x5b, 0xe9, 0x00, 0x01, 0x00, 0x00 };
    struct xu_orc_stub s;

    (void)state;
    assert_int_equal(decode(stub, sizeof(stub), PC, &s), XU_ORC_STUB_PV_TRAP);
    assert_int_equal(s.pops, 2);
    assert_true(s.target == target);
    assert_int_equal(decode(stub + 1, sizeof(stub) - 1, PC + 1, &s), XU_ORC_STUB_PV_TRAP);
    assert_int_equal(s.pops, 1);
    assert_true(s.target == target);
    assert_int_equal(decode(stub + 3, sizeof(stub) - 3, PC + 3, &s), XU_ORC_STUB_PV_TRAP);
    assert_int_equal(s.pops, 0);
    assert_true(s.target == target);
    /* a short jump, backwards */
    assert_int_equal(decode(short_jmp, sizeof(short_jmp), PC, &s), XU_ORC_STUB_PV_TRAP);
    assert_true(s.target == PC + 5 - 0x10);
    /* rcx without r11, or another register: not the stub */
    assert_int_equal(decode(rcx_only, sizeof(rcx_only), PC, &s), XU_ORC_STUB_NONE);
    assert_int_equal(decode(other_pop, sizeof(other_pop), PC, &s), XU_ORC_STUB_NONE);
    /* the jump's offset cut off */
    assert_int_equal(xu_orc_stub_decode(stub, 6, PC, &s), XU_ORC_STUB_NONE);
}

/* Debian 6.1's xen_iret: push $0; push %rcx; push %r11; push %rax;
 * mov $23,%eax; syscall. */
static void test_pv_iret(void **state)
{
    const uint8_t stub[] = { 0x6a, 0x00, 0x51, 0x41, 0x53, 0x50, 0xb8, 0x17, 0x00, 0x00,
                             0x00, 0x0f, 0x05 };
    /* each instruction's offset, and the bytes pushed before it */
    const size_t at[] = { 0, 2, 3, 5, 6 };
    const unsigned int frame[] = { 0, 8, 16, 24, 32 };
    uint8_t other[sizeof(stub)];
    struct xu_orc_stub s;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
        assert_int_equal(decode(stub + at[i], sizeof(stub) - at[i], PC, &s),
                         XU_ORC_STUB_PV_IRET);
        assert_int_equal(s.frame, frame[i]);
    }
    /* at the hypercall itself, or mid-instruction: nothing to tell */
    assert_int_equal(decode(stub + 11, 2, PC, &s), XU_ORC_STUB_NONE);
    assert_int_equal(decode(stub + 1, sizeof(stub) - 1, PC, &s), XU_ORC_STUB_NONE);
    /* another hypercall, or a push missing */
    memcpy(other, stub, sizeof(other));
    other[7] = 0x18;
    assert_int_equal(decode(other, sizeof(other), PC, &s), XU_ORC_STUB_NONE);
    memcpy(other, stub, sizeof(other));
    other[3] = 0x90;
    other[4] = 0x90;
    assert_int_equal(decode(other, sizeof(other), PC, &s), XU_ORC_STUB_NONE);
    /* the syscall not in what was read */
    assert_int_equal(xu_orc_stub_decode(stub, 12, PC, &s), XU_ORC_STUB_NONE);
}

static void test_none(void **state)
{
    const uint8_t nops[] = { 0x90, 0x90, 0x90, 0x90 };
    const uint8_t ret[] = { 0xc3 };
    struct xu_orc_stub s;

    (void)state;
    assert_int_equal(decode(nops, sizeof(nops), PC, &s), XU_ORC_STUB_NONE);
    assert_int_equal(decode(ret, sizeof(ret), PC, &s), XU_ORC_STUB_NONE);
    assert_int_equal(xu_orc_stub_decode(nops, 0, PC, &s), XU_ORC_STUB_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thunks),
        cmocka_unit_test(test_pv_trap),
        cmocka_unit_test(test_pv_iret),
        cmocka_unit_test(test_none),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
