/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much memory a new buffer can take here: the kernel's estimate of what can be allocated
 * without swapping (MemAvailable), or less where this process's memory cgroup, or one above
 * it, has a limit.  User space only.
 */
#ifndef MIGTRACE_MEM_ROOM_H
#define MIGTRACE_MEM_ROOM_H

#include <stdint.h>

struct mem_room {
	uint64_t bytes;		/* what a buffer can take */
	char what[400];		/* "1.9 GiB left under the cgroup's memory limit of 2.0 GiB (PATH)" */
};

/*
 * Reads ROOT/proc/meminfo's MemAvailable and ROOT/proc/self/cgroup's memory cgroup (v2:
 * memory.max under ROOT/sys/fs/cgroup; v1: memory.limit_in_bytes under
 * ROOT/sys/fs/cgroup/memory), each level up to the top: a limit's room is the limit less
 * what is charged, page cache the kernel can drop (inactive_file) not counted.  The least
 * room wins.  root is "" for this machine.  0, or -ENOENT when neither can be read.
 */
int mem_room_probe(const char *root, struct mem_room *m);

#endif
