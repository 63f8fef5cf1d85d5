// SPDX-License-Identifier: GPL-2.0
/*
 * The migration-cost tunable moved from sysctl to debugfs in 5.13 and became a u32.  Under
 * kernel lockdown (or a debugfs restricted with debugfs=no-mount/off) reading it fails with
 * EPERM even as root: say so rather than guess.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "tunable.h"

#define SYSCTL_PATH "/proc/sys/kernel/sched_migration_cost_ns"
#define DEBUGFS_DIR "/sys/kernel/debug"
#define DEBUGFS_PATH DEBUGFS_DIR "/sched/migration_cost_ns"
#define DEBUGFS_MAGIC_NR 0x64626720

static bool debugfs_mounted(void)
{
	struct statfs sfs;

	return statfs(DEBUGFS_DIR, &sfs) == 0 && sfs.f_type == DEBUGFS_MAGIC_NR;
}

static void lockdown_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	char line[128];

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		char *l = strchr(line, '['), *r = l ? strchr(l, ']') : NULL;

		if (l && r)
			snprintf(buf, len, "%.*s", (int)(r - l - 1), l + 1);
	}
	fclose(f);
}

static int read_value(const char *path, int64_t *ns)
{
	FILE *f = fopen(path, "r");
	long long v;
	int err = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%lld", &v) != 1)
		err = ferror(f) ? -errno : -EINVAL;
	fclose(f);
	if (!err)
		*ns = v;
	return err;
}

void tunable_probe(struct tunable *t)
{
	char mode[64];
	int err;

	memset(t, 0, sizeof(*t));
	t->value_ns = MT_KERNEL_DEFAULT_MIGRATION_COST_NS;
	t->assumed = true;
	snprintf(t->source, sizeof(t->source), "kernel default, assumed: tunable not readable");

	if (access(SYSCTL_PATH, F_OK) == 0) {
		snprintf(t->path, sizeof(t->path), SYSCTL_PATH);
		t->exists = true;
	} else {
		snprintf(t->path, sizeof(t->path), DEBUGFS_PATH);
		if (!debugfs_mounted() && geteuid() == 0)
			mount("debugfs", DEBUGFS_DIR, "debugfs", 0, NULL);
		if (!debugfs_mounted()) {
			snprintf(t->why, sizeof(t->why),
				 "debugfs is not mounted at %s and could not be mounted%s",
				 DEBUGFS_DIR, geteuid() ? " (run as root)" : "");
			return;
		}
		t->exists = true;
	}

	err = read_value(t->path, &t->value_ns);
	if (err) {
		t->value_ns = MT_KERNEL_DEFAULT_MIGRATION_COST_NS;
		lockdown_mode(mode, sizeof(mode));
		if (err == -EPERM && mode[0] && strcmp(mode, "none") != 0)
			snprintf(t->why, sizeof(t->why), "%s: EPERM, kernel lockdown is '%s'",
				 t->path, mode);
		else if (err == -EPERM)
			snprintf(t->why, sizeof(t->why),
				 "%s: EPERM even as root: debugfs is locked down on this kernel "
				 "(lockdown or debugfs= boot option)", t->path);
		else if (err == -ENOENT)
			snprintf(t->why, sizeof(t->why), "%s does not exist (kernel without "
				 "CONFIG_SCHED_DEBUG?)", t->path);
		else
			snprintf(t->why, sizeof(t->why), "%s: %s", t->path, strerror(-err));
		return;
	}
	t->readable = true;
	t->assumed = false;
	snprintf(t->source, sizeof(t->source), "read from %s", t->path);
	/* Writable only as root and where the file lets us; probed without writing. */
	t->writable = access(t->path, W_OK) == 0 && geteuid() == 0;
	if (!t->writable)
		snprintf(t->why, sizeof(t->why), "%s is readable but not writable%s", t->path,
			 geteuid() ? " (run as root)" : "");
}

int tunable_write(const struct tunable *t, int64_t ns)
{
	FILE *f;
	int err = 0;

	if (!t->exists)
		return -ENOENT;
	if (ns < 0 && strcmp(t->path, DEBUGFS_PATH) == 0)
		return -ERANGE;	/* a u32 since 5.13: "always hot" (-1) cannot be expressed */
	f = fopen(t->path, "w");
	if (!f)
		return -errno;
	if (fprintf(f, "%" PRId64 "\n", ns) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

const char *tunable_describe(const struct tunable *t, char *buf, int len)
{
	double us = (double)t->value_ns / 1000.0;

	if (t->assumed)
		snprintf(buf, len, "%.0f µs, kernel default, assumed — tunable not readable: %s",
			 us, t->why);
	else
		snprintf(buf, len, "%.0f µs (read from %s)", us, t->path);
	return buf;
}
