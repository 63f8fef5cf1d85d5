/* SPDX-License-Identifier: GPL-2.0 */
/* Editing a file's text for the tests that feed readers bad input (cmocka asserts). */
#ifndef MIGTRACE_TEXT_EDIT_H
#define MIGTRACE_TEXT_EDIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Replaces the first `from` in text with `to`; the result is the caller's. */
static inline char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) + strlen(to) + 1;
	char *out = malloc(n);

	if (!at)
		fail_msg("'%s' is not in the text", from);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

#endif
