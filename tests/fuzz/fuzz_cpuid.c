// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the CPUID decoder fed arbitrary register tables.  The input is a list
 * of (leaf, subleaf, eax, ebx, ecx, edx) records; leaves not in it read as zeros, as on a
 * CPU that does not have them.  Whatever the table, the decoder returns a count within
 * bounds or -errno, every cache it reports has a level and a size, and nothing crashes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid.h"

struct table {
	const uint32_t *words;	/* 6 per record */
	size_t nrec;
};

static int query(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	const struct table *t = ctx;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < t->nrec; i++) {
		const uint32_t *w = t->words + 6 * i;

		/* leaves are folded onto the ones the decoder asks for, so that mutations hit */
		if ((w[0] & 0x8000001f) == leaf && (w[1] & 7) == subleaf) {
			r->eax = w[2];
			r->ebx = w[3];
			r->ecx = w[4];
			r->edx = w[5];
			return 0;
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint32_t words[6 * 64];
	struct table t = { words, 0 };
	struct cpuid_info info;
	int n;

	t.nrec = size / 24 < 64 ? size / 24 : 64;
	memcpy(words, data, t.nrec * 24);
	n = cpuid_decode(query, &t, &info);
	if (n > CPUID_MAX_CACHES || (n >= 0 && n != info.ncache))
		abort();
	for (int i = 0; n > 0 && i < n; i++)
		if (info.cache[i].level < 1 || !info.cache[i].size_bytes ||
		    (info.cache[i].shared_known && !info.cache[i].smt_private &&
		     info.cache[i].nsharing < 1))
			abort();
	if (n == 0 && !info.why[0])
		abort();	/* no cache must say why */
	return 0;
}
