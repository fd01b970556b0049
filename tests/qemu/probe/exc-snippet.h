/* The snippet macro of the exception differential test's snippet files (exc-snippets.S, exc-el2-snippets.S). */
	.macro	snippet name
	.global	\name
	.type	\name, %function
	.balign	16
\name:
	.endm
