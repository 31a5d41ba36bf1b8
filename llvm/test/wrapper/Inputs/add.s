	.text
	.globl	add_one
	.type	add_one, @function
add_one:
	leal	1(%rdi), %eax
	ret
	.section	.note.GNU-stack,"",@progbits
