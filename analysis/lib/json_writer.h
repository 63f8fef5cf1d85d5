/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer, after bpftool's json_writer: values go to the FILE as they are
 * given, so a run file with millions of records costs no memory in proportion to it, and no
 * serialised tree is ever cut open to splice arrays in.  Containers opened with *_lines put
 * each member on a line of its own (the run file's top level and its record arrays); others
 * are written compactly.  Strings are bytes: valid UTF-8 is written as it is, any other byte
 * as \u0080-\u00ff, which json_reader.c reads back as that byte.  A non-finite double is
 * written as null.  Errors (misuse, a failed write) are sticky: check jw_error() at the end.
 */
#ifndef MIGTRACE_JSON_WRITER_H
#define MIGTRACE_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	int depth;
	bool first[JW_MAX_DEPTH];	/* no member written yet at this depth */
	bool lines[JW_MAX_DEPTH];	/* members on lines of their own */
	bool in_object[JW_MAX_DEPTH];
	bool named;			/* a name was written; its value comes next */
	int err;			/* 0 or -errno: the first failure */
};

void jw_init(struct json_writer *w, FILE *f);
void jw_start_object(struct json_writer *w);
void jw_start_object_lines(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_start_array(struct json_writer *w);
void jw_start_array_lines(struct json_writer *w);
void jw_end_array(struct json_writer *w);
/* The name of the next member of the object being written. */
void jw_name(struct json_writer *w, const char *name);
void jw_string(struct json_writer *w, const char *s);
void jw_string_len(struct json_writer *w, const char *s, size_t len);
void jw_u64(struct json_writer *w, uint64_t v);
void jw_s64(struct json_writer *w, int64_t v);
/* The shortest decimal that reads back as the same double; null when not finite. */
void jw_double(struct json_writer *w, double v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);
/* Ends the document with a newline, flushes.  0 or the first error (-EINVAL misuse, -EIO). */
int jw_finish(struct json_writer *w);
int jw_error(const struct json_writer *w);

/* name + value in one call. */
static inline void jw_field_string(struct json_writer *w, const char *n, const char *s)
{
	jw_name(w, n);
	jw_string(w, s);
}

static inline void jw_field_u64(struct json_writer *w, const char *n, uint64_t v)
{
	jw_name(w, n);
	jw_u64(w, v);
}

static inline void jw_field_s64(struct json_writer *w, const char *n, int64_t v)
{
	jw_name(w, n);
	jw_s64(w, v);
}

static inline void jw_field_double(struct json_writer *w, const char *n, double v)
{
	jw_name(w, n);
	jw_double(w, v);
}

static inline void jw_field_bool(struct json_writer *w, const char *n, bool v)
{
	jw_name(w, n);
	jw_bool(w, v);
}

static inline void jw_field_null(struct json_writer *w, const char *n)
{
	jw_name(w, n);
	jw_null(w);
}

#endif
