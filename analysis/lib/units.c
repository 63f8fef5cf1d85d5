// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>

#include "units.h"

char *fmt_ns(char *buf, int len, double ns)
{
	double a = fabs(ns);

	if (!isfinite(ns))
		snprintf(buf, len, "-");	/* not measured: no number to show */
	else if (a < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (a < 1e5)
		snprintf(buf, len, "%.1f µs", ns / 1e3);
	else if (a < 1e6)
		snprintf(buf, len, "%.0f µs", ns / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

char *fmt_bytes(char *buf, int len, uint64_t b)
{
	if (b >= (1ULL << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (1ULL << 30));
	else if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1ULL << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1ULL << 20));
	else if (b >= 1024)
		snprintf(buf, len, "%.0f KiB", (double)b / 1024);
	else
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	return buf;
}

char *fmt_rate(char *buf, int len, double mbps)
{
	if (!isfinite(mbps))
		snprintf(buf, len, "-");
	else if (mbps >= 1e3)
		snprintf(buf, len, "%.2f GB/s", mbps / 1e3);
	else
		snprintf(buf, len, "%.0f MB/s", mbps);
	return buf;
}

double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int utf8_columns(const char *s)
{
	int n = 0;

	/* a continuation byte (10xxxxxx) goes on the character its lead byte began */
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}
