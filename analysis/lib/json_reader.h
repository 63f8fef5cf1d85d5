/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pull JSON reader over a buffer in memory or a file read through a window: the caller
 * walks the document it expects (objects member by member, arrays element by element) and
 * each value is decoded straight into its destination, so reading a run file of millions of
 * records builds no tree, and from a file holds no more of it than the window.
 * Strict: RFC 8259 syntax, numbers range-checked for their destination, nesting at most
 * JR_MAX_DEPTH deep, strings bounded by their buffer, and no member name twice in an object
 * (RFC 8259 leaves that to the reader: with a pull reader the last would win silently).
 * The first error sticks: every call after it fails, and jr_error() gives one line with the
 * line and column where it was found.
 * \u0080-\u00ff escapes are read as the byte they name (json_writer.h says why).
 */
#ifndef MIGTRACE_JSON_READER_H
#define MIGTRACE_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JR_MAX_DEPTH 64
#define JR_NAME_BYTES 16384	/* the member names of all the objects open at once */

enum jr_type { JR_NONE, JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct json_reader {
	const char *buf;		/* the bytes in hand: the document, or the window */
	size_t len, pos;
	int fd;				/* jr_init_fd: buf is win, read from fd; or -1 */
	char *win;
	size_t cap;			/* win's size */
	bool eof;			/* fd has no more */
	uint64_t base;			/* bytes of the document before buf[0] */
	size_t line, col;		/* where buf[0] is in the document, from 1 */
	int depth;
	bool first[JR_MAX_DEPTH + 1];	/* no member read yet at this depth */
	/* the names of the members read so far in each open object, NUL-separated from
	 * name_at[depth] on, and a 64-bit filter of them (most names are new: no compare) */
	uint64_t name_filter[JR_MAX_DEPTH + 1];
	uint32_t name_at[JR_MAX_DEPTH + 1];
	uint32_t names_len;
	char names[JR_NAME_BYTES];
	bool failed;
	bool has_context;		/* err already names the member it is about */
	size_t err_line, err_col;
	char err[256];
};

void jr_init(struct json_reader *r, const char *buf, size_t len);
/*
 * Reads from fd through win[cap] (cap of at least 256 bytes; the caller's, alive while r
 * is), of which the first len bytes were read already.  A failed read is an error of r.
 */
void jr_init_fd(struct json_reader *r, int fd, char *win, size_t cap, size_t len);
/* The type of the next value, without consuming it; JR_NONE at the end or on an error. */
enum jr_type jr_peek(struct json_reader *r);
/* Opens an object / array.  0 or -1. */
int jr_object_begin(struct json_reader *r);
int jr_array_begin(struct json_reader *r);
/* The next member's name into key (its value is next): 1; 0 when the object ended; -1. */
int jr_object_next(struct json_reader *r, char *key, size_t keylen);
/* 1 when another element follows (read it next); 0 when the array ended; -1. */
int jr_array_next(struct json_reader *r);
/* A string into out (cap bytes with the NUL); *len gets its length (may be NULL).  0 or -1. */
int jr_string(struct json_reader *r, char *out, size_t cap, size_t *len);
int jr_u64(struct json_reader *r, uint64_t *v);
/* An integer in [min, max]. */
int jr_s64(struct json_reader *r, int64_t min, int64_t max, int64_t *v);
/* A number; null reads as NAN. */
int jr_double(struct json_reader *r, double *v);
int jr_bool(struct json_reader *r, bool *v);
/* Consumes a null if one is next: true; else false and nothing consumed. */
bool jr_null(struct json_reader *r);
/* Skips the next value, whatever it is.  0 or -1. */
int jr_skip(struct json_reader *r);
/* Checks that only white space is left.  0 or -1. */
int jr_end(struct json_reader *r);
/* Records an error at the current position (the first one only).  Returns -1. */
int jr_fail(struct json_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* After a failure, names the member it was about ("meta.pid: …"), once: innermost wins. */
void jr_context(struct json_reader *r, const char *where);
/* "line L, column C: what" of the first error, into buf. */
const char *jr_error(const struct json_reader *r, char *buf, size_t len);

#endif
