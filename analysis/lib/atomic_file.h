/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files written whole or not at all: a regular file (or a path that does not exist
 * yet) is written to a temporary beside it, then renamed over it.  Anything else — `-` for
 * stdout, a character device such as /dev/null, a FIFO — is written directly: renaming over
 * it would replace the device with a file.  So are /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N, through the descriptor migtrace has: their link leads to whatever the
 * shell opened (`>> log`), which a rename would replace.  A symlink is followed, so its
 * target is replaced (or created, when it does not exist yet), not the link; but only where
 * the kernel would follow it (fs.protected_symlinks: not another user's link in a sticky,
 * world-writable directory such as /tmp), since the rename is done in user space.
 */
#ifndef MIGTRACE_ATOMIC_FILE_H
#define MIGTRACE_ATOMIC_FILE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Whether path is standard output: `-`, /dev/stdout, /dev/fd/1, /proc/self/fd/1. */
bool atomic_file_to_stdout(const char *path);

/* A file being written: f goes to a temporary beside path until atomic_file_commit(). */
struct atomic_file {
	FILE *f;
	bool direct;		/* `-`, a device or a FIFO: f is the target itself */
	char tmp[PATH_MAX];
	char path[PATH_MAX];	/* the file renamed over: a symlink's target */
	sigset_t saved_mask;	/* the signals blocked before the temporary existed */
};

/*
 * Checks, before any work is done, that path can be written: its directory exists and is
 * writable, and it is not a directory.  0 or -errno, with one line on stderr naming the path
 * and what to do.
 */
int atomic_file_check(const char *path);
/* The same, its messages starting with label (e.g. "migtrace calibrate: --json"). */
int atomic_file_check_named(const char *path, const char *label);
/* Creates the temporary (or opens a device, FIFO or stdout).  0 or -errno, with a message
 * on stderr naming the file and what to do.  A new file is created with 0666 less the umask
 * and, under sudo, given to the invoking user; a replaced one keeps its mode and owner.
 * While the temporary exists, SIGINT, SIGTERM, SIGHUP and SIGQUIT wait: one that kills
 * takes effect once it is renamed or removed, not with it left behind. */
int atomic_file_open(struct atomic_file *af, const char *path);
/* Flushes, syncs and renames the temporary over path; on any failure (including an earlier
 * write error on f) removes it instead.  Always closes f.  0 or -errno, with a message. */
int atomic_file_commit(struct atomic_file *af);
/* Closes f and removes the temporary: path is left as it was. */
void atomic_file_abort(struct atomic_file *af);
/* Writes len bytes of data to path atomically.  0 or -errno, with a message. */
int atomic_write_file(const char *path, const void *data, size_t len);

/*
 * What a path names, to tell whether an output would replace an input or another output:
 * the same file whatever the spelling (a symlink, `./`, a hard link), or, for a file not made
 * yet, the same place once its directory is resolved.  Written directly, `-`, a device or a
 * FIFO replaces nothing and is told apart only as standard output.
 */
enum atomic_file_kind {
	AF_NEW,			/* not there yet: path is where it will be made */
	AF_EXISTS,		/* a regular file or a directory: dev and ino say which */
	AF_STDOUT,		/* `-`, /dev/stdout, /dev/fd/1 */
	AF_DIRECT,		/* another device, FIFO or inherited descriptor */
};

struct atomic_file_id {
	enum atomic_file_kind kind;
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX];	/* resolved: links followed, the directory made absolute */
};

/* Fills id for path.  0, or -errno when it cannot be resolved (too long, a loop of links). */
int atomic_file_identify(const char *path, struct atomic_file_id *id);
/* Whether a and b are the same file (or place, when either is not there yet); AF_DIRECT
 * never is, AF_STDOUT always is another AF_STDOUT. */
bool atomic_file_same(const struct atomic_file_id *a, const struct atomic_file_id *b);

#endif
