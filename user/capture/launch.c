// SPDX-License-Identifier: GPL-2.0
/*
 * The workload is forked before the BPF programs load, pins itself, and blocks on a pipe;
 * migtrace adds its pid to the traced set, attaches, then writes one byte.  An exec failure
 * comes back through a close-on-exec pipe, so "not found" is told apart from a workload that
 * itself exits 127.
 *
 * PR_SET_PDEATHSIG reaches only the workload's first process: what it starts (the sleep of
 * `sh -c 'sleep 30; echo x'`) would outlive a SIGKILLed migtrace, orphaned and untraced.  So
 * a guard, a small child of migtrace outside the workload's group that holds nothing but
 * one end of a pipe, waits for migtrace's end and, unless dismissed first, kills the group.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpf_util.h"
#include "launch.h"

static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return access(path, X_OK) ? -errno : 0;
}

int launch_resolve(const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char *dirs, *dir, *save = NULL;
	int err = -ENOENT;

	if (!name || !*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return executable(path);
	}
	dirs = strdup(env && *env ? env : "/usr/local/bin:/usr/bin:/bin");
	if (!dirs)
		return -ENOMEM;
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		int e;

		snprintf(path, len, "%s/%s", *dir ? dir : ".", name);
		e = executable(path);
		if (!e) {
			err = 0;
			break;
		}
		if (e == -EACCES)
			err = e;	/* keep looking, but remember why one was refused */
	}
	free(dirs);
	return err;
}

/* SIGPIPE and SIGXFSZ as migtrace was given them: what a launched workload gets back. */
static struct sigaction given[2];
static const int write_signals[2] = { SIGPIPE, SIGXFSZ };

void launch_ignore_signals(void)
{
	for (int i = 0; i < 2; i++) {
		sigaction(write_signals[i], NULL, &given[i]);
		signal(write_signals[i], SIG_IGN);
	}
}

void launch_guard_detach(int fd)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };

	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	setsid();	/* fails only for a group leader, which a forked child is not */
	if (fd > 0)
		close_range(0, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
}

/*
 * The guard's whole life: detached (launch_guard_detach), then one read.  'd': migtrace
 * dismissed it.  EOF: migtrace ended without doing so (killed), and the workload's group
 * goes with it.
 */
static void guard_main(int fd, pid_t pgid)
{
	ssize_t n;
	char c;

	launch_guard_detach(fd);
	do {
		n = read(fd, &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1 || c != 'd')
		kill(-pgid, SIGKILL);
	_exit(0);
}

/* Starts the guard of the group l->pid leads.  0, or -1 with errno set. */
static int guard_start(struct launch *l)
{
	int p[2], err;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	l->guard = fork();
	if (l->guard == 0)
		guard_main(p[0], l->pid);
	err = errno;
	close(p[0]);
	if (l->guard < 0) {
		close(p[1]);
		errno = err;
		return -1;
	}
	l->guard_fd = p[1];
	return 0;
}

void launch_dismiss_guard(struct launch *l)
{
	ssize_t n;

	if (l->guard <= 0)
		return;
	n = write(l->guard_fd, "d", 1);
	(void)n;	/* a guard already gone has nothing left to do */
	close(l->guard_fd);
	waitpid(l->guard, NULL, 0);
	l->guard = -1;
	l->guard_fd = -1;
}

static void child_fail(int err_fd, int err)
{
	ssize_t n = write(err_fd, &err, sizeof(err));

	(void)n;
	_exit(127);
}

int launch_fork(struct launch *l, const char *path, char *const argv[],
		const struct cpu_set_list *cpus, const char *user, bool stdout_to_stderr,
		const struct launch_fd *pass)
{
	int go[2] = { -1, -1 }, report[2] = { -1, -1 };
	struct passwd *pw = NULL;
	pid_t parent;
	char c;

	memset(l, 0, sizeof(*l));
	l->pid = l->guard = -1;
	l->go_fd = l->err_fd = l->guard_fd = -1;
	if (user) {
		errno = 0;
		pw = getpwnam(user);
		if (!pw) {
			fprintf(stderr, "migtrace: --user %s: no such user\n", user);
			return errno ? -errno : -ENOENT;
		}
	}
	if (pipe2(go, O_CLOEXEC) || pipe2(report, O_CLOEXEC))
		goto fail;
	parent = getpid();
	l->pid = fork();
	if (l->pid < 0)
		goto fail;
	if (l->pid == 0) {
		cpu_set_t set;

		close(go[1]);
		close(report[0]);
		/* Its own process group, so that signals and --duration reach everything it
		 * starts; and it dies with migtrace, even by SIGKILL (which leaves no chance
		 * to clean up), instead of running on untraced. */
		setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		CPU_ZERO(&set);
		for (int i = 0; i < cpus->n; i++)
			CPU_SET(cpus->cpu[i], &set);
		if (cpus->n && sched_setaffinity(0, sizeof(set), &set))
			child_fail(report[1], errno);
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			child_fail(report[1], errno);
		for (int i = 0; i < 2; i++)
			sigaction(write_signals[i], &given[i], NULL);
		if (pass) {
			char num[16];

			/* migtrace is single-threaded: setenv() between fork and exec is safe */
			snprintf(num, sizeof(num), "%d", pass->fd);
			if (fcntl(pass->fd, F_SETFD, 0) || setenv(pass->env, num, 1))
				child_fail(report[1], errno);
		}
		/* The barrier: EOF means migtrace died before releasing us. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (pw && (initgroups(pw->pw_name, pw->pw_gid) || setgid(pw->pw_gid) ||
			   setuid(pw->pw_uid)))
			child_fail(report[1], errno);
		mt_nofile_reset();	/* the limits it was given, not the tracer's */
		/* CAP_BPF and CAP_PERFMON given to migtrace as ambient capabilities are the
		 * tracer's: the workload runs without them (harmless where there are none) */
		prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
		execv(path, argv);
		child_fail(report[1], errno);
	}
	setpgid(l->pid, l->pid);	/* also here: whichever runs first, the group exists */
	close(go[0]);
	close(report[1]);
	l->go_fd = go[1];
	l->err_fd = report[0];
	go[0] = go[1] = report[0] = report[1] = -1;	/* closed, or l's now */
	/* the workload is held at its barrier: without a guard it is not started at all */
	if (guard_start(l))
		goto fail;
	return 0;
fail:
	{
		int err = -errno;

		for (int i = 0; i < 2; i++) {
			if (go[i] >= 0)
				close(go[i]);
			if (report[i] >= 0)
				close(report[i]);
		}
		launch_abort(l);	/* a workload already forked: killed at its barrier */
		fprintf(stderr, "migtrace: starting the workload failed: %s\n", strerror(-err));
		return err;
	}
}

int launch_release(struct launch *l)
{
	int child_err = 0;
	ssize_t n;

	if (write(l->go_fd, "g", 1) != 1) {
		int err = -errno;

		fprintf(stderr, "migtrace: releasing the workload failed: %s\n", strerror(-err));
		return err;
	}
	close(l->go_fd);
	l->go_fd = -1;
	do {
		n = read(l->err_fd, &child_err, sizeof(child_err));
	} while (n < 0 && errno == EINTR);
	close(l->err_fd);
	l->err_fd = -1;
	return n == sizeof(child_err) ? -child_err : 0;
}

int launch_signal(const struct launch *l, int sig)
{
	if (l->pid <= 0)
		return -ESRCH;
	/* the group, or the child alone if it has not made its group yet */
	if (kill(-l->pid, sig) && kill(l->pid, sig))
		return -errno;
	return 0;
}

/* The state letter in a /proc stat file; 0 when it cannot be read (the task is gone). */
static char stat_state(const char *path)
{
	char buf[512], *close_paren;
	FILE *f;
	size_t n;

	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "pid (comm) S ...": comm may hold spaces and parentheses, the last ')' ends it */
	close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' ? close_paren[2] : 0;
}

char launch_process_state(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return stat_state(path);
}

bool launch_process_alive(pid_t pid)
{
	char state = launch_process_state(pid), path[64];
	bool alive = false;
	struct dirent *e;
	DIR *d;

	if (!state || state == 'X')
		return false;
	if (state != 'Z')
		return true;
	/* A leader that called pthread_exit() is a zombie while its other threads run on. */
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!alive && (e = readdir(d))) {
		char task[64 + sizeof(e->d_name)], s;

		if (e->d_name[0] == '.')
			continue;
		snprintf(task, sizeof(task), "/proc/%d/task/%s/stat", (int)pid, e->d_name);
		s = stat_state(task);
		alive = s && s != 'Z' && s != 'X';
	}
	closedir(d);
	return alive;
}

pid_t launch_tgid_of(pid_t tid)
{
	char path[64], line[256];
	long tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %ld", &tgid) == 1)
			break;
	fclose(f);
	return (pid_t)tgid;
}

/* The initial pid namespace's inode number: fixed (PROC_PID_INIT_INO, include/linux/proc_ns.h). */
#define PID_NS_INIT_INO 0xEFFFFFFCu

int launch_in_child_pid_ns(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st))
		return -1;
	return st.st_ino != PID_NS_INIT_INO;
}

void launch_abort(struct launch *l)
{
	if (l->pid > 0) {
		launch_signal(l, SIGKILL);
		waitpid(l->pid, NULL, 0);
		l->pid = -1;
	}
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->err_fd >= 0)
		close(l->err_fd);
	l->go_fd = l->err_fd = -1;
	launch_dismiss_guard(l);
}

int launch_exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
