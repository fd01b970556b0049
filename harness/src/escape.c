/* Escaping text for the XML and JSON report writers and the SVG timeline. */
#include "eh/escape.h"

#include <stdbool.h>
#include <stdint.h>

#define REPLACEMENT_UTF8 "\xef\xbf\xbd"   /* U+FFFD */

static bool in(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

/*
 * The length of the well-formed UTF-8 sequence at s, or 0 (Unicode 15,
 * table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF).
 */
static unsigned utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	unsigned n, i;

	if (s[0] < 0x80)
		return 1;
	if (in(s[0], 0xc2, 0xdf))
		n = 2;
	else if (in(s[0], 0xe0, 0xef))
		n = 3;
	else if (in(s[0], 0xf0, 0xf4))
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (!in(s[1], lo, hi))
		return 0;
	for (i = 2; i < n; i++)
		if (!in(s[i], 0x80, 0xbf))
			return 0;
	return n;
}

void eh_xml_puts(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		unsigned n = utf8_len(s);

		if (!n) {
			fputs(REPLACEMENT_UTF8, f);
			s++;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\t': case '\n': case '\r': fprintf(f, "&#%u;", *s); break;
		default:
			/* XML 1.0 section 2.2: no other C0 control is a Char, not even as a reference. */
			if (*s < 0x20)
				fputs(REPLACEMENT_UTF8, f);
			else
				fwrite(s, 1, n, f);
		}
		s += n;
	}
}

void eh_json_puts(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		unsigned n = utf8_len(s);

		if (!n) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		switch (*s) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*s < 0x20)
				fprintf(f, "\\u%04x", *s);
			else
				fwrite(s, 1, n, f);
		}
		s += n;
	}
	fputc('"', f);
}
