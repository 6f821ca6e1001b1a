/* objc_msgSend and objc_msgSendSuper for native code. GCC's runtime compiles a message
   send as objc_msg_lookup followed by a call and has no objc_msgSend, yet hooks written
   for iOS call it (cast to the method's type) to send a selector they computed, and
   objc_msgSendSuper to reach the superclass's method from a dynamic subclass. These
   definitions, exported by the executable, give hook libraries both.

   Each is an x86-64 trampoline: it saves the argument registers (the integer ones and
   the eight vector ones, with %al, which a variadic call sets), looks the method up
   (objc_msg_lookup, or atr_superSendImplementation with the receiver taken from the
   objc_super record), restores the arguments and jumps to the implementation, which
   returns straight to the caller — so arguments and results of any type pass through
   untouched. A nil receiver of objc_msgSend answers zero in every result register, as
   objc4's. Methods that return structures in memory (objc4's objc_msgSend_stret) are not
   supported. Call-frame information describes the frame, so an exception raised during
   the lookup (a +initialize, a forwarding resolution) unwinds through it. */
#include <objc/message.h>
#include <objc/runtime.h>
#include "CObjCRuntimeBridge.h"
#include "GNURuntime.h"

/* The implementation objc_msgSendSuper jumps to: the superclass's, or the receiver's
   forwarding when the superclass lacks the method (GCC's objc_msg_lookup_super would ask
   the forwarding hook with a nil receiver; see atr_lookUpSuper in Runtime.m). */
IMP atr_superSendImplementation(struct objc_super *super, SEL selector) {
    if (super->self == nil || class_respondsToSelector(super->super_class, selector)) return objc_msg_lookup_super(super, selector);
    IMP forwarding = atr_forwardingImplementation(super->self, selector);
    return forwarding != NULL ? forwarding : objc_msg_lookup_super(super, selector);
}

#if defined(__x86_64__)
/* Saves the argument registers in a 0xd0-byte frame (16-byte aligned after the push of
   %rbp), for the lookup call in between. */
#define ATR_SAVE_ARGUMENTS \
    "    pushq %rbp\n" \
    "    .cfi_def_cfa_offset 16\n" \
    "    .cfi_offset %rbp, -16\n" \
    "    movq %rsp, %rbp\n" \
    "    .cfi_def_cfa_register %rbp\n" \
    "    subq $0xd0, %rsp\n" \
    "    movq %rdi, 0x00(%rsp)\n" \
    "    movq %rsi, 0x08(%rsp)\n" \
    "    movq %rdx, 0x10(%rsp)\n" \
    "    movq %rcx, 0x18(%rsp)\n" \
    "    movq %r8, 0x20(%rsp)\n" \
    "    movq %r9, 0x28(%rsp)\n" \
    "    movq %rax, 0x30(%rsp)\n" \
    "    movdqa %xmm0, 0x40(%rsp)\n" \
    "    movdqa %xmm1, 0x50(%rsp)\n" \
    "    movdqa %xmm2, 0x60(%rsp)\n" \
    "    movdqa %xmm3, 0x70(%rsp)\n" \
    "    movdqa %xmm4, 0x80(%rsp)\n" \
    "    movdqa %xmm5, 0x90(%rsp)\n" \
    "    movdqa %xmm6, 0xa0(%rsp)\n" \
    "    movdqa %xmm7, 0xb0(%rsp)\n"

/* Restores them, takes the frame down and jumps to the implementation in %r11. */
#define ATR_RESTORE_AND_JUMP \
    "    movq %rax, %r11\n" \
    "    movq 0x00(%rsp), %rdi\n" \
    "    movq 0x08(%rsp), %rsi\n" \
    "    movq 0x10(%rsp), %rdx\n" \
    "    movq 0x18(%rsp), %rcx\n" \
    "    movq 0x20(%rsp), %r8\n" \
    "    movq 0x28(%rsp), %r9\n" \
    "    movq 0x30(%rsp), %rax\n" \
    "    movdqa 0x40(%rsp), %xmm0\n" \
    "    movdqa 0x50(%rsp), %xmm1\n" \
    "    movdqa 0x60(%rsp), %xmm2\n" \
    "    movdqa 0x70(%rsp), %xmm3\n" \
    "    movdqa 0x80(%rsp), %xmm4\n" \
    "    movdqa 0x90(%rsp), %xmm5\n" \
    "    movdqa 0xa0(%rsp), %xmm6\n" \
    "    movdqa 0xb0(%rsp), %xmm7\n"

__asm__(
    "    .text\n"
    "    .globl objc_msgSend\n"
    "    .type objc_msgSend, @function\n"
    "objc_msgSend:\n"
    "    .cfi_startproc\n"
    "    testq %rdi, %rdi\n"
    "    jz 1f\n"
    ATR_SAVE_ARGUMENTS
    "    call objc_msg_lookup@PLT\n"
    ATR_RESTORE_AND_JUMP
    "    leave\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    .cfi_restore %rbp\n"
    "    jmpq *%r11\n"
    /* nil: zero in every result register, integer and floating-point, as objc4. */
    "1:\n"
    "    xorl %eax, %eax\n"
    "    xorl %edx, %edx\n"
    "    xorps %xmm0, %xmm0\n"
    "    xorps %xmm1, %xmm1\n"
    "    ret\n"
    "    .cfi_endproc\n"
    "    .size objc_msgSend, .-objc_msgSend\n"

    "    .globl objc_msgSendSuper\n"
    "    .type objc_msgSendSuper, @function\n"
    "objc_msgSendSuper:\n"
    "    .cfi_startproc\n"
    ATR_SAVE_ARGUMENTS
    "    call atr_superSendImplementation\n"
    ATR_RESTORE_AND_JUMP
    /* The implementation's self is the receiver the objc_super record names. */
    "    movq (%rdi), %rdi\n"
    "    leave\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    .cfi_restore %rbp\n"
    "    jmpq *%r11\n"
    "    .cfi_endproc\n"
    "    .size objc_msgSendSuper, .-objc_msgSendSuper\n");
#endif
