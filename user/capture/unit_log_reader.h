/* SPDX-License-Identifier: GPL-2.0 */
/* migtrace's end of the unit log (workloads/unit_log.h): create, drain, account losses. */
#ifndef MIGTRACE_UNIT_LOG_READER_H
#define MIGTRACE_UNIT_LOG_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unit_log.h"

struct unit_log_reader {
	int fd;				/* the memory file; the workload inherits it */
	struct mt_unit_log *log;
	size_t bytes;
	uint64_t torn;			/* claimed, never published (a producer killed) */
};

typedef int (*unit_log_fn)(void *ctx, const struct mt_unit_slot *slot);

/* A log of nslots (a power of two) units in a memory file.  0 or -errno, said on stderr. */
int unit_log_create(struct unit_log_reader *ul, uint32_t nslots);
/*
 * Hands every published unit to fn, in log order, and frees its slot.  final: the workload
 * is gone, so a slot claimed but never published will stay so: it is skipped and counted.
 * Returns the number of units handed over, or fn's first error.
 */
long unit_log_drain(struct unit_log_reader *ul, bool final, unit_log_fn fn, void *ctx);
/* Units lost so far: the ring was full, or a slot was torn. */
uint64_t unit_log_lost(const struct unit_log_reader *ul);
void unit_log_close(struct unit_log_reader *ul);

#endif
