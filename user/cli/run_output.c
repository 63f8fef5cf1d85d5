// SPDX-License-Identifier: GPL-2.0
/* Saving a run file or a calibration file atomically (run_output.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "calib_file.h"
#include "gz_stream.h"
#include "run_file.h"
#include "run_output.h"

/* Writes obj with write to path, whole or not at all; gzipped when gz. */
static int save(const char *path, const char *cmd, int (*write)(FILE *, const void *),
		const void *obj, bool gz)
{
	struct atomic_file af;
	FILE *z = NULL;
	int err = atomic_file_open(&af, path);

	if (err)
		return err;
	if (gz && !(z = gz_fopen_write(af.f)))
		err = -ENOMEM;
	if (!err)
		err = write(z ? z : af.f, obj);
	/* the gzip trailer is written as the stream closes */
	if (z && fclose(z) && !err)
		err = -EIO;
	if (err) {
		fprintf(stderr, "%s: writing %s failed: %s\n", cmd,
			!strcmp(path, "-") ? "stdout" : path, strerror(-err));
		atomic_file_abort(&af);
		return err;
	}
	return atomic_file_commit(&af);
}

static int write_run(FILE *f, const void *r)
{
	return run_file_write(f, r);
}

static int write_calibration(FILE *f, const void *c)
{
	return calib_file_write(f, c);
}

int run_output_save(const char *path, const struct run *r, const char *cmd)
{
	/* run.json.gz: gzipped, which report reads as it is */
	return save(path, cmd, write_run, r, gz_path(path));
}

int calib_output_save(const char *path, const struct calibration *c, const char *cmd)
{
	return save(path, cmd, write_calibration, c, false);
}
