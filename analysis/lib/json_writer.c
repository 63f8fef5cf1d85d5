// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer: see json_writer.h for its contract. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "printable.h"

void jw_init(struct json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

static void fail(struct json_writer *w, int err)
{
	if (!w->err)
		w->err = err;
}

/* Before any value: the separator and, in a lines container, the line break. */
static void before_value(struct json_writer *w)
{
	int d = w->depth;

	if (d && w->in_object[d]) {
		if (!w->named)
			fail(w, -EINVAL);	/* a value in an object needs its name first */
		w->named = false;
		return;
	}
	if (!d && !w->first[0]) {
		fail(w, -EINVAL);		/* one document per writer */
		return;
	}
	if (!w->first[d])
		fputc(',', w->f);
	if (d && w->lines[d])
		fputc('\n', w->f);
	w->first[d] = false;
}

static void start(struct json_writer *w, char open, bool object, bool lines)
{
	before_value(w);
	if (w->depth + 1 >= JW_MAX_DEPTH) {
		fail(w, -EINVAL);
		return;
	}
	fputc(open, w->f);
	w->depth++;
	w->first[w->depth] = true;
	w->lines[w->depth] = lines;
	w->in_object[w->depth] = object;
}

static void end(struct json_writer *w, char close, bool object)
{
	int d = w->depth;

	if (!d || w->in_object[d] != object || w->named) {
		fail(w, -EINVAL);
		return;
	}
	if (w->lines[d] && !w->first[d])
		fputc('\n', w->f);
	fputc(close, w->f);
	w->depth--;
}

void jw_start_object(struct json_writer *w)
{
	start(w, '{', true, false);
}

void jw_start_object_lines(struct json_writer *w)
{
	start(w, '{', true, true);
}

void jw_end_object(struct json_writer *w)
{
	end(w, '}', true);
}

void jw_start_array(struct json_writer *w)
{
	start(w, '[', false, false);
}

void jw_start_array_lines(struct json_writer *w)
{
	start(w, '[', false, true);
}

void jw_end_array(struct json_writer *w)
{
	end(w, ']', false);
}

static void put_string(struct json_writer *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', w->f);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len;

		switch (c) {
		case '"':
			fputs("\\\"", w->f);
			break;
		case '\\':
			fputs("\\\\", w->f);
			break;
		case '\n':
			fputs("\\n", w->f);
			break;
		case '\t':
			fputs("\\t", w->f);
			break;
		case '\r':
			fputs("\\r", w->f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(w->f, "\\u%04x", c);
				break;
			}
			len = utf8_len(s + i, n - i, NULL);
			if (!len) {
				/* a byte that is not UTF-8: kept as itself, escaped */
				fprintf(w->f, "\\u%04x", c);
				break;
			}
			fwrite(s + i, 1, len, w->f);
			i += len;
			continue;
		}
		i++;
	}
	fputc('"', w->f);
}

void jw_name(struct json_writer *w, const char *name)
{
	int d = w->depth;

	if (!d || !w->in_object[d] || w->named) {
		fail(w, -EINVAL);
		return;
	}
	if (!w->first[d])
		fputc(',', w->f);
	if (w->lines[d])
		fputc('\n', w->f);
	w->first[d] = false;
	put_string(w, name, strlen(name));
	fputc(':', w->f);
	w->named = true;
}

void jw_string_len(struct json_writer *w, const char *s, size_t len)
{
	before_value(w);
	put_string(w, s, len);
}

void jw_string(struct json_writer *w, const char *s)
{
	jw_string_len(w, s, strlen(s));
}

void jw_u64(struct json_writer *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

void jw_s64(struct json_writer *w, int64_t v)
{
	before_value(w);
	fprintf(w->f, "%lld", (long long)v);
}

void jw_double(struct json_writer *w, double v)
{
	char buf[40];

	before_value(w);
	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	/* whole numbers as integers; else the shortest form that reads back exactly, so that
	 * a report renders the same digits as the run did */
	if (v == trunc(v) && fabs(v) < 1e15) {
		fprintf(w->f, "%.0f", v);	/* -0 stays -0: it prints as such */
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, sizeof(buf), "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, w->f);
}

void jw_bool(struct json_writer *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct json_writer *w)
{
	before_value(w);
	fputs("null", w->f);
}

int jw_error(const struct json_writer *w)
{
	if (w->err)
		return w->err;
	return ferror(w->f) ? -EIO : 0;
}

int jw_finish(struct json_writer *w)
{
	if (w->depth || w->named || w->first[0])
		fail(w, -EINVAL);	/* an unclosed container, or nothing written */
	fputc('\n', w->f);
	if (fflush(w->f) && !w->err)
		w->err = errno ? -errno : -EIO;
	return jw_error(w);
}
