/* Writing arbitrary text into XML (JUnit, SVG) and JSON (and YAML) documents so that it stays text. */
#ifndef EH_ESCAPE_H
#define EH_ESCAPE_H

#include <stdio.h>

/*
 * s as XML character data, valid in element content and in attribute values
 * of either quote: markup characters become entities, tab, newline and
 * carriage return character references (so attribute normalisation keeps
 * them), and what XML 1.0 cannot carry at all (other C0 controls, and each
 * maximal ill-formed UTF-8 subpart, as Unicode section 3.9 counts them) U+FFFD.
 */
void eh_xml_puts(FILE *f, const char *s);

/*
 * s as a JSON string literal, quotes included (RFC 8259 section 7): quote,
 * backslash and C0 controls escaped, ill-formed UTF-8 replaced by U+FFFD as
 * for XML. The result is also a YAML double-quoted scalar.
 */
void eh_json_puts(FILE *f, const char *s);

#endif
