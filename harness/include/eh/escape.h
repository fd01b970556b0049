/* Writing arbitrary text into XML (JUnit, SVG) and JSON (and YAML) documents so that it stays text. */
#ifndef EH_ESCAPE_H
#define EH_ESCAPE_H

#include <stdio.h>

/*
 * s as XML character data, valid in element content and in attribute values
 * of either quote: markup characters become entities, tab, newline and
 * carriage return character references (so attribute normalisation keeps
 * them), and what XML 1.0 cannot carry at all (other C0 controls, bytes that
 * are not UTF-8) U+FFFD.
 */
void eh_xml_puts(FILE *f, const char *s);

/*
 * s as a JSON string literal, quotes included (RFC 8259 section 7): quote,
 * backslash and C0 controls escaped, bytes that are not UTF-8 replaced by
 * U+FFFD. The result is also a YAML double-quoted scalar.
 */
void eh_json_puts(FILE *f, const char *s);

#endif
