// SPDX-License-Identifier: GPL-2.0
/* Saving a run file atomically (run_output.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "run_file.h"
#include "run_output.h"

int run_output_save(const char *path, const struct run *r, const char *cmd)
{
	struct atomic_file af;
	int err = atomic_file_open(&af, path);

	if (err)
		return err;
	err = run_file_write(af.f, r);
	if (err) {
		fprintf(stderr, "%s: writing %s failed: %s\n", cmd,
			!strcmp(path, "-") ? "stdout" : path, strerror(-err));
		atomic_file_abort(&af);
		return err;
	}
	return atomic_file_commit(&af);
}
