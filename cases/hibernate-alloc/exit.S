/*
 * Stands for the hibernate exit text (__hibernate_exit_text_start..end in 5.4) that
 * create_safe_exec_page copies to a safe page; the harness never runs it. Like the kernel's,
 * it has a section of its own, so that its end label does not name the code that follows.
 */
	.section ".hibernate_exit.text", "ax"
	.balign	8
	.globl	hibernate_exit_text_start, hibernate_exit_text_end, hibernate_exit
hibernate_exit_text_start:
hibernate_exit:
	tlbi	vmalle1
	dsb	nsh
	isb
	ret
hibernate_exit_text_end:
