# A vectorised loop laid out after its scalar remainder loop of the same
# length (LLVM 14's AVX2 stencil3x3_rows with the check in front): the hot
# loop is the packed one.
	.text
	.globl	rows
rows:
	xorl	%eax, %eax
.LBB0_1:
	vmovss	(%rsi,%rax,4), %xmm0
	vaddss	4(%rsi,%rax,4), %xmm0, %xmm0
	vfmadd213ss	8(%rsi,%rax,4), %xmm1, %xmm0
	vmovss	%xmm0, (%rdi,%rax,4)
	incq	%rax
	cmpq	%rax, %rdx
	jne	.LBB0_1
.LBB0_2:
	vmovups	(%rsi,%rax,4), %ymm0
	vaddps	4(%rsi,%rax,4), %ymm0, %ymm0
	vfmadd213ps	8(%rsi,%rax,4), %ymm1, %ymm0
	vmovaps	%ymm0, (%rdi,%rax,4)
	addq	$8, %rax
	cmpq	%rax, %rdx
	jne	.LBB0_2
	retq
.Lfunc_end0:
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
