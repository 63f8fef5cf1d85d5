// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parsers of what users type (CPU lists, sizes, durations, integers).
 * The first byte picks the parser; the rest is the string.  A parser must return 0 or a
 * -errno and leave its output consistent: a parsed CPU list is sorted, unique, in range,
 * and formats back to a list that parses to the same set.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static void check_cpu_list(const char *s)
{
	static struct cpu_set_list l, again;
	char bad[32], buf[8192];

	if (parse_cpu_list(s, &l, bad, sizeof(bad)))
		return;
	for (int i = 0; i < l.n; i++) {
		if (l.cpu[i] < 0 || l.cpu[i] >= MT_MAX_CPUS_USER || (i && l.cpu[i] <= l.cpu[i - 1]))
			abort();
	}
	format_cpu_list(&l, buf, sizeof(buf));
	if (l.n && (parse_cpu_list(buf, &again, NULL, 0) || again.n != l.n ||
		    memcmp(again.cpu, l.cpu, sizeof(int) * (size_t)l.n)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[512];
	uint64_t v;
	long l;
	int err;

	if (size < 1 || size > sizeof(s))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 4) {
	case 0:
		check_cpu_list(s);
		break;
	case 1:
		err = parse_size(s, &v);
		if (err && err != -EINVAL && err != -ERANGE)
			abort();
		break;
	case 2:
		err = parse_duration(s, &v);
		if (err && err != -EINVAL && err != -ERANGE)
			abort();
		break;
	default:
		err = parse_long(s, -1000, 1000, &l);
		if (err ? err != -EINVAL && err != -ERANGE : l < -1000 || l > 1000)
			abort();
	}
	return 0;
}
