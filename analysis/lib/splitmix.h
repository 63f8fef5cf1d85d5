/* SPDX-License-Identifier: GPL-2.0 */
/*
 * splitmix64: a small, fast PRNG whose fixed seeds make the calibration's shuffles, cycles
 * and bootstrap repeatable run to run.  Header-only: one inline step.
 */
#ifndef MIGTRACE_SPLITMIX_H
#define MIGTRACE_SPLITMIX_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
