// SPDX-License-Identifier: GPL-2.0
/* A strict pull JSON reader: see json_reader.h for its contract. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_reader.h"

void jr_init(struct json_reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
	r->fd = -1;
	r->line = r->col = 1;
	r->first[0] = true;
}

void jr_init_fd(struct json_reader *r, int fd, char *win, size_t cap, size_t len)
{
	jr_init(r, win, len);
	r->fd = fd;
	r->win = win;
	r->cap = cap;
}

/* The line and column of buf[upto], counted on from those of buf[0]. */
static void position(const struct json_reader *r, size_t upto, size_t *line, size_t *col)
{
	const char *p = r->buf, *end = r->buf + upto, *nl;

	*line = r->line;
	*col = r->col;
	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		(*line)++;
		*col = 1;
		p = nl + 1;
	}
	*col += (size_t)(end - p);
}

/* One line, whatever the input quoted in the message holds. */
static void one_line(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* The first error, found back bytes before pos on the same line (a member's name). */
static int fail_back(struct json_reader *r, size_t back, const char *fmt, va_list ap)
{
	if (r->failed)
		return -1;
	r->failed = true;
	position(r, r->pos, &r->err_line, &r->err_col);
	if (r->err_col > back)
		r->err_col -= back;
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	one_line(r->err);
	return -1;
}

int jr_fail(struct json_reader *r, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = fail_back(r, 0, fmt, ap);
	va_end(ap);
	return rc;
}

static int __attribute__((format(printf, 3, 4)))
jr_fail_back(struct json_reader *r, size_t back, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = fail_back(r, back, fmt, ap);
	va_end(ap);
	return rc;
}

void jr_context(struct json_reader *r, const char *where)
{
	size_t n = strlen(where) + 2, len = strlen(r->err);

	if (!r->failed || r->has_context)
		return;
	r->has_context = true;
	/* "where: " in front, the message cut at the end if it no longer fits */
	if (n >= sizeof(r->err))
		n = sizeof(r->err) - 1;
	if (len + n >= sizeof(r->err))
		len = sizeof(r->err) - 1 - n;
	memmove(r->err + n, r->err, len);
	r->err[n + len] = '\0';
	memcpy(r->err, where, n - 2);
	memcpy(r->err + n - 2, ": ", 2);
	one_line(r->err);	/* where may name a member of the input */
}

const char *jr_error(const struct json_reader *r, char *buf, size_t len)
{
	snprintf(buf, len, "line %zu, column %zu: %s", r->err_line, r->err_col, r->err);
	return buf;
}

/*
 * At least need bytes from pos on, when the document has them: from a file, the window
 * slides (what is before pos is read already) and is filled.  The bytes there are.
 */
static size_t fill(struct json_reader *r, size_t need)
{
	size_t have = r->len - r->pos;
	ssize_t n;

	if (have >= need || r->fd < 0 || r->eof)
		return have;
	position(r, r->pos, &r->line, &r->col);
	r->base += r->pos;
	memmove(r->win, r->win + r->pos, have);
	r->len = have;
	r->pos = 0;
	while (r->len < need && !r->eof) {
		n = read(r->fd, r->win + r->len, r->cap - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			jr_fail(r, "reading it failed: %s", strerror(errno));
			r->eof = true;
		} else if (!n) {
			r->eof = true;
		} else {
			r->len += (size_t)n;
		}
	}
	return r->len - r->pos;
}

/* Whether the window ends where the document does. */
static bool window_is_end(const struct json_reader *r)
{
	return r->fd < 0 || r->eof;
}

static void skip_ws(struct json_reader *r)
{
	for (;;) {
		if (r->pos == r->len && !fill(r, 1))
			return;
		if (r->buf[r->pos] != ' ' && r->buf[r->pos] != '\t' && r->buf[r->pos] != '\n' &&
		    r->buf[r->pos] != '\r')
			return;
		r->pos++;
	}
}

/* The next significant character, not consumed; 0 at the end. */
static char next_char(struct json_reader *r)
{
	skip_ws(r);
	return r->pos < r->len ? r->buf[r->pos] : 0;
}

/* Whether word is next in full; *cut: what is left is a prefix of it (the file ends). */
static bool literal_next(struct json_reader *r, const char *word, bool *cut)
{
	size_t n = strlen(word), left = fill(r, n);

	if (cut)
		*cut = left < n && !memcmp(r->buf + r->pos, word, left);
	return left >= n && !memcmp(r->buf + r->pos, word, n);
}

enum jr_type jr_peek(struct json_reader *r)
{
	char c;

	if (r->failed)
		return JR_NONE;
	c = next_char(r);
	switch (c) {
	case 'n':
		return literal_next(r, "null", NULL) ? JR_NULL : JR_NONE;
	case 't':
		return literal_next(r, "true", NULL) ? JR_BOOL : JR_NONE;
	case 'f':
		return literal_next(r, "false", NULL) ? JR_BOOL : JR_NONE;
	case '"':
		return JR_STRING;
	case '[':
		return JR_ARRAY;
	case '{':
		return JR_OBJECT;
	default:
		return c == '-' || (c >= '0' && c <= '9') ? JR_NUMBER : JR_NONE;
	}
}

static const char *what_is_next(struct json_reader *r)
{
	switch (jr_peek(r)) {
	case JR_NULL:
		return "null";
	case JR_BOOL:
		return "a boolean";
	case JR_NUMBER:
		return "a number";
	case JR_STRING:
		return "a string";
	case JR_ARRAY:
		return "an array";
	case JR_OBJECT:
		return "an object";
	default:
		break;
	}
	if (r->pos >= r->len)
		return "the end of the file (truncated?)";
	for (int i = 0; i < 3; i++) {
		bool cut;

		literal_next(r, (const char *[]){ "null", "true", "false" }[i], &cut);
		if (cut)
			return "the end of the file in a literal (truncated?)";
	}
	return "something not JSON";
}

static int expect_type(struct json_reader *r, enum jr_type t, const char *what)
{
	if (r->failed)
		return -1;
	if (jr_peek(r) != t)
		return jr_fail(r, "expected %s, found %s", what, what_is_next(r));
	return 0;
}

static int open_container(struct json_reader *r, enum jr_type t, const char *what)
{
	if (expect_type(r, t, what))
		return -1;
	if (r->depth >= JR_MAX_DEPTH)
		return jr_fail(r, "nested more than %d deep", JR_MAX_DEPTH);
	r->pos++;
	r->depth++;
	r->first[r->depth] = true;
	r->name_filter[r->depth] = 0;
	r->name_at[r->depth] = r->names_len;
	return 0;
}

int jr_object_begin(struct json_reader *r)
{
	return open_container(r, JR_OBJECT, "an object");
}

int jr_array_begin(struct json_reader *r)
{
	return open_container(r, JR_ARRAY, "an array");
}

/* After a member or element: ',' then more, or the closing bracket.  1, 0 or -1. */
static int next_member(struct json_reader *r, char close)
{
	char c;

	if (r->failed)
		return -1;
	c = next_char(r);
	if (c == close) {
		r->pos++;
		r->names_len = r->name_at[r->depth];
		r->depth--;
		return 0;
	}
	if (!r->first[r->depth]) {
		if (c != ',')
			return c ? jr_fail(r, "expected ',' or '%c'", close) :
				   jr_fail(r, "the file ends inside %s (truncated?)",
					   close == '}' ? "an object" : "an array");
		r->pos++;
		if (next_char(r) == close)
			return jr_fail(r, "a trailing ',' before '%c'", close);
	}
	r->first[r->depth] = false;
	return 1;
}

/* FNV-1a: a name's bit in its object's filter. */
static uint64_t name_bit(const char *name, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ULL;
	return 1ULL << ((h ^ h >> 32) & 63);
}

/* Name n bytes long, raw bytes in the document, is new in the open object: kept.  0 or -1. */
static int name_once(struct json_reader *r, const char *name, size_t n, size_t raw)
{
	uint64_t bit = name_bit(name, n);
	int d = r->depth;

	if (r->name_filter[d] & bit) {
		for (const char *p = r->names + r->name_at[d]; p < r->names + r->names_len;
		     p += strlen(p) + 1)
			if (!strcmp(p, name))
				return jr_fail_back(r, raw, "\"%s\" appears twice", name);
	}
	if (r->names_len + n + 1 > sizeof(r->names))
		return jr_fail(r, "more than %d bytes of member names in the objects open here",
			       JR_NAME_BYTES);
	memcpy(r->names + r->names_len, name, n + 1);
	r->names_len += (uint32_t)(n + 1);
	r->name_filter[d] |= bit;
	return 0;
}

int jr_object_next(struct json_reader *r, char *key, size_t keylen)
{
	int more = next_member(r, '}');
	uint64_t at;
	size_t n;

	if (more <= 0)
		return more;
	if (jr_peek(r) != JR_STRING)
		return jr_fail(r, "expected a member name, found %s", what_is_next(r));
	at = r->base + r->pos;
	if (jr_string(r, key, keylen, &n) || name_once(r, key, n, r->base + r->pos - at))
		return -1;
	if (next_char(r) != ':')
		return jr_fail(r, "expected ':' after \"%s\"", key);
	r->pos++;
	return 1;
}

int jr_array_next(struct json_reader *r)
{
	return next_member(r, ']');
}

static int hex4(struct json_reader *r, unsigned *v)
{
	*v = 0;
	if (fill(r, 4) < 4)
		return jr_fail(r, "a \\u escape cut short");
	for (int i = 0; i < 4; i++) {
		char c = r->buf[r->pos++];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return jr_fail(r, "a \\u escape with a non-hex digit");
	}
	return 0;
}

/* Appends code point cp as UTF-8 (or, for U+0080-U+00FF, the byte it names). */
static int put_cp(struct json_reader *r, char *out, size_t cap, size_t *n, unsigned cp)
{
	unsigned char b[4];
	size_t k;

	if (cp == 0)
		return jr_fail(r, "a NUL character (\\u0000) in a string");
	if (cp < 0x100) {
		b[0] = (unsigned char)cp;
		k = 1;
	} else if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | cp >> 6);
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | cp >> 12);
		b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		b[0] = (unsigned char)(0xf0 | cp >> 18);
		b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (unsigned char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	if (*n + k >= cap)
		return jr_fail(r, "a string longer than %zu bytes", cap - 1);
	memcpy(out + *n, b, k);
	*n += k;
	return 0;
}

static int escape(struct json_reader *r, char *out, size_t cap, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned cp, lo;
	char c;

	if (!fill(r, 1))
		return jr_fail(r, "the file ends inside a string (truncated?)");
	c = r->buf[r->pos++];
	if (c != 'u') {
		e = c ? strchr(from, c) : NULL;
		if (!e)
			return jr_fail(r, "an unknown escape \\%c in a string", c ? c : '0');
		return put_cp(r, out, cap, n, (unsigned char)to[e - from]);
	}
	if (hex4(r, &cp))
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return jr_fail(r, "a lone low surrogate \\u%04x in a string", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (fill(r, 2) < 2 || r->buf[r->pos] != '\\' || r->buf[r->pos + 1] != 'u')
			return jr_fail(r, "a high surrogate \\u%04x without its low half", cp);
		r->pos += 2;
		if (hex4(r, &lo))
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return jr_fail(r, "a high surrogate \\u%04x without its low half", cp);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	return put_cp(r, out, cap, n, cp);
}

int jr_string(struct json_reader *r, char *out, size_t cap, size_t *len)
{
	size_t n = 0;

	if (expect_type(r, JR_STRING, "a string"))
		return -1;
	if (!cap)
		return jr_fail(r, "no room for a string");
	r->pos++;
	for (;;) {
		unsigned char c;

		if (r->pos == r->len && !fill(r, 1))
			return jr_fail(r, "the file ends inside a string (truncated?)");
		c = (unsigned char)r->buf[r->pos++];
		if (c == '"')
			break;
		if (c < 0x20) {
			r->pos--;
			return jr_fail(r, "a control character (0x%02x) in a string", c);
		}
		if (c == '\\') {
			if (escape(r, out, cap, &n))
				return -1;
			continue;
		}
		if (n + 1 >= cap)
			return jr_fail(r, "a string longer than %zu bytes", cap - 1);
		out[n++] = (char)c;
	}
	out[n] = '\0';
	if (len)
		*len = n;
	return 0;
}

static int malformed_number(struct json_reader *r, size_t i, size_t cap)
{
	if (i < r->len)
		return jr_fail(r, "a malformed number");
	/* the window holds more than the longest number taken: this one is longer */
	if (!window_is_end(r))
		return jr_fail(r, "a number of more than %zu characters", cap - 1);
	return jr_fail(r, "the file ends inside a number (truncated?)");
}

/*
 * The next number token, checked against JSON's grammar, into buf.  *integer: it has no
 * fraction or exponent.
 */
static int number_token(struct json_reader *r, char *buf, size_t cap, bool *integer)
{
	size_t start, i;
	const char *s = r->buf;

	if (expect_type(r, JR_NUMBER, "a number"))
		return -1;
	fill(r, cap + 1);
	start = i = r->pos;
	*integer = true;
	if (i < r->len && s[i] == '-')
		i++;
	if (i < r->len && s[i] == '0')
		i++;
	else if (i < r->len && s[i] >= '1' && s[i] <= '9')
		while (i < r->len && s[i] >= '0' && s[i] <= '9')
			i++;
	else
		return malformed_number(r, i, cap);
	if (i < r->len && s[i] == '.') {
		*integer = false;
		if (++i >= r->len || s[i] < '0' || s[i] > '9')
			return malformed_number(r, i, cap);
		while (i < r->len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i < r->len && (s[i] == 'e' || s[i] == 'E')) {
		*integer = false;
		i++;
		if (i < r->len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= r->len || s[i] < '0' || s[i] > '9')
			return malformed_number(r, i, cap);
		while (i < r->len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i - start >= cap)
		return jr_fail(r, "a number of more than %zu characters", cap - 1);
	if (i >= r->len && r->depth)
		return jr_fail(r, "the file ends inside a number (truncated?)");
	memcpy(buf, s + start, i - start);
	buf[i - start] = '\0';
	r->pos = i;
	return 0;
}

int jr_u64(struct json_reader *r, uint64_t *v)
{
	char buf[64];
	bool integer;

	if (number_token(r, buf, sizeof(buf), &integer))
		return -1;
	if (!integer || buf[0] == '-')
		return jr_fail(r, "expected a count (an integer from 0), found %s", buf);
	errno = 0;
	*v = strtoull(buf, NULL, 10);
	if (errno)
		return jr_fail(r, "%s is out of range (more than 2^64 - 1)", buf);
	return 0;
}

int jr_s64(struct json_reader *r, int64_t min, int64_t max, int64_t *v)
{
	char buf[64];
	bool integer;
	long long x;

	if (number_token(r, buf, sizeof(buf), &integer))
		return -1;
	if (!integer)
		return jr_fail(r, "expected an integer, found %s", buf);
	errno = 0;
	x = strtoll(buf, NULL, 10);
	if (errno || x < min || x > max)
		return jr_fail(r, "%s is out of range (%lld to %lld)", buf, (long long)min,
			       (long long)max);
	*v = x;
	return 0;
}

int jr_double(struct json_reader *r, double *v)
{
	char buf[64];
	bool integer;

	if (jr_null(r)) {
		*v = NAN;
		return 0;
	}
	if (number_token(r, buf, sizeof(buf), &integer))
		return -1;
	*v = strtod(buf, NULL);
	if (!isfinite(*v))
		return jr_fail(r, "%s is out of a double's range", buf);
	return 0;
}

static bool literal(struct json_reader *r, const char *word)
{
	size_t n = strlen(word);

	if (fill(r, n) < n || memcmp(r->buf + r->pos, word, n))
		return false;
	r->pos += n;
	return true;
}

int jr_bool(struct json_reader *r, bool *v)
{
	if (expect_type(r, JR_BOOL, "true or false"))
		return -1;
	if (literal(r, "true"))
		*v = true;
	else if (literal(r, "false"))
		*v = false;
	else
		return jr_fail(r, "expected true or false");
	return 0;
}

bool jr_null(struct json_reader *r)
{
	return jr_peek(r) == JR_NULL && literal(r, "null");
}

int jr_skip(struct json_reader *r)
{
	char buf[64], key[256];
	bool b, integer;
	int more;

	switch (jr_peek(r)) {
	case JR_NULL:
		return jr_null(r) ? 0 : jr_fail(r, "expected null");
	case JR_BOOL:
		return jr_bool(r, &b);
	case JR_NUMBER:
		return number_token(r, buf, sizeof(buf), &integer);
	case JR_STRING:
		/* any length: walk it without keeping it */
		r->pos++;
		for (;;) {
			if (fill(r, 2) < 1 || (r->buf[r->pos] == '\\' && r->len - r->pos < 2))
				return jr_fail(r, "the file ends inside a string (truncated?)");
			if (r->buf[r->pos] == '"')
				break;
			if ((unsigned char)r->buf[r->pos] < 0x20)
				return jr_fail(r, "a control character in a string");
			r->pos += r->buf[r->pos] == '\\' ? 2 : 1;
		}
		r->pos++;
		return 0;
	case JR_ARRAY:
		if (jr_array_begin(r))
			return -1;
		while ((more = jr_array_next(r)) > 0)
			if (jr_skip(r))
				return -1;
		return more;
	case JR_OBJECT:
		if (jr_object_begin(r))
			return -1;
		while ((more = jr_object_next(r, key, sizeof(key))) > 0)
			if (jr_skip(r))
				return -1;
		return more;
	default:
		return jr_fail(r, "expected a value, found %s", what_is_next(r));
	}
}

int jr_end(struct json_reader *r)
{
	if (r->failed)
		return -1;
	if (next_char(r) || r->pos < r->len)
		return jr_fail(r, "more data after the end of the document");
	return 0;
}
