/* SPDX-License-Identifier: GPL-2.0 */
/* Output files written whole or not at all: a temp file beside the target, then rename. */
#ifndef MIGTRACE_ATOMIC_FILE_H
#define MIGTRACE_ATOMIC_FILE_H
#ifdef __KERNEL__
#error "user/atomic_file.h is for user space"
#endif

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* A file being written: f goes to a temporary beside path until atomic_file_commit(). */
struct atomic_file {
	FILE *f;
	char tmp[PATH_MAX];
	char path[PATH_MAX];
};

/* Creates the temporary.  0 or -errno, with a message on stderr naming the file and what
 * to do. */
int atomic_file_open(struct atomic_file *af, const char *path);
/* Flushes, syncs and renames the temporary over path; on any failure (including an earlier
 * write error on f) removes it instead.  Always closes f.  0 or -errno, with a message. */
int atomic_file_commit(struct atomic_file *af);
/* Closes f and removes the temporary: path is left as it was. */
void atomic_file_abort(struct atomic_file *af);
/* Writes len bytes of data to path atomically.  0 or -errno, with a message. */
int atomic_write_file(const char *path, const void *data, size_t len);

#endif
