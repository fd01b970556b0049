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
 * How many bytes at s form one well-formed UTF-8 sequence (*ok), or the
 * maximal subpart of one that must be replaced by a single U+FFFD (!*ok),
 * as Unicode 15 section 3.9 recommends: table 3-7 rules out overlong forms,
 * surrogates and anything past U+10FFFF.
 */
static unsigned utf8_scan(const unsigned char *s, bool *ok)
{
	unsigned char lo = 0x80, hi = 0xbf;
	unsigned n, i;

	*ok = true;
	if (s[0] < 0x80)
		return 1;
	if (in(s[0], 0xc2, 0xdf))
		n = 2;
	else if (in(s[0], 0xe0, 0xef))
		n = 3;
	else if (in(s[0], 0xf0, 0xf4))
		n = 4;
	else
		n = 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (!in(s[i], lo, hi))
			break;
	*ok = n && i == n;
	return n ? i : 1;
}

void eh_xml_puts(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		bool ok;
		unsigned n = utf8_scan(s, &ok);

		if (!ok) {
			fputs(REPLACEMENT_UTF8, f);
			s += n;
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
		bool ok;
		unsigned n = utf8_scan(s, &ok);

		if (!ok) {
			fputs("\\ufffd", f);
			s += n;
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
