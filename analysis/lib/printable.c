// SPDX-License-Identifier: GPL-2.0
/* Names from outside escaped for the text, as `ls -b` escapes a file name (printable.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "printable.h"

size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp_out)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		len = 1, cp = s[0];
	else if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp_out)
		*cp_out = cp;
	return len;
}

/* A code point a terminal acts on rather than shows: a control, or a bidirectional one. */
static bool acts(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The letter of a C escape `ls -b` writes for cp (\n: 'n'), or 0. */
static char c_escape(uint32_t cp)
{
	switch (cp) {
	case '\\':
		return '\\';
	case '\a':
		return 'a';
	case '\b':
		return 'b';
	case '\t':
		return 't';
	case '\n':
		return 'n';
	case '\v':
		return 'v';
	case '\f':
		return 'f';
	case '\r':
		return 'r';
	default:
		return 0;
	}
}

char *printable(char *buf, size_t len, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), used = 0;
	char esc[4 * 4 + 1];

	for (size_t i = 0; i < n;) {
		uint32_t cp = 0;
		size_t seq = utf8_len(s + i, n - i, &cp), w = 0;
		char letter = seq == 1 ? c_escape(cp) : 0;

		if (letter) {
			w = (size_t)snprintf(esc, sizeof(esc), "\\%c", letter);
		} else if (seq && !acts(cp)) {
			memcpy(esc, s + i, seq);
			w = seq;
		} else {
			/* each byte of it: a control, a bidirectional one, or not UTF-8 */
			for (size_t k = 0; k < (seq ? seq : 1); k++)
				w += (size_t)snprintf(esc + w, sizeof(esc) - w, "\\%03o", s[i + k]);
		}
		if (used + w >= len)
			break;
		memcpy(buf + used, esc, w);
		used += w;
		i += seq ? seq : 1;
	}
	buf[used] = '\0';
	return buf;
}
