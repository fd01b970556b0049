/* Text for terminals and CI logs: lines kept within a width, long explanations wrapped under them. */
#ifndef EH_TEXT_H
#define EH_TEXT_H

#include <stdbool.h>
#include <stdio.h>

/* The default width of text reports: what a CI log and a terminal both show whole. */
#define EH_TEXT_WIDTH 80

/* How text output is laid out. */
struct eh_text_style {
	unsigned width;   /* columns a line may take; 0: no limit */
	bool verbose;     /* details (evidence, every row) under each line */
};

/*
 * Print line and a newline, cut to style->width columns with "..." at the end
 * when it is longer. Columns are counted as UTF-8 characters; control characters
 * (a newline in evidence) print as spaces, so one line stays one line.
 */
void eh_text_line(FILE *f, const struct eh_text_style *style, const char *line);

/* printf into one line, then eh_text_line. */
void eh_text_linef(FILE *f, const struct eh_text_style *style, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Print text as lines of at most style->width columns, each indented by indent
 * spaces, broken at spaces (a word longer than a line is cut), control characters
 * printed as spaces. Without a width, one indented line.
 */
void eh_text_wrap(FILE *f, const struct eh_text_style *style, unsigned indent, const char *text);

/*
 * The same with lead in front of the first line ("  --model NAME"): text starts at
 * column indent, beside lead when lead leaves two spaces before it, else on the next line.
 */
void eh_text_hang(FILE *f, const struct eh_text_style *style, const char *lead, unsigned indent,
		  const char *text);

/*
 * The same after a lead of lead_cols columns the caller has printed itself (one in
 * colour, say, whose escapes eh_text_hang would print as spaces).
 */
void eh_text_hang_at(FILE *f, const struct eh_text_style *style, unsigned lead_cols, unsigned indent,
		     const char *text);

/*
 * One item of a report as a paragraph: its first line indented by indent, the
 * lines it wraps to by indent + 4, so that each item still starts a line of its own.
 */
void eh_text_para(FILE *f, const struct eh_text_style *style, unsigned indent, const char *text);
void eh_text_paraf(FILE *f, const struct eh_text_style *style, unsigned indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
