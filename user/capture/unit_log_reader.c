// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer of the unit log: one memory file, mapped here and by the workload.  The
 * layout and the producer are in workloads/unit_log.h; this side only reads published slots
 * in order and moves the tail, so producers never wait on it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "unit_log_reader.h"

int unit_log_create(struct unit_log_reader *ul, uint32_t nslots)
{
	int err;

	memset(ul, 0, sizeof(*ul));
	ul->fd = -1;
	ul->bytes = (size_t)mt_unit_log_bytes(nslots);
	/* close-on-exec here; launch_fork clears it in the workload only */
	ul->fd = memfd_create("migtrace-unit-log", MFD_CLOEXEC);
	if (ul->fd < 0 || ftruncate(ul->fd, (off_t)ul->bytes))
		goto fail;
	ul->log = mmap(NULL, ul->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, ul->fd, 0);
	if (ul->log == MAP_FAILED) {
		ul->log = NULL;
		goto fail;
	}
	ul->log->nslots = nslots;
	ul->log->slot_bytes = sizeof(struct mt_unit_slot);
	ul->log->version = MT_UNIT_LOG_VERSION;
	__atomic_store_n(&ul->log->magic, MT_UNIT_LOG_MAGIC, __ATOMIC_RELEASE);
	return 0;
fail:
	err = -errno;
	fprintf(stderr, "migtrace run: creating the unit log (a %zu-byte memory file) failed: %s\n",
		ul->bytes, strerror(-err));
	unit_log_close(ul);
	return err;
}

long unit_log_drain(struct unit_log_reader *ul, bool final, unit_log_fn fn, void *ctx)
{
	struct mt_unit_log *log = ul->log;
	uint64_t tail, head;
	long n = 0;

	if (!log)
		return 0;
	tail = __atomic_load_n(&log->tail, __ATOMIC_RELAXED);
	head = __atomic_load_n(&log->head, __ATOMIC_ACQUIRE);
	for (; tail != head; tail++) {
		const struct mt_unit_slot *s = &log->slots[tail & (log->nslots - 1)];
		struct mt_unit_slot copy;

		if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != tail + 1) {
			if (!final)
				break;	/* being written: read it next time */
			ul->torn++;
			continue;
		}
		copy = *s;
		/* the slot is free again once the tail passes it */
		__atomic_store_n(&log->tail, tail + 1, __ATOMIC_RELEASE);
		n++;
		if (fn) {
			int err = fn(ctx, &copy);

			if (err)
				return err;
		}
	}
	__atomic_store_n(&log->tail, tail, __ATOMIC_RELEASE);
	return n;
}

uint64_t unit_log_lost(const struct unit_log_reader *ul)
{
	return ul->log ? __atomic_load_n(&ul->log->dropped, __ATOMIC_RELAXED) + ul->torn : 0;
}

void unit_log_close(struct unit_log_reader *ul)
{
	if (ul->log)
		munmap(ul->log, ul->bytes);
	if (ul->fd >= 0)
		close(ul->fd);
	ul->log = NULL;
	ul->fd = -1;
}
