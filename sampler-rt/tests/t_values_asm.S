/* t_values_asm.S - functions whose variables live in known places, so the
   hand-built index of mkindex.c can name them exactly:
     vp_loop_rbx(n):   loop counter in rbx over [vp_loop_rbx_body, vp_loop_rbx_end)
     vp_caller_r12(n): r12 = 0x1234 and 777 at CFA-24 around its call to vp_loop_rbx */
    .text
    .globl vp_loop_rbx
    .type vp_loop_rbx,@function
vp_loop_rbx:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset %rbx, -16
    xor %ebx, %ebx
    .globl vp_loop_rbx_body
vp_loop_rbx_body:
    inc %rbx
    cmp %rdi, %rbx
    jb vp_loop_rbx_body
    .globl vp_loop_rbx_end
vp_loop_rbx_end:
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size vp_loop_rbx, .-vp_loop_rbx

    .globl vp_caller_r12
    .type vp_caller_r12,@function
vp_caller_r12:
    .cfi_startproc
    push %r12
    .cfi_def_cfa_offset 16
    .cfi_offset %r12, -16
    sub $16, %rsp
    .cfi_def_cfa_offset 32
    movq $777, 8(%rsp)          /* rsp = CFA-32, so this is CFA-24 */
    mov $0x1234, %r12d
    .globl vp_caller_call
vp_caller_call:
    call vp_loop_rbx
    .globl vp_caller_ret
vp_caller_ret:
    add $16, %rsp
    .cfi_def_cfa_offset 16
    pop %r12
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size vp_caller_r12, .-vp_caller_r12
    .section .note.GNU-stack,"",@progbits
