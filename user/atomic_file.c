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

int atomic_write_file(const char *path, const void *data, size_t len)
{
	char tmp[4096], dirbuf[4096];
	const char *p = data;
	int fd = -1, err = 0;

	snprintf(dirbuf, sizeof(dirbuf), "%s", path);
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dirname(dirbuf),
		     strrchr(path, '/') ? strrchr(path, '/') + 1 : path) >= (int)sizeof(tmp)) {
		fprintf(stderr, "migtrace: output path too long: %s\n", path);
		return -ENAMETOOLONG;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "migtrace: cannot create a temporary file beside %s: %s "
			"(check that the directory exists and is writable)\n", path, strerror(-err));
		return err;
	}
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			fprintf(stderr, "migtrace: writing %s failed: %s\n", tmp, strerror(-err));
			goto cleanup;
		}
		p += n;
		len -= (size_t)n;
	}
	/* Readable like any file the user writes; mkstemp made it 0600. */
	if (fchmod(fd, 0644) || fsync(fd)) {
		err = -errno;
		fprintf(stderr, "migtrace: finishing %s failed: %s\n", tmp, strerror(-err));
		goto cleanup;
	}
	if (close(fd)) {
		fd = -1;
		err = -errno;
		fprintf(stderr, "migtrace: closing %s failed: %s\n", tmp, strerror(-err));
		goto cleanup;
	}
	fd = -1;
	if (rename(tmp, path)) {
		err = -errno;
		fprintf(stderr, "migtrace: renaming %s to %s failed: %s\n", tmp, path,
			strerror(-err));
	}
cleanup:
	if (fd >= 0)
		close(fd);
	if (err)
		unlink(tmp);
	return err;
}
