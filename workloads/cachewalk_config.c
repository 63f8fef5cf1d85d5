// SPDX-License-Identifier: GPL-2.0
/*
 * cachewalk's options: the one parser (used by cachewalk itself and by migtrace, which must
 * know a cachewalk run's mode before launching it) and the one place a command line is built
 * from a config (validate's experiment).  No getopt: it keeps global state and reorders argv,
 * and migtrace parses a slice of its own command line that it later executes as it is.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachewalk.h"

#define DEFAULT_AGES_US "50,100,200,500,1000,2000,5000,10000,20000,50000"

static int parse_ages(struct cachewalk_config *c, const char *s, char *err, size_t errlen);

void cachewalk_config_default(struct cachewalk_config *c)
{
	memset(c, 0, sizeof(*c));
	c->ws_bytes = 256 * 1024;
	c->polluter_bytes = 4 << 20;
	c->sleep_kind = CW_SLEEP_EXP;
	c->sleep_a_us = 2000;
	c->burst = 3;
	c->duration_s = 5;
	c->samples = 30;
	c->cpu_a = -1;
	c->cpu_b = -1;
	c->keepalive = true;
	parse_ages(c, DEFAULT_AGES_US, NULL, 0);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A non-negative decimal number, the whole string. */
static int number(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v >= 0) || *v > 1e15 ? -EINVAL : 0;
}

static int integer(const char *s, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "4K", "256K", "1M", "1.5MiB", "64KB", "4096": binary multiples, > 0. */
static int size(const char *s, uint64_t *out)
{
	uint64_t m = 1;
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v > 0))
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		m = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		m = 1024 * 1024, end++;
	else if (*end == 'G' || *end == 'g')
		m = 1024ULL * 1024 * 1024, end++;
	if (*end == 'i')
		end++;
	if (*end == 'B')
		end++;
	if (*end || v * (double)m > 1e15)
		return -EINVAL;
	*out = (uint64_t)(v * (double)m);
	return *out ? 0 : -EINVAL;
}

static int parse_ages(struct cachewalk_config *c, const char *s, char *err, size_t errlen)
{
	char buf[1024], *save = NULL;
	double us;
	int n = 0;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return fail(err, errlen, "--ages: the list is longer than %zu characters",
			    sizeof(buf) - 1);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == CACHEWALK_MAX_AGES)
			return fail(err, errlen, "--ages: more than %d ages", CACHEWALK_MAX_AGES);
		if (number(tok, &us))
			return fail(err, errlen, "--ages: '%s' is not an age in µs", tok);
		if (us * 1000 > (double)CACHEWALK_MAX_AGE_NS)
			return fail(err, errlen, "--ages: '%s' µs is beyond %llu µs (4.29 s), the "
				    "most the migration-cost tunable can hold (a u32 of ns)", tok,
				    CACHEWALK_MAX_AGE_NS / 1000);
		c->ages_ns[n++] = (uint64_t)(us * 1000 + 0.5);
	}
	if (!n)
		return fail(err, errlen, "--ages: '%s' lists no age", s);
	c->nages = n;
	return 0;
}

static int parse_rates(struct cachewalk_config *c, const char *s, char *err, size_t errlen)
{
	char buf[512], *save = NULL;
	int n = 0;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return fail(err, errlen, "--rates: the list is longer than %zu characters",
			    sizeof(buf) - 1);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;

		if (n == CACHEWALK_MAX_RATES)
			return fail(err, errlen, "--rates: more than %d rates", CACHEWALK_MAX_RATES);
		if (!strcmp(tok, "max"))
			v = 0;
		else if (number(tok, &v) || v == 0)
			return fail(err, errlen, "--rates: '%s' is not a rate in MB/s (or max)", tok);
		for (int i = 0; i < n; i++)
			if (c->rates_mbps[i] == v)
				return fail(err, errlen, "--rates: '%s' is given twice", tok);
		c->rates_mbps[n++] = v;
	}
	if (!n)
		return fail(err, errlen, "--rates: '%s' lists no rate", s);
	c->nrates = n;
	return 0;
}

static int parse_sleep(struct cachewalk_config *c, const char *s, char *err, size_t errlen)
{
	char buf[64], *dash;

	if (!strncmp(s, "fixed:", 6) && !number(s + 6, &c->sleep_a_us)) {
		c->sleep_kind = CW_SLEEP_FIXED;
		return 0;
	}
	if (!strncmp(s, "exp:", 4) && !number(s + 4, &c->sleep_a_us)) {
		c->sleep_kind = CW_SLEEP_EXP;
		return 0;
	}
	if (!strncmp(s, "uniform:", 8)) {
		snprintf(buf, sizeof(buf), "%s", s + 8);
		dash = strchr(buf, '-');
		if (dash) {
			*dash = '\0';
			if (!number(buf, &c->sleep_a_us) && !number(dash + 1, &c->sleep_b_us) &&
			    c->sleep_a_us <= c->sleep_b_us) {
				c->sleep_kind = CW_SLEEP_UNIFORM;
				return 0;
			}
		}
	}
	return fail(err, errlen, "--sleep: '%s' is not fixed:US, uniform:LO-HI or exp:MEAN_US", s);
}

static int parse_polluter(struct cachewalk_config *c, const char *s, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);

	if (!n || n >= sizeof(c->polluter_cpus) || strspn(s, "0123456789,") < n)
		return fail(err, errlen, "--polluter: '%s' is not CPUS[:MBPS] (e.g. 0 or 0,2:200)",
			    s);
	if (colon && number(colon + 1, &c->polluter_mbps))
		return fail(err, errlen, "--polluter: '%s' is not a rate in MB/s", colon + 1);
	memcpy(c->polluter_cpus, s, n);
	c->polluter_cpus[n] = '\0';
	return 0;
}

enum { NO_ARG, ARG };

static const struct {
	const char *name;
	char key;
	int arg;
} opts[] = {
	{ "threads", 't', ARG }, { "ws", 'w', ARG }, { "sleep", 's', ARG },
	{ "burst", 'b', ARG }, { "duration", 'd', ARG }, { "load", 'l', ARG },
	{ "polluter", 'P', ARG }, { "controlled", 'C', NO_ARG }, { "ages", 'a', ARG },
	{ "samples", 'n', ARG }, { "from", 'f', ARG }, { "to", 'T', ARG },
	{ "no-keepalive", 'K', NO_ARG }, { "polluter-size", 'S', ARG }, { "rates", 'R', ARG },
	{ "help", 'h', NO_ARG },
};

static int apply(struct cachewalk_config *c, int i, const char *v, char *err, size_t errlen)
{
	const char *name = opts[i].name;

	switch (opts[i].key) {
	case 't':
		return integer(v, 0, 4096, &c->threads) ?
		       fail(err, errlen, "--threads: '%s' is not a count from 0 to 4096", v) : 0;
	case 'w':
		return size(v, &c->ws_bytes) ?
		       fail(err, errlen, "--ws: '%s' is not a size (4K, 256K, 1M)", v) : 0;
	case 'S':
		return size(v, &c->polluter_bytes) ?
		       fail(err, errlen, "--polluter-size: '%s' is not a size (4M, 32M)", v) : 0;
	case 's':
		return parse_sleep(c, v, err, errlen);
	case 'b':
		return integer(v, 1, 1000000, &c->burst) ?
		       fail(err, errlen, "--burst: '%s' is not a count from 1", v) : 0;
	case 'd':
		return number(v, &c->duration_s) ?
		       fail(err, errlen, "--duration: '%s' is not a number of seconds", v) : 0;
	case 'l':
		return integer(v, 0, 64, &c->load_threads) ?
		       fail(err, errlen, "--load: '%s' is not a count from 0 to 64", v) : 0;
	case 'P':
		return parse_polluter(c, v, err, errlen);
	case 'C':
		c->controlled = true;
		return 0;
	case 'a':
		return parse_ages(c, v, err, errlen);
	case 'R':
		return parse_rates(c, v, err, errlen);
	case 'n':
		return integer(v, 1, 100000, &c->samples) ?
		       fail(err, errlen, "--samples: '%s' is not a count from 1 to 100000", v) : 0;
	case 'f':
		return integer(v, 0, 1 << 20, &c->cpu_a) ?
		       fail(err, errlen, "--from: '%s' is not a CPU number", v) : 0;
	case 'T':
		return integer(v, 0, 1 << 20, &c->cpu_b) ?
		       fail(err, errlen, "--to: '%s' is not a CPU number", v) : 0;
	case 'K':
		c->keepalive = false;
		return 0;
	case 'h':
		return 1;
	}
	return fail(err, errlen, "--%s: not handled", name);
}

int cachewalk_config_parse(struct cachewalk_config *c, int argc, char *const argv[], char *err,
			   size_t errlen)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		int k = -1, rc;

		if (a[0] == '-' && a[1] == '-' && a[2]) {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);

			for (size_t j = 0; j < sizeof(opts) / sizeof(opts[0]); j++)
				if (strlen(opts[j].name) == len &&
				    !strncmp(opts[j].name, a + 2, len))
					k = (int)j;
			val = eq ? eq + 1 : NULL;
		} else if (a[0] == '-' && a[1]) {
			for (size_t j = 0; j < sizeof(opts) / sizeof(opts[0]); j++)
				if (opts[j].key == a[1])
					k = (int)j;
			val = a[2] ? a + 2 : NULL;
		} else {
			return fail(err, errlen,
				"unexpected argument '%s' (cachewalk takes options "
				    "only)", a);
		}
		if (k < 0)
			return fail(err, errlen, "unknown option '%s' (see cachewalk --help)", a);
		if (opts[k].arg == ARG && !val) {
			if (i + 1 == argc)
				return fail(err, errlen, "--%s needs a value", opts[k].name);
			val = argv[++i];
		}
		if (opts[k].arg == NO_ARG && val)
			return fail(err, errlen, "--%s takes no value", opts[k].name);
		rc = apply(c, k, val, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int cachewalk_config_option(struct cachewalk_config *c, const char *name, const char *value,
			    char *err, size_t errlen)
{
	for (size_t j = 0; j < sizeof(opts) / sizeof(opts[0]); j++) {
		if (strcmp(opts[j].name, name))
			continue;
		if ((opts[j].arg == ARG) != (value != NULL))
			return fail(err, errlen, "--%s %s", name, value ? "takes no value" :
				    "needs a value");
		return apply(c, (int)j, value, err, errlen);
	}
	return fail(err, errlen, "unknown option '--%s'", name);
}

/* The shortest decimal that reads back as v. */
static void fmt_num(char *buf, size_t len, double v)
{
	if (v == (double)(long long)v) {
		snprintf(buf, len, "%lld", (long long)v);	/* 200, not 2e+02 */
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static void fmt_size(char *buf, size_t len, uint64_t b)
{
	if (b % (1ULL << 30) == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(b >> 30));
	else if (b % (1ULL << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else if (b % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
}

struct builder {
	struct cachewalk_argv *out;
	size_t used;
	int err;
};

static void add(struct builder *b, const char *fmt, ...)
{
	size_t room = sizeof(b->out->buf) - b->used;
	va_list ap;
	int n;

	if (b->err || b->out->argc + 1 >= CACHEWALK_MAX_ARGS) {
		b->err = -E2BIG;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(b->out->buf + b->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		b->err = -E2BIG;
		return;
	}
	b->out->argv[b->out->argc++] = b->out->buf + b->used;
	b->used += (size_t)n + 1;
}

/* --ages' list in µs, as the parser reads it: "50,0.5,1000". */
static void add_ages(struct builder *b, const struct cachewalk_config *c)
{
	char list[1024];
	size_t off = 0;

	for (int i = 0; i < c->nages && off < sizeof(list); i++) {
		unsigned long long ns = c->ages_ns[i];

		if (ns % 1000)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%llu.%03llu",
						i ? "," : "", ns / 1000, ns % 1000);
		else
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%llu",
						i ? "," : "", ns / 1000);
	}
	add(b, "%s", list);
}

int cachewalk_config_argv(const struct cachewalk_config *c, const char *path,
			  struct cachewalk_argv *out)
{
	struct cachewalk_config d;
	struct builder b = { .out = out };
	char x[64], y[64];

	cachewalk_config_default(&d);
	memset(out, 0, sizeof(*out));
	add(&b, "%s", path);
	if (c->controlled) {
		/* the experiment's own parameters are always said in its command line */
		add(&b, "--controlled");
		if (c->cpu_a >= 0) {
			add(&b, "--from");
			add(&b, "%d", c->cpu_a);
		}
		if (c->cpu_b >= 0) {
			add(&b, "--to");
			add(&b, "%d", c->cpu_b);
		}
		add(&b, "--samples");
		add(&b, "%d", c->samples);
		fmt_size(x, sizeof(x), c->ws_bytes);
		add(&b, "--ws");
		add(&b, "%s", x);
	} else {
		if (c->threads) {
			add(&b, "--threads");
			add(&b, "%d", c->threads);
		}
		if (c->ws_bytes != d.ws_bytes) {
			fmt_size(x, sizeof(x), c->ws_bytes);
			add(&b, "--ws");
			add(&b, "%s", x);
		}
		if (c->sleep_kind != d.sleep_kind || c->sleep_a_us != d.sleep_a_us ||
		    (c->sleep_kind == CW_SLEEP_UNIFORM && c->sleep_b_us != d.sleep_b_us)) {
			fmt_num(x, sizeof(x), c->sleep_a_us);
			fmt_num(y, sizeof(y), c->sleep_b_us);
			add(&b, "--sleep");
			if (c->sleep_kind == CW_SLEEP_UNIFORM)
				add(&b, "uniform:%s-%s", x, y);
			else
				add(&b, "%s:%s", c->sleep_kind == CW_SLEEP_FIXED ? "fixed" :
				    "exp", x);
		}
		if (c->burst != d.burst) {
			add(&b, "--burst");
			add(&b, "%d", c->burst);
		}
		if (c->duration_s != d.duration_s) {
			fmt_num(x, sizeof(x), c->duration_s);
			add(&b, "--duration");
			add(&b, "%s", x);
		}
		if (c->load_threads) {
			add(&b, "--load");
			add(&b, "%d", c->load_threads);
		}
	}
	if (c->polluter_cpus[0]) {
		add(&b, "--polluter");
		if (c->polluter_mbps > 0) {
			fmt_num(x, sizeof(x), c->polluter_mbps);
			add(&b, "%s:%s", c->polluter_cpus, x);
		} else {
			add(&b, "%s", c->polluter_cpus);
		}
	}
	if (c->polluter_bytes != d.polluter_bytes) {
		fmt_size(x, sizeof(x), c->polluter_bytes);
		add(&b, "--polluter-size");
		add(&b, "%s", x);
	}
	if (c->controlled && (c->nages != d.nages ||
			      memcmp(c->ages_ns, d.ages_ns, sizeof(uint64_t) * (size_t)d.nages))) {
		add(&b, "--ages");
		add_ages(&b, c);
	}
	if (c->controlled && c->nrates) {
		char list[512];
		size_t off = 0;

		for (int i = 0; i < c->nrates && off < sizeof(list); i++) {
			fmt_num(x, sizeof(x), c->rates_mbps[i]);
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", i ? "," : "",
						c->rates_mbps[i] > 0 ? x : "max");
		}
		add(&b, "--rates");
		add(&b, "%s", list);
	}
	if (c->controlled && !c->keepalive)
		add(&b, "--no-keepalive");
	out->argv[out->argc] = NULL;
	return b.err;
}
