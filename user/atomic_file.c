// SPDX-License-Identifier: GPL-2.0
/* Atomic output: mkstemp in the target's directory, write, fsync, rename over the target. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

int atomic_file_open(struct atomic_file *af, const char *path)
{
	char dirbuf[PATH_MAX];
	int fd, err;

	af->f = NULL;
	snprintf(af->path, sizeof(af->path), "%s", path);
	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	if (snprintf(af->tmp, sizeof(af->tmp), "%s/.%s.XXXXXX", dirname(dirbuf),
		     strrchr(path, '/') ? strrchr(path, '/') + 1 : path) >= (int)sizeof(af->tmp)) {
		fprintf(stderr, "migtrace: output path too long: %s\n", path);
		return -ENAMETOOLONG;
	}
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "migtrace: cannot create a temporary file beside %s: %s "
			"(check that the directory exists and is writable)\n", path, strerror(-err));
		return err;
	}
	/* Readable like any file the user writes; mkstemp made it 0600. */
	af->f = fchmod(fd, 0644) ? NULL : fdopen(fd, "w");
	if (!af->f) {
		err = -errno;
		fprintf(stderr, "migtrace: opening %s failed: %s\n", af->tmp, strerror(-err));
		close(fd);
		unlink(af->tmp);
		return err;
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af)
{
	int err = 0;

	if (fflush(af->f) || fsync(fileno(af->f)))
		err = -errno;
	else if (ferror(af->f))
		err = -EIO;	/* an earlier write failed */
	if (err) {
		fprintf(stderr, "migtrace: writing %s failed: %s (is the disk full?)\n", af->tmp,
			strerror(-err));
	}
	if (fclose(af->f) && !err) {
		err = -errno;
		fprintf(stderr, "migtrace: closing %s failed: %s\n", af->tmp, strerror(-err));
	}
	af->f = NULL;
	if (!err && rename(af->tmp, af->path)) {
		err = -errno;
		fprintf(stderr, "migtrace: renaming %s to %s failed: %s\n", af->tmp, af->path,
			strerror(-err));
	}
	if (err)
		unlink(af->tmp);
	return err;
}

void atomic_file_abort(struct atomic_file *af)
{
	fclose(af->f);
	af->f = NULL;
	unlink(af->tmp);
}

int atomic_write_file(const char *path, const void *data, size_t len)
{
	struct atomic_file af;
	int err = atomic_file_open(&af, path);

	if (err)
		return err;
	fwrite(data, 1, len, af.f);
	return atomic_file_commit(&af);
}
