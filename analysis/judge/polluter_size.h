/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The polluter's buffer for validate (docs/design.md, "The polluter's size"), from the levels
 * of the footprint curve (footprint_levels.h).  A pure function of numbers.
 */
#ifndef MIGTRACE_POLLUTER_SIZE_H
#define MIGTRACE_POLLUTER_SIZE_H

#include "footprint.h"

/*
 * Into fp->polluter_*, sized_bytes and capped_why: FP_POLLUTER_TIMES x the largest level B
 * does not share (measured), else x private_bytes (the per-core cache the calibration is
 * sized against: every level shared, or no level read), at least FP_POLLUTER_MIN_BYTES, up to
 * a power of two; then halved while more than a quarter of room_bytes (0: not known; room_what
 * says whose room it is); given_bytes (--polluter-size; 0: not given) overrides it all.
 */
void polluter_size(struct footprint *fp, uint64_t private_bytes, uint64_t room_bytes,
		   const char *room_what, uint64_t given_bytes);

#endif
