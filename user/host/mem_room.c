// SPDX-License-Identifier: GPL-2.0
/*
 * The memory a buffer can take: MemAvailable, or a memory cgroup's limit less its charge.
 * A buffer that does not fit ends in the OOM killer (exit 137 and no word) rather than in an
 * error: commands that allocate one by the user's size ask here first (docs/design.md,
 * "Honesty in the numbers").  cgroup v2 and v1 are both read, each level from this
 * process's cgroup up.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_room.h"
#include "units.h"

/* v1 writes "no limit" as the largest page-aligned long: anything this big is none. */
#define CGROUP_V1_NO_LIMIT (1ULL << 62)

/* The number path holds, or (key given) the number on its line "KEY:" or "KEY ".  0 or
 * -errno; "max" (v2's no limit) is -EINVAL. */
static int read_u64(const char *path, const char *key, uint64_t *v)
{
	char line[256], *start, *end;
	size_t klen = key ? strlen(key) : 0;
	int err = -ENOENT;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (err == -ENOENT && fgets(line, sizeof(line), f)) {
		if (key && (strncmp(line, key, klen) || (line[klen] != ' ' && line[klen] != ':')))
			continue;
		start = line + klen + (key ? 1 : 0);
		errno = 0;
		*v = strtoull(start, &end, 10);
		err = errno || end == start ? -EINVAL : 0;
		if (!key)
			break;
	}
	fclose(f);
	return err;
}

struct cg_kind {
	const char *mount;	/* under root */
	const char *limit, *usage, *inactive;	/* file names; inactive_file's key in memory.stat */
};

static const struct cg_kind kinds[] = {
	{ "/sys/fs/cgroup", "memory.max", "memory.current", "inactive_file" },
	{ "/sys/fs/cgroup/unified", "memory.max", "memory.current", "inactive_file" },
	{ "/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes",
	  "total_inactive_file" },
};

/* The cgroup of this process for a kind: v2's "0::PATH" line, v1's memory line. */
static int cgroup_path(const char *root, bool v1, char *out, size_t len)
{
	char path[512], line[1024];
	int err = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	if (!(f = fopen(path, "r")))
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *ctl;
		bool match = false;

		if (!c2)
			continue;
		*c2 = '\0';
		ctl = c1 + 1;
		if (!v1) {
			match = !strcmp(line, "0:");	/* "0::PATH" */
		} else {
			for (char *s = NULL, *t = strtok_r(ctl, ",", &s); t; t = strtok_r(NULL, ",", &s))
				match |= !strcmp(t, "memory");
		}
		if (match) {
			c2[1 + strcspn(c2 + 1, "\n")] = '\0';
			snprintf(out, len, "%s", c2 + 1);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/* The least room under any limit from this process's cgroup up, for one kind. */
static void cgroup_room(const char *root, const struct cg_kind *k, struct mem_room *m)
{
	char rel[600], dir[1024], file[1100], b1[32], b2[32];
	bool v1 = k == &kinds[2];

	if (cgroup_path(root, v1, rel, sizeof(rel)))
		return;
	for (;;) {
		uint64_t limit, usage, inactive = 0, room;
		char *slash;

		snprintf(dir, sizeof(dir), "%s%s%s", root, k->mount, strcmp(rel, "/") ? rel : "");
		snprintf(file, sizeof(file), "%s/%s", dir, k->limit);
		/* v2's "max" is no limit, and reads as no number */
		if (!read_u64(file, NULL, &limit) && limit < CGROUP_V1_NO_LIMIT) {
			snprintf(file, sizeof(file), "%s/%s", dir, k->usage);
			if (!read_u64(file, NULL, &usage)) {
				snprintf(file, sizeof(file), "%s/memory.stat", dir);
				read_u64(file, k->inactive, &inactive);
				usage = usage > inactive ? usage - inactive : 0;
				room = limit > usage ? limit - usage : 0;
				if (room < m->bytes) {
					m->bytes = room;
					snprintf(m->what, sizeof(m->what), "%s left under the "
						 "cgroup's memory limit of %s (%s/%s)",
						 fmt_bytes(b1, sizeof(b1), room),
						 fmt_bytes(b2, sizeof(b2), limit),
						 dir + strlen(root), k->limit);
				}
			}
		}
		/* up one level: "/a/b" -> "/a" -> "/" */
		slash = strrchr(rel, '/');
		if (!slash || !strcmp(rel, "/"))
			break;
		if (slash == rel)
			rel[1] = '\0';
		else
			*slash = '\0';
	}
}

int mem_room_probe(const char *root, struct mem_room *m)
{
	char path[512], b[32];
	uint64_t kb;

	root = root ? root : "";
	m->bytes = UINT64_MAX;
	m->what[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	if (!read_u64(path, "MemAvailable", &kb)) {
		m->bytes = kb * 1024;
		snprintf(m->what, sizeof(m->what), "%s of available memory (MemAvailable)",
			 fmt_bytes(b, sizeof(b), m->bytes));
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		cgroup_room(root, &kinds[i], m);
	return m->bytes == UINT64_MAX ? -ENOENT : 0;
}
