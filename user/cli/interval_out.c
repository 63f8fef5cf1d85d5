// SPDX-License-Identifier: GPL-2.0
/* Live intervals' output: text blocks, JSON lines, the textfile (interval_out.h). */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli.h"
#include "interval_out.h"
#include "render_export.h"
#include "render_interval.h"

int interval_out_check_dir(const char *dir)
{
	char probe[PATH_MAX];
	struct stat st;
	int fd, err;

	err = stat(dir, &st) ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (err) {
		mt_err("--textfile %s: %s (give node_exporter's --collector.textfile.directory, "
		       "which must exist)", dir, err == -ENOTDIR ? "not a directory" :
		       strerror(-err));
		return err;
	}
	if (snprintf(probe, sizeof(probe), "%s/.%s.XXXXXX", dir, TEXTFILE_NAME) >=
	    (int)sizeof(probe)) {
		mt_err("--textfile %s: the path is too long", dir);
		return -ENAMETOOLONG;
	}
	fd = mkstemp(probe);
	if (fd < 0) {
		err = -errno;
		mt_err("--textfile %s: cannot make a file in it: %s (run as a user who may write "
		       "there, or give another directory)", dir, strerror(-err));
		return err;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/*
 * The temporaries (.migtrace.prom.XXXXXX, mkstemp's six) of exporters killed between their
 * write and rename, removed by the directory's lock holder: no other live exporter writes
 * there.  node_exporter skips dotfiles, but each left one is kept forever.  How many.
 */
static int remove_dead_temporaries(int dirfd)
{
	static const char prefix[] = "." TEXTFILE_NAME ".";
	const size_t plen = sizeof(prefix) - 1;
	int fd = dup(dirfd), n = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, plen) && strlen(e->d_name) == plen + 6 &&
		    !unlinkat(dirfd, e->d_name, 0))
			n++;
	closedir(d);
	return n;
}

int interval_out_lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err, n;

	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		err = -errno;
		if (err == -EWOULDBLOCK)
			mt_err("--textfile %s: another migtrace writes %s there (two exporters on "
			       "one file make its counters go backwards): give each run its own "
			       "directory", dir, TEXTFILE_NAME);
		else
			mt_err("--textfile %s: cannot lock it: %s", dir, strerror(-err));
		if (fd >= 0)
			close(fd);
		return err == -EWOULDBLOCK ? -EBUSY : err;
	}
	n = remove_dead_temporaries(fd);
	if (n)
		fprintf(stderr, "migtrace: --textfile %s: removed %d temporar%s (." TEXTFILE_NAME
			".*) left by an exporter that was killed\n", dir, n, n == 1 ? "y" : "ies");
	return 0;	/* fd stays open, and the lock with it, until migtrace exits */
}

/*
 * The live exposition of r, rendered once into memory for both of its readers: published
 * for --listen's next scrapes (a failure is said, and they get the last one) and, with
 * --textfile, written to DIR/migtrace.prom atomically: a temporary .migtrace.prom.XXXXXX
 * beside it, which node_exporter does not read (a dotfile, not *.prom), renamed over it.
 * 0, or the textfile's -errno (said).
 */
static int expose(struct interval_out *o, const struct run *r, bool textfile)
{
	struct om_live live = {
		.last = o->has_last ? &o->last : NULL,
		.version = mt_cli_version(),
		.pids = o->has_last ? o->last.pids : NULL,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct atomic_file af;
	int err = f ? 0 : -ENOMEM;

	if (f) {
		render_openmetrics_live(f, r, &live);
		err = fclose(f) ? -ENOMEM : 0;
	}
	if (o->server && (err || metrics_server_publish(o->server, text, len)))
		mt_err("--listen %s: no room for the exposition: the scrapes get the last one",
		       o->listen.text);
	if (err && textfile)
		mt_err("--textfile %s: no room for the exposition", o->dir);
	if (!err && textfile && !(err = atomic_file_open(&af, o->path))) {
		fwrite(text, 1, len, af.f);
		err = atomic_file_commit(&af);
	}
	free(text);
	return textfile ? err : 0;
}

/* 0, or -EPIPE when the reader of the lines went away (SIGPIPE is ignored: main.c). */
static int print_interval(struct interval_out *o, const struct interval *iv,
			  const struct run *r)
{
	if (!o->text)
		return 0;
	if (o->json)
		render_interval_json(o->text, iv, r);
	else
		render_interval_text(o->text, iv, r, o->wall_clock);
	return fflush(o->text) == EOF && errno == EPIPE ? -EPIPE : 0;
}

int interval_out_event(void *ctx, enum interval_event ev, const struct interval *iv,
		       struct run *r)
{
	struct interval_out *o = ctx;
	int gone = 0, err;

	if (ev == INTERVAL_TICK) {
		o->last = *iv;
		o->has_last = true;
		gone = print_interval(o, iv, r);
	}
	if (!o->dir && !o->server)
		return gone;
	if (o->dir && ev == INTERVAL_REOPEN) {
		if (interval_out_check_dir(o->dir)) {
			expose(o, r, false);	/* the scrapes still get this interval's */
			return gone ? gone : -EIO;	/* said; the file tried at the next */
		}
		mt_info("SIGHUP: --textfile %s checked; writing %s", o->dir, o->path);
	}
	/* the exposition is made this interval too: the run's end makes it once more */
	err = expose(o, r, o->dir != NULL);
	return gone ? gone : err;
}

int interval_out_final(struct interval_out *o, const struct run *r)
{
	return o->dir || o->server ? expose(o, r, o->dir != NULL) : 0;
}
