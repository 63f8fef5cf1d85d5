// SPDX-License-Identifier: GPL-2.0
/*
 * The polluter's buffer (polluter_size.h).  A migration refills from the largest cache level
 * the two CPUs do not share; a stay finds its set wherever the polluter left it.  So the
 * polluter must span that level, twice over (its scattered touches leave some lines of a
 * buffer the size of the cache in place), or the stay arm never gets as cold as the move,
 * and a cost remains at every displacement that the polluter could not cause.
 */
#include <stdio.h>
#include <string.h>

#include "polluter_size.h"
#include "units.h"

/* The smallest power of two at or above v (v > 0). */
static uint64_t pow2_up(uint64_t v)
{
	uint64_t p = 1;

	while (p < v && p < (1ULL << 62))
		p <<= 1;
	return p;
}

void polluter_size(struct footprint *fp, uint64_t private_bytes, uint64_t room_bytes,
		   const char *room_what, uint64_t given_bytes)
{
	uint64_t base, bytes;
	char b[32], c[32];

	fp->polluter_level = -1;
	for (int i = 0; i < fp->nlevels; i++)
		if (!fp->levels[i].shared)
			fp->polluter_level = i;
	fp->private_bytes = private_bytes;
	if (fp->polluter_level >= 0) {
		fp->polluter_source = FP_POLLUTER_MEASURED;
		base = fp->levels[fp->polluter_level].capacity_bytes;
	} else {
		fp->polluter_source = fp->readable ? FP_POLLUTER_ALL_SHARED : FP_POLLUTER_UNREAD;
		base = private_bytes;
	}
	bytes = pow2_up(FP_POLLUTER_TIMES * (base ? base : 1));
	if (bytes < FP_POLLUTER_MIN_BYTES)
		bytes = FP_POLLUTER_MIN_BYTES;
	fp->sized_bytes = bytes;
	fp->capped_why[0] = '\0';
	/* a quarter of the room: the working set, the tracer and migtrace need the rest; short
	 * memory goes below the floor, down to 1 MiB */
	while (room_bytes && bytes > room_bytes / 4 && bytes > (1ULL << 20))
		bytes /= 2;
	if (bytes < fp->sized_bytes)
		snprintf(fp->capped_why, sizeof(fp->capped_why), "%s, not %s: memory is short "
			 "(%.300s)", fmt_bytes(b, sizeof(b), bytes),
			 fmt_bytes(c, sizeof(c), fp->sized_bytes), room_what ? room_what : "");
	fp->polluter_bytes = bytes;
	if (given_bytes) {
		fp->polluter_source = FP_POLLUTER_GIVEN;
		fp->polluter_bytes = given_bytes;
	}
}
