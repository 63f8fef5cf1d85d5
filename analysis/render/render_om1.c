// SPDX-License-Identifier: GPL-2.0
/*
 * OpenMetrics 1.0 from the Prometheus text exposition this layer writes
 * (render_openmetrics.c): the same samples, the families named as OpenMetrics names them.
 * What differs between the two is the metadata alone:
 *   - a counter's family drops the "_total" its samples keep (the text format names the
 *     family as its sample; an OpenMetrics parser reads "# TYPE x_total counter" as a family
 *     whose sample would be x_total_total, and refuses x_total as a clashing name);
 *   - a gauge named *_info whose samples are 1 is an info family, named without "_info";
 *   - the exposition ends with "# EOF".
 * Sample lines, label escaping, HELP texts (whose \\ and \n escapes both formats share) and
 * the order of families are kept as they are, so that both say the same figures.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "render_export.h"

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && !memcmp(s + len - n, suffix, n);
}

/* Line [p, p + len) without its newline, written with one. */
static void put_line(FILE *f, const char *p, size_t len)
{
	fwrite(p, 1, len, f);
	fputc('\n', f);
}

void render_om1(FILE *f, const char *text, size_t text_len)
{
	const char *end = text + text_len, *help = NULL, *p = text;
	size_t help_len = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len > 7 && !memcmp(p, "# HELP ", 7)) {
			/* held until its TYPE, which names the family */
			help = p + 7;
			help_len = len - 7;
		} else if (len > 7 && !memcmp(p, "# TYPE ", 7)) {
			const char *name = p + 7, *sp = memchr(name, ' ', len - 7);
			size_t nlen = sp ? (size_t)(sp - name) : len - 7;
			const char *type = sp ? sp + 1 : "";
			size_t tlen = sp ? len - 7 - nlen - 1 : 0;
			size_t flen = nlen;

			if (tlen == 7 && !memcmp(type, "counter", 7) && ends_with(name, nlen, "_total"))
				flen = nlen - 6;
			if (tlen == 5 && !memcmp(type, "gauge", 5) && ends_with(name, nlen, "_info")) {
				flen = nlen - 5;
				type = "info";
				tlen = 4;
			}
			fprintf(f, "# TYPE %.*s %.*s\n", (int)flen, name, (int)tlen, type);
			/* the HELP held is this family's when it names the same sample name */
			if (help && help_len > nlen && !memcmp(help, name, nlen) && help[nlen] == ' ')
				fprintf(f, "# HELP %.*s%.*s\n", (int)flen, name,
					(int)(help_len - nlen), help + nlen);
			help = NULL;
		} else {
			put_line(f, p, len);
		}
		p = nl ? nl + 1 : end;
	}
	fputs("# EOF\n", f);
}
