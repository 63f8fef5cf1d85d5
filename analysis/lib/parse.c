// SPDX-License-Identifier: GPL-2.0
/* Parsing of CPU lists, sizes and durations: strict, every error names its token. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

static void copy_token(char *dst, size_t len, const char *start, size_t n)
{
	if (!dst || !len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, start, n);
	dst[n] = '\0';
}

static int parse_cpu_number(const char *s, const char *end, int *cpu)
{
	long v = 0;

	if (s == end)
		return -EINVAL;
	for (const char *p = s; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		v = v * 10 + (*p - '0');
		if (v >= MT_MAX_CPUS_USER)
			return -ERANGE;
	}
	*cpu = (int)v;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int parse_cpu_list(const char *s, struct cpu_set_list *out, char *bad_token, size_t bad_len)
{
	char seen[MT_MAX_CPUS_USER] = { 0 };
	const char *tok = s;

	out->n = 0;
	if (!s || !*s) {
		copy_token(bad_token, bad_len, "", 0);
		return -EINVAL;
	}
	while (*tok) {
		const char *end = strchr(tok, ',');
		const char *dash;
		int lo, hi;

		if (!end)
			end = tok + strlen(tok);
		dash = memchr(tok, '-', end - tok);
		if (dash) {
			if (parse_cpu_number(tok, dash, &lo) || parse_cpu_number(dash + 1, end, &hi) ||
			    hi < lo)
				goto bad;
		} else {
			if (parse_cpu_number(tok, end, &lo))
				goto bad;
			hi = lo;
		}
		for (int c = lo; c <= hi; c++) {
			/* "0,1,0" is a typo or a misunderstanding: dropping the repeat hides it */
			if (seen[c]) {
				if (bad_token && bad_len)
					snprintf(bad_token, bad_len, "%d", c);
				return -EEXIST;
			}
			seen[c] = 1;
			out->cpu[out->n++] = c;
		}
		if (!*end)
			break;
		tok = end + 1;
		if (!*tok) {	/* trailing comma */
			copy_token(bad_token, bad_len, ",", 1);
			return -EINVAL;
		}
		continue;
bad:
		copy_token(bad_token, bad_len, tok, end - tok);
		return -EINVAL;
	}
	qsort(out->cpu, out->n, sizeof(out->cpu[0]), cmp_int);
	return 0;
}

bool cpu_list_has(const struct cpu_set_list *l, int cpu)
{
	for (int i = 0; i < l->n; i++)
		if (l->cpu[i] == cpu)
			return true;
	return false;
}

char *format_cpu_list(const struct cpu_set_list *l, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < l->n; i++) {
		int lo = l->cpu[i], j = i;

		while (j + 1 < l->n && l->cpu[j + 1] == l->cpu[j] + 1)
			j++;
		if (off < len) {
			if (j > i)
				off += snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", lo,
						l->cpu[j]);
			else
				off += snprintf(buf + off, len - off, "%s%d", off ? "," : "", lo);
		}
		i = j;
	}
	return buf;
}

/* Splits "1.5M" into its number and suffix; the number may have a fraction. */
static int split_number(const char *s, double *val, const char **suffix)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*val = strtod(s, &end);
	if (end == s || errno || !isfinite(*val) || *val < 0)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	*suffix = end;
	return 0;
}

/* A number's suffix and what it multiplies the number by. */
struct scale {
	const char *sfx;
	double mult;
};

/*
 * "1.5M" read against a table of suffixes: the number times its suffix's factor in *out.
 * Sizes take their suffixes in either case ("1m", "1MiB"); durations do not, as "m" and
 * "ms" differ only in a letter.
 */
static int parse_scaled(const char *s, const struct scale *units, size_t nunits,
			bool any_case, double *out)
{
	const char *sfx;
	double v;
	int err = split_number(s, &v, &sfx);

	if (err)
		return err;
	for (size_t i = 0; i < nunits; i++) {
		if ((any_case ? strcasecmp : strcmp)(sfx, units[i].sfx) == 0) {
			*out = v * units[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_size(const char *s, uint64_t *bytes)
{
	static const struct scale units[] = {
		{ "", 1 }, { "B", 1 },
		{ "K", 1024.0 }, { "KB", 1024.0 }, { "KIB", 1024.0 },
		{ "M", 1048576.0 }, { "MB", 1048576.0 }, { "MIB", 1048576.0 },
		{ "G", 1073741824.0 }, { "GB", 1073741824.0 }, { "GIB", 1073741824.0 },
		{ "T", 1099511627776.0 }, { "TB", 1099511627776.0 }, { "TIB", 1099511627776.0 },
	};
	double b;
	int err = parse_scaled(s, units, sizeof(units) / sizeof(units[0]), true, &b);

	if (err)
		return err;
	if (b >= 18446744073709551615.0)
		return -ERANGE;
	if (b != floor(b))
		return -EINVAL;	/* "1.3B": not a whole number of bytes */
	*bytes = (uint64_t)b;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct scale units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
	};
	double n;
	int err = parse_scaled(s, units, sizeof(units) / sizeof(units[0]), false, &n);

	if (err)
		return err;
	if (n >= 9.2e18)
		return -ERANGE;
	*ns = (uint64_t)llround(n);
	return 0;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end || end == s)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

bool path_has_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), m = strlen(suffix);

	return n > m && !strcmp(path + n - m, suffix);
}
