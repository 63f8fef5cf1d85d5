// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing with gnuplot (gnuplot.h), for every plot migtrace makes: the run's and the sweep's.
 * gnuplot works in a temporary directory inside the output directory; only once it has drawn
 * everything are the images renamed out of it one by one, so a failure leaves no half-drawn
 * file behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"

/* A file in the temporary directory. */
FILE *gp_open_in(const char *tmp, const char *name, const char *mode)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", tmp, name) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, mode);
}

/* The terminal loop every plot is drawn in: once as PNG, once as SVG. */
void gp_begin(FILE *g, const char *name)
{
	fprintf(g, "do for [fmt in \"png svg\"] {\n"
		"  if (fmt eq \"png\") { set terminal pngcairo size %d,%d font \"sans,11\" } "
		"else { set terminal svg size %d,%d font \"sans,11\" background \"white\" }\n"
		"  set output \"%s.\".fmt\n", PLOT_W, PLOT_H, PLOT_W, PLOT_H, name);
}

void gp_end(FILE *g)
{
	fprintf(g, "  set output\n  reset\n}\n");
}

/* Runs gnuplot on plot.gp in tmp; its first error line goes to the message. */
static int run_gnuplot(const char *tmp, const char *label)
{
	char line[256] = "";
	int status, fd;
	FILE *e;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		fd = chdir(tmp) ? -1 : open("gnuplot.err", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(126);
		dup2(2, 1);
		execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	e = gp_open_in(tmp, "gnuplot.err", "r");
	while (e && fgets(line, sizeof(line), e) && strspn(line, " \t\n^") == strlen(line))
		;
	if (e)
		fclose(e);
	line[strcspn(line, "\n")] = '\0';
	fprintf(stderr, "%s: gnuplot failed (%s): %s\n", label,
		WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "not found in PATH" : "exit",
		*line ? line : "no message");
	return -EIO;
}

/* Empties and removes the temporary directory. */
static void remove_tmp(const char *tmp)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir(tmp);

	while (dir && (de = readdir(dir)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name) < (int)sizeof(path))
			unlink(path);
	if (dir)
		closedir(dir);
	rmdir(tmp);
}

/* Each image drawn, renamed into dir; under sudo, given to the user as atomic_file does. */
static int move_out(const char *tmp, const char *dir, const char *label,
		    const char *const *files, int nfiles)
{
	const char *uid = getenv("SUDO_UID"), *gid = getenv("SUDO_GID");
	char from[PATH_MAX], to[PATH_MAX];

	for (int i = 0; i < nfiles; i++) {
		if (snprintf(from, sizeof(from), "%s/%s", tmp, files[i]) >=
		    (int)sizeof(from) ||
		    snprintf(to, sizeof(to), "%s/%s", dir, files[i]) >= (int)sizeof(to)) {
			fprintf(stderr, "%s: path too long: %s\n", label, dir);
			return -ENAMETOOLONG;
		}
		if (access(from, F_OK))
			continue;	/* not drawn: the run has no data for it */
		chmod(from, 0644);
		if (geteuid() == 0 && uid && gid && chown(from, (uid_t)atol(uid),
							  (gid_t)atol(gid))) {
			/* a root-owned image is still an image: not worth failing */
		}
		if (rename(from, to)) {
			fprintf(stderr, "%s: renaming %s to %s failed: %s\n", label, from, to,
				strerror(errno));
			return -errno;
		}
	}
	return 0;
}

int gp_draw(const char *dir, const char *label, gp_write_fn write, const void *ctx,
	    const char *const *files, int nfiles)
{
	char tmp[PATH_MAX];
	FILE *g = NULL;
	int err;

	if (snprintf(tmp, sizeof(tmp), "%s/.migtrace-plot.XXXXXX", dir) >= (int)sizeof(tmp) ||
	    !mkdtemp(tmp)) {
		fprintf(stderr, "%s: cannot make a temporary directory in %s: %s\n", label, dir,
			strerror(errno));
		return -EIO;
	}
	g = gp_open_in(tmp, "plot.gp", "w");
	err = g ? 0 : -errno;
	if (!err)
		fprintf(g, "set encoding utf8\n");
	if (!err)
		err = write(tmp, g, ctx);
	if (g && fclose(g) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "%s: writing gnuplot's input in %s failed: %s\n", label, tmp,
			strerror(-err));
	if (!err)
		err = run_gnuplot(tmp, label);
	if (!err)
		err = move_out(tmp, dir, label, files, nfiles);
	remove_tmp(tmp);
	return err;
}
