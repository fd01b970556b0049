/* Lines cut to a width and paragraphs wrapped, for the text reports a terminal or a CI log shows. */
#include "eh/text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of s that make up at most cols UTF-8 characters; *chars gets how many that is. */
static size_t bytes_for(const char *s, size_t len, size_t cols, size_t *chars)
{
	size_t i = 0, n = 0;

	while (i < len && n < cols) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		n++;
	}
	if (chars)
		*chars = n;
	return i;
}

static size_t columns(const char *s, size_t len)
{
	size_t n;

	bytes_for(s, len, len, &n);
	return n;
}

/* Control characters (a newline in evidence) would break a line a reader counts on: print them as spaces. */
static void put_plain(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i], f);
}

void eh_text_line(FILE *f, const struct eh_text_style *style, const char *line)
{
	size_t len = strlen(line);

	if (!style->width || columns(line, len) <= style->width) {
		put_plain(f, line, len);
	} else if (style->width <= 3) {
		put_plain(f, line, bytes_for(line, len, style->width, NULL));
	} else {
		put_plain(f, line, bytes_for(line, len, style->width - 3, NULL));
		fputs("...", f);
	}
	fputc('\n', f);
}

void eh_text_linef(FILE *f, const struct eh_text_style *style, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	eh_text_line(f, style, buf);
}

void eh_text_wrap(FILE *f, const struct eh_text_style *style, unsigned indent, const char *text)
{
	eh_text_hang(f, style, "", indent, text);
}

/* text's lines, broken at spaces: the first at column first (the lead, lead_cols wide, already there), the rest at rest. */
static void put_lines(FILE *f, const struct eh_text_style *style, size_t lead_cols, unsigned first, unsigned rest,
		      const char *p)
{
	unsigned indent = first;

	while (*p == ' ')
		p++;
	while (*p) {
		size_t room = style->width > indent + 20 ? style->width - indent : 0;
		size_t len = strlen(p), cut = room ? bytes_for(p, len, room, NULL) : len, next;

		if (cut < len) {
			size_t sp = cut;

			while (sp > 0 && p[sp] != ' ')
				sp--;
			if (sp > 0)
				cut = sp;
		}
		for (next = cut; p[next] == ' '; next++)
			;
		fprintf(f, "%*s", (int)(indent - lead_cols), "");
		lead_cols = 0;
		put_plain(f, p, cut);
		fputc('\n', f);
		p += next;
		indent = rest;
	}
	if (lead_cols)
		fputc('\n', f);  /* a lead with no text after it */
}

void eh_text_hang_at(FILE *f, const struct eh_text_style *style, unsigned lead_cols, unsigned indent,
		     const char *text)
{
	if (lead_cols && lead_cols + 2 > indent) {
		fputc('\n', f);
		lead_cols = 0;
	}
	put_lines(f, style, lead_cols, indent, indent, text);
}

void eh_text_hang(FILE *f, const struct eh_text_style *style, const char *lead, unsigned indent,
		  const char *text)
{
	size_t len = strlen(lead);

	put_plain(f, lead, len);
	eh_text_hang_at(f, style, (unsigned)columns(lead, len), indent, text);
}

void eh_text_para(FILE *f, const struct eh_text_style *style, unsigned indent, const char *text)
{
	put_lines(f, style, 0, indent, indent + 4, text);
}

void eh_text_paraf(FILE *f, const struct eh_text_style *style, unsigned indent, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	eh_text_para(f, style, indent, buf);
}
