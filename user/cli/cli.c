// SPDX-License-Identifier: GPL-2.0
/*
 * argp prints a usage error as two lines, the message and "Try `PROG --help' or `PROG
 * --usage' for more information."; migtrace's contract is one line naming the option and
 * the token.  A stream that passes everything to stderr except that hint keeps argp's own
 * errors (unknown option, missing argument) and ours to one line, without replacing argp.
 *
 * An option with a value given twice (-o a.json -o b.json) is refused too: the last one
 * would win without a word, and the first was meant for something.  So is an output that
 * would replace an input or another output (`report -o r.json r.json`, where -o is the text
 * but is the run file in `run`): the rename would succeed and the data be gone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "atomic_file.h"
#include "cli.h"
#include "status.h"

static char line[1024];
static size_t used;
static int in_hint;	/* inside the hint, which argp wraps at 79 columns */

static void emit_line(void)
{
	if (!strncmp(line, "Try `", 5))
		in_hint = 1;
	if (!in_hint)
		fwrite(line, 1, used, stderr);
	else if (memmem(line, used, "information.", 12))
		in_hint = 0;
	used = 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	for (size_t i = 0; i < size; i++) {
		if (used == sizeof(line))
			emit_line();	/* a very long line: pass it on in pieces */
		line[used++] = buf[i];
		if (buf[i] == '\n')
			emit_line();
	}
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	(void)cookie;
	if (used)
		emit_line();
	return 0;
}

FILE *mt_cli_err_stream(void)
{
	static FILE *f;
	cookie_io_functions_t io = { .write = filter_write, .close = filter_close };

	if (!f) {
		f = fopencookie(NULL, "w", io);
		if (!f)
			return stderr;
		setvbuf(f, NULL, _IONBF, 0);
	}
	return f;
}

/* An option's name as --help shows it, in argp or one of its children; NULL if none. */
static const char *option_name(const struct argp *a, int key)
{
	const char *name = NULL;

	for (const struct argp_option *o = a->options; o && (o->name || o->key || o->doc); o++)
		if (o->key == key && o->name)
			return o->name;
	for (const struct argp_child *c = a->children; c && c->argp && !name; c++)
		name = option_name(c->argp, key);
	return name;
}

void mt_cli_once(struct argp_state *state, int key, const char *arg)
{
	static struct { int key; const char *arg; } seen[64];
	static char **argv;	/* of the parse seen[] belongs to */
	static int nseen;
	const char *name;

	/* values of options only: not arguments, not argp's own keys, not flags such as -v */
	if (!arg || key == ARGP_KEY_ARG || key >= ARGP_KEY_END)
		return;
	if (state->argv != argv) {
		argv = state->argv;
		nseen = 0;
	}
	for (int i = 0; i < nseen; i++) {
		if (seen[i].key != key)
			continue;
		name = option_name(state->root_argp, key);
		if (name)
			argp_error(state, "--%s given twice ('%s', then '%s'): give it once", name,
				   seen[i].arg, arg);
		else
			argp_error(state, "-%c given twice ('%s', then '%s'): give it once", key,
				   seen[i].arg, arg);
		return;
	}
	if (nseen < (int)(sizeof(seen) / sizeof(seen[0])))
		seen[nseen++] = (typeof(seen[0])){ key, arg };
}

bool mt_cli_common(struct argp_state *state, int key, const char *arg, void *child_input)
{
	mt_cli_once(state, key, arg);
	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = mt_cli_err_stream();
		if (child_input)
			state->child_inputs[0] = child_input;
		return true;
	case 'v':
		mt_verbose++;
		return true;
	default:
		return false;
	}
}

bool mt_cli_looks_like_cpus(const char *arg)
{
	return *arg && strspn(arg, "0123456789,-") == strlen(arg);
}

void mt_cli_old_cpus(struct argp_state *state, const char *arg)
{
	argp_error(state, "-c %s: the CPU list is -C/--cpus now (give --cpus %s); -c is run's "
		   "--cgroup", arg, arg);
}

/* A path and what it names: itself, and for a directory output each file it writes there. */
struct named {
	const struct mt_cli_path *p;
	struct atomic_file_id id;
	struct atomic_file_id file[MT_CLI_DIR_FILES];
};

/* Whether b is one of the files directory output a writes; which one in *k. */
static bool in_dir(const struct named *a, const struct named *b, int *k)
{
	if (a->p->role != MT_PATH_DIR || b->p->role == MT_PATH_DIR)
		return false;
	for (*k = 0; *k < a->p->nfiles; (*k)++)
		if (atomic_file_same(&a->file[*k], &b->id))
			return true;
	return false;
}

/* One line on why a and b (a listed first) cannot both be; 0 when they can. */
static int clash(const char *cmd, const struct named *a, const struct named *b)
{
	const struct mt_cli_path *x = a->p, *y = b->p;
	int k;

	if (x->role == MT_PATH_INPUT && y->role == MT_PATH_INPUT)
		return 0;	/* a file compared with itself is only read */
	if (atomic_file_same(&a->id, &b->id)) {
		if (a->id.kind == AF_STDOUT)
			fprintf(stderr, "%s: %s %s and %s %s both write to standard output: give "
				"one of them a file\n", cmd, x->option, x->path, y->option, y->path);
		else if (x->role == MT_PATH_INPUT)
			fprintf(stderr, "%s: %s %s would replace the %s %s it reads: give it "
				"another path\n", cmd, y->option, y->path, x->option, x->path);
		else if (x->role == MT_PATH_DIR && y->role == MT_PATH_DIR)
			fprintf(stderr, "%s: %s %s and %s %s are the same directory: give each "
				"its own\n", cmd, x->option, x->path, y->option, y->path);
		else
			fprintf(stderr, "%s: %s %s and %s %s are the same %s: one would replace "
				"the other; give each its own path\n", cmd, x->option, x->path,
				y->option, y->path, x->role == MT_PATH_DIR ||
				y->role == MT_PATH_DIR ? "path" : "file");
		return MT_EXIT_USAGE;
	}
	if (in_dir(a, b, &k) || in_dir(b, a, &k)) {
		const struct mt_cli_path *dir = x->role == MT_PATH_DIR ? x : y;
		const struct mt_cli_path *file = dir == x ? y : x;

		fprintf(stderr, "%s: %s %s is %s/%s, which %s %s writes: give it another path\n",
			cmd, file->option, file->path, dir->path, dir->files[k], dir->option,
			dir->path);
		return MT_EXIT_USAGE;
	}
	return 0;
}

/* p's identity, and its files' for a directory.  0, or MT_EXIT_USAGE after a line. */
static int identify(const char *cmd, const struct mt_cli_path *p, struct named *out)
{
	char file[PATH_MAX];
	int err;

	out->p = p;
	err = atomic_file_identify(p->path, &out->id);
	for (int k = 0; !err && p->role == MT_PATH_DIR && k < p->nfiles; k++) {
		if (snprintf(file, sizeof(file), "%s/%s", p->path, p->files[k]) >=
		    (int)sizeof(file))
			err = -ENAMETOOLONG;
		else
			err = atomic_file_identify(file, &out->file[k]);
	}
	if (err)
		fprintf(stderr, "%s: %s %s: %s\n", cmd, p->option, p->path, strerror(-err));
	return err ? MT_EXIT_USAGE : 0;
}

int mt_cli_distinct(const char *cmd, const struct mt_cli_path *paths, int n)
{
	struct named *seen = calloc((size_t)n, sizeof(*seen));
	int nseen = 0, rc = 0;

	if (!seen && n) {
		fprintf(stderr, "%s: out of memory checking the output paths\n", cmd);
		return MT_EXIT_FAIL;
	}
	for (int i = 0; !rc && i < n; i++) {
		const struct mt_cli_path *p = &paths[i];

		/* not given, or stdin: nothing an output could replace */
		if (!p->path || (p->role == MT_PATH_INPUT && !strcmp(p->path, "-")))
			continue;
		rc = identify(cmd, p, &seen[nseen]);
		for (int j = 0; !rc && j < nseen; j++)
			rc = clash(cmd, &seen[j], &seen[nseen]);
		nseen++;
	}
	free(seen);
	return rc;
}
