// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic output: mkstemp in the target's directory, write, fsync, rename over the target;
 * devices, FIFOs and stdout are written directly (see atomic_file.h for why).  Also what a
 * path names once resolved, so that the commands can refuse an output that is their input
 * or another output before any work.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

/* The invoking user under sudo: new output files are theirs, not root's. */
static void give_to_sudo_user(int fd)
{
	const char *uid = getenv("SUDO_UID"), *gid = getenv("SUDO_GID");
	char *end;
	long u, g;

	if (geteuid() != 0 || !uid || !gid)
		return;
	u = strtol(uid, &end, 10);
	if (*end || u < 0)
		return;
	g = strtol(gid, &end, 10);
	if (*end || g < 0)
		return;
	if (fchown(fd, (uid_t)u, (gid_t)g))
		return;	/* a root-owned file is still a file: not worth failing the run */
}

/* fs.protected_symlinks as the kernel has it; unreadable, it is taken as on: the safe side. */
static bool protected_symlinks(void)
{
	FILE *f = fopen("/proc/sys/fs/protected_symlinks", "re");
	int on = 1;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 1;
		fclose(f);
	}
	return on != 0;
}

/*
 * Whether the kernel would let us follow the link lst in directory dir (fs/namei.c,
 * may_follow_link): always with fs.protected_symlinks off; else a link we own, one in a
 * directory that is not both sticky and world-writable, or one owned by the directory's
 * owner.  The rename over a link's target is done in user space, where the kernel never
 * applies the rule: a link another user planted in /tmp would have root overwrite whatever
 * it points at.  So the rule is applied here, link by link.  0, or -EACCES with why.
 */
static int may_follow(const char *link, const char *dir, const struct stat *lst, char *why,
		      size_t len)
{
	struct stat dst;

	if (!protected_symlinks() || lst->st_uid == geteuid())
		return 0;
	if (stat(dir, &dst) == 0 && ((dst.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH) ||
				     dst.st_uid == lst->st_uid))
		return 0;
	snprintf(why, len, "%s is a symbolic link owned by uid %u in the sticky, world-writable "
		 "directory %s: not followed, as fs.protected_symlinks=1 has the kernel refuse it "
		 "to anyone but its owner (remove the link, or give another path)", link,
		 (unsigned)lst->st_uid, dir);
	return -EACCES;
}

/*
 * The path to write, as the kernel would resolve it: every symbolic link followed (so that
 * the rename replaces the file, not the link), also a link to a file not made yet (ln -s
 * results/run.json), which is created where the link points; and every link checked as the
 * kernel checks it (may_follow).  A component that does not exist ends the walk: the rest is
 * kept as spelled, for the caller to find its directory missing.  0 or -errno; on -EACCES,
 * why says which link was refused.
 */
static int resolve(const char *path, char *out, size_t len, char *why, size_t wlen)
{
	char done[PATH_MAX], todo[PATH_MAX], rest[PATH_MAX], link[PATH_MAX], cand[PATH_MAX];
	int hops = 0, err;
	struct stat lst;
	ssize_t n;

	snprintf(why, wlen, "%s", strerror(ENAMETOOLONG));
	done[0] = '\0';
	if (path[0] != '/' && !getcwd(done, sizeof(done)))
		return -errno;
	if (!strcmp(done, "/"))
		done[0] = '\0';
	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return -ENAMETOOLONG;
	while (todo[0]) {
		char *c = todo, *slash;

		while (*c == '/')
			c++;
		slash = strchr(c, '/');
		snprintf(rest, sizeof(rest), "%s", slash ? slash + 1 : "");
		if (slash)
			*slash = '\0';
		if (!*c || !strcmp(c, ".")) {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (!strcmp(c, "..")) {
			*(strrchr(done, '/') ? strrchr(done, '/') : done) = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (snprintf(cand, sizeof(cand), "%s/%s", done, c) >= (int)sizeof(cand))
			return -ENAMETOOLONG;
		if (lstat(cand, &lst)) {
			if (errno != ENOENT)
				return -errno;
			/* not made yet: named as spelled from here on */
			if (snprintf(done, sizeof(done), "%s%s%s", cand, rest[0] ? "/" : "", rest) >=
			    (int)sizeof(done))
				return -ENAMETOOLONG;
			break;
		}
		if (!S_ISLNK(lst.st_mode)) {
			memcpy(done, cand, sizeof(done));
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (++hops > 40) {	/* as the kernel's limit on a path's links */
			snprintf(why, wlen, "%s", strerror(ELOOP));
			return -ELOOP;
		}
		err = may_follow(cand, done[0] ? done : "/", &lst, why, wlen);
		if (err)
			return err;
		n = readlink(cand, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		if (link[0] == '/')
			done[0] = '\0';
		if (snprintf(todo, sizeof(todo), "%s%s%s", link, rest[0] ? "/" : "", rest) >=
		    (int)sizeof(todo))
			return -ENAMETOOLONG;
	}
	if (snprintf(out, len, "%s", done[0] ? done : "/") >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* The descriptor a path names when it is one migtrace already has (/dev/stdout: 1), or -1. */
static int atomic_file_inherited_fd(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/",
						"/proc/thread-self/fd/" };
	char own[32], *end;
	long fd = -1;

	if (!strcmp(path, "/dev/stdout"))
		fd = STDOUT_FILENO;
	else if (!strcmp(path, "/dev/stderr"))
		fd = STDERR_FILENO;
	snprintf(own, sizeof(own), "/proc/%d/fd/", (int)getpid());
	for (size_t i = 0; fd < 0 && i <= sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		const char *p = i < sizeof(prefixes) / sizeof(prefixes[0]) ? prefixes[i] : own;

		if (strncmp(path, p, strlen(p)) || !path[strlen(p)])
			continue;
		fd = strtol(path + strlen(p), &end, 10);
		if (*end || fd < 0 || fd > INT_MAX)
			fd = -1;
	}
	return fd >= 0 && fcntl((int)fd, F_GETFD) >= 0 ? (int)fd : -1;
}

bool atomic_file_to_stdout(const char *path)
{
	return path && (!strcmp(path, "-") || atomic_file_inherited_fd(path) == STDOUT_FILENO);
}

int atomic_file_check_named(const char *path, const char *label)
{
	char dirbuf[PATH_MAX], why[PATH_MAX + 256];
	struct stat st;
	const char *dir;
	int fd, err;

	if (!strcmp(path, "-"))
		return 0;
	fd = atomic_file_inherited_fd(path);
	if (fd >= 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY) {
		fprintf(stderr, "%s: cannot write %s: descriptor %d is open for reading only "
			"(open it for writing: %d>FILE)\n", label, path, fd, fd);
		return -EBADF;
	}
	if (fd >= 0)
		return 0;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "%s: %s is a directory: name a file in it\n", label, path);
			return -EISDIR;
		}
		if (!S_ISREG(st.st_mode) && access(path, W_OK)) {
			int err = -errno;

			fprintf(stderr, "%s: cannot write %s: %s\n", label, path, strerror(-err));
			return err;
		}
		if (!S_ISREG(st.st_mode))
			return 0;
	}
	/* the directory the file will be made in: a dangling link's, where it points */
	if ((err = resolve(path, dirbuf, sizeof(dirbuf), why, sizeof(why)))) {
		fprintf(stderr, "%s: cannot write %s: %s\n", label, path,
			err == -EACCES ? why : strerror(-err));
		return err;
	}
	dir = dirname(dirbuf);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: cannot write %s: directory %s does not exist (create it "
			"first)\n", label, path, dir);
		return -ENOENT;
	}
	if (access(dir, W_OK)) {
		int err = -errno;

		fprintf(stderr, "%s: cannot write %s: directory %s is not writable (%s)\n",
			label, path, dir, strerror(-err));
		return err;
	}
	return 0;
}

int atomic_file_check(const char *path)
{
	return atomic_file_check_named(path, "migtrace");
}

/*
 * `-`, a descriptor migtrace inherited (/dev/stdout), a character device, a FIFO or a
 * socket: written in place, never renamed over.  An inherited descriptor is written through
 * a duplicate, not opened again: that would truncate what `>> log` appends to.
 */
static int open_direct(struct atomic_file *af, const char *path, int inherited)
{
	int err, fd = -1;

	af->direct = true;
	snprintf(af->path, sizeof(af->path), "%s", path);
	if (!strcmp(path, "-") || inherited == STDOUT_FILENO) {
		af->f = stdout;
		return 0;
	}
	if (inherited >= 0) {
		fd = fcntl(inherited, F_DUPFD_CLOEXEC, 3);
		af->f = fd < 0 ? NULL : fdopen(fd, "w");
	} else {
		af->f = fopen(path, "we");
	}
	if (!af->f) {
		err = -errno;
		fprintf(stderr, "migtrace: opening %s failed: %s\n", path, strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	return 0;
}

/*
 * The signals that end migtrace by default wait while the temporary exists: calibrate and
 * report have no handler, and a SIGHUP between mkstemp and rename left .NAME.XXXXXX behind.
 */
static void hold_signals(struct atomic_file *af)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, &af->saved_mask);
}

/* After the rename or the removal: a signal that came meanwhile is delivered now. */
static void release_signals(struct atomic_file *af)
{
	sigprocmask(SIG_SETMASK, &af->saved_mask, NULL);
}

int atomic_file_open(struct atomic_file *af, const char *path)
{
	char dirbuf[PATH_MAX], target[PATH_MAX], why[PATH_MAX + 256];
	struct stat st;
	bool exists;
	mode_t mask;
	int fd, err;

	memset(af, 0, sizeof(*af));
	fd = atomic_file_inherited_fd(path);
	if (!strcmp(path, "-") || fd >= 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
					     !S_ISDIR(st.st_mode)))
		return open_direct(af, path, fd);
	if ((err = resolve(path, target, sizeof(target), why, sizeof(why)))) {
		fprintf(stderr, "migtrace: cannot write %s: %s\n", path,
			err == -EACCES ? why : strerror(-err));
		return err;
	}
	if (snprintf(dirbuf, sizeof(dirbuf), "%s", target) >= (int)sizeof(dirbuf) ||
	    snprintf(af->tmp, sizeof(af->tmp), "%s/.%s.XXXXXX", dirname(dirbuf),
		     strrchr(target, '/') ? strrchr(target, '/') + 1 : target) >=
		    (int)sizeof(af->tmp)) {
		fprintf(stderr, "migtrace: output path too long: %s\n", path);
		return -ENAMETOOLONG;
	}
	snprintf(af->path, sizeof(af->path), "%s", target);
	exists = stat(target, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "migtrace: %s is a directory: name a file in it\n", path);
		return -EISDIR;
	}
	hold_signals(af);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		err = -errno;
		release_signals(af);
		fprintf(stderr, "migtrace: cannot create a temporary file beside %s: %s "
			"(check that the directory exists and is writable)\n", path, strerror(-err));
		return err;
	}
	/* mkstemp made it 0600: a replaced file keeps its mode and owner, a new one gets what
	 * the umask allows, and under sudo belongs to the user who ran sudo. */
	mask = umask(0);
	umask(mask);
	if (exists) {
		err = fchmod(fd, st.st_mode & 07777);
		if (!err && geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid))
			err = -1;
	} else {
		err = fchmod(fd, 0666 & ~mask);
		give_to_sudo_user(fd);
	}
	af->f = err ? NULL : fdopen(fd, "w");
	if (!af->f) {
		err = -errno;
		fprintf(stderr, "migtrace: preparing %s failed: %s\n", af->tmp, strerror(-err));
		close(fd);
		unlink(af->tmp);
		release_signals(af);
		return err;
	}
	return 0;
}

static int commit_direct(struct atomic_file *af)
{
	int err = 0;

	if (fflush(af->f))
		err = -errno;
	else if (ferror(af->f))
		err = -EIO;
	if (af->f != stdout && fclose(af->f) && !err)
		err = -errno;
	af->f = NULL;
	if (err)
		fprintf(stderr, "migtrace: writing %s failed: %s%s\n",
			!strcmp(af->path, "-") ? "stdout" : af->path, strerror(-err),
			err == -EPIPE ? " (the reader went away)" : "");
	return err;
}

int atomic_file_commit(struct atomic_file *af)
{
	int err = 0;

	if (af->direct)
		return commit_direct(af);
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
	release_signals(af);
	return err;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->direct) {
		if (af->f != stdout)
			fclose(af->f);
		af->f = NULL;
		return;
	}
	fclose(af->f);
	af->f = NULL;
	unlink(af->tmp);
	release_signals(af);
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

/*
 * path made absolute, its links followed as far as it exists; the part not made yet is
 * appended as spelled (out/run.json with no out/ yet: $PWD/out/run.json).
 */
static int canonical(const char *path, char *out, size_t len)
{
	char target[PATH_MAX], dirbuf[PATH_MAX], basebuf[PATH_MAX], why[PATH_MAX + 256];
	const char *dir, *base;
	char *real;
	int err;

	/* a link refused here was refused, and said so, by the output's own check */
	if ((err = resolve(path, target, sizeof(target), why, sizeof(why))))
		return err;
	real = realpath(target, NULL);
	if (real) {
		err = snprintf(out, len, "%s", real) >= (int)len ? -ENAMETOOLONG : 0;
		free(real);
		return err;
	}
	snprintf(dirbuf, sizeof(dirbuf), "%s", target);
	snprintf(basebuf, sizeof(basebuf), "%s", target);
	dir = dirname(dirbuf);
	base = basename(basebuf);
	/* "." or "/" that realpath cannot read (a removed working directory): as spelled */
	if (!strcmp(dir, target))
		return snprintf(out, len, "%s", target) >= (int)len ? -ENAMETOOLONG : 0;
	if ((err = canonical(dir, out, len)))
		return err;
	if (snprintf(out + strlen(out), len - strlen(out), "%s%s",
		     strcmp(out, "/") ? "/" : "", base) >= (int)(len - strlen(out)))
		return -ENAMETOOLONG;
	return 0;
}

int atomic_file_identify(const char *path, struct atomic_file_id *id)
{
	struct stat st;
	bool exists;

	memset(id, 0, sizeof(*id));
	snprintf(id->path, sizeof(id->path), "%s", path);
	if (atomic_file_to_stdout(path)) {
		id->kind = AF_STDOUT;
		return 0;
	}
	exists = stat(path, &st) == 0;
	if (atomic_file_inherited_fd(path) >= 0 ||
	    (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
		id->kind = AF_DIRECT;
		return 0;
	}
	id->kind = exists ? AF_EXISTS : AF_NEW;
	id->dev = exists ? st.st_dev : 0;
	id->ino = exists ? st.st_ino : 0;
	return canonical(path, id->path, sizeof(id->path));
}

bool atomic_file_same(const struct atomic_file_id *a, const struct atomic_file_id *b)
{
	if (a->kind == AF_DIRECT || b->kind == AF_DIRECT)
		return false;
	if (a->kind == AF_STDOUT || b->kind == AF_STDOUT)
		return a->kind == b->kind;
	if (a->kind == AF_EXISTS && b->kind == AF_EXISTS)
		return a->dev == b->dev && a->ino == b->ino;
	return !strcmp(a->path, b->path);
}
