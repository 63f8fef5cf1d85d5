// SPDX-License-Identifier: GPL-2.0
/*
 * argp prints a usage error as two lines, the message and "Try `PROG --help' or `PROG
 * --usage' for more information."; migtrace's contract is one line naming the option and
 * the token.  A stream that passes everything to stderr except that hint after a message of
 * ours keeps a bad value to one line, without replacing argp; a mistyped option (getopt's
 * own line) keeps the hint, which names the command's --help.
 *
 * An option with a value given twice (-o a.json -o b.json) is refused too: the last one
 * would win without a word, and the first was meant for something.  So is an output that
 * would replace an input or another output (`report -o r.json r.json`): the rename would
 * succeed and the data be gone.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli.h"
#include "json_writer.h"
#include "status.h"

static char line[1024];
static size_t used;
static int in_hint;	/* inside the hint, which argp wraps at 79 columns */
/*
 * Whether the hint is kept: argp writes it alone after getopt's own message on stderr (a
 * mistyped option, where "Try `migtrace run --help'" helps), and after our one line for the
 * rest (a bad value, where the line says all).
 */
static int keep_hint;
static int wrote;	/* a line of ours went through since the last hint */

static void emit_line(void)
{
	if (!strncmp(line, "Try `", 5)) {
		in_hint = 1;
		keep_hint = !wrote;
	}
	if (!in_hint || keep_hint)
		fwrite(line, 1, used, stderr);
	if (!in_hint)
		wrote = 1;
	else if (memmem(line, used, "information.", 12))
		in_hint = keep_hint = wrote = 0;
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

/*
 * The stream argp reports bad input on: stderr without argp's second line ("Try `migtrace
 * run --help' or ...") after a message of ours, so that a bad value is the one line that
 * names the option and the token; a mistyped option keeps it.  mt_cli_common() sets it at
 * ARGP_KEY_INIT.
 */
static FILE *mt_cli_err_stream(void)
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

static const char *err_cmd = "migtrace";	/* "migtrace run" once main() knows */
static bool err_json;				/* the command's JSON goes to stdout */

const char *mt_cli_version(void)
{
	const char *v = argp_program_version;

	return v && !strncmp(v, "migtrace ", 9) ? v + 9 : v ? v : "unknown";
}

void mt_cli_set_cmd(const char *cmd)
{
	err_cmd = cmd;
}

void mt_cli_json_errors(bool on)
{
	err_json = on;
}

static void vmessage(const char *fmt, va_list ap, bool error)
{
	char msg[1024];
	struct json_writer w;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: %s\n", err_cmd, msg);
	if (!error || !err_json)
		return;
	/* a line of its own in the JSON stream, after whatever the command wrote there */
	fflush(stdout);
	jw_init(&w, stdout);
	jw_start_object(&w);
	jw_field_string(&w, "command", err_cmd);
	jw_field_string(&w, "error", msg);
	jw_end_object(&w);
	jw_finish(&w);
}

void mt_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, true);
	va_end(ap);
}

void mt_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap, false);
	va_end(ap);
}

enum { OPT_STD_USAGE = 0x7ff0 };

static const struct argp_option std_opts[] = {
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{ NULL, '?', NULL, OPTION_HIDDEN, NULL, -1 },	/* argp's own spelling, kept */
	{ "usage", OPT_STD_USAGE, NULL, 0, "Give a short usage message", -1 },
	{ "version", 'V', NULL, 0, "Print program version", -1 },
	{ 0 },
};

static error_t std_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	switch (key) {
	case 'h':
	case '?':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		break;
	case OPT_STD_USAGE:
		argp_state_help(state, stdout, ARGP_HELP_USAGE | ARGP_HELP_EXIT_OK);
		break;
	case 'V':
		printf("%s\n", argp_program_version);
		exit(MT_EXIT_OK);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp mt_cli_std_argp = { std_opts, std_parse, NULL, NULL, NULL, NULL, NULL };

/* The option of argp or its children named name (long, without "--") or keyed key. */
static const struct argp_option *find_option(const struct argp *a, const char *name, int key)
{
	const struct argp_option *found = NULL;

	for (const struct argp_option *o = a->options; o && (o->name || o->key || o->doc); o++)
		if ((name && o->name && !strcmp(o->name, name)) || (!name && key && o->key == key))
			return o;
	for (const struct argp_child *c = a->children; c && c->argp && !found; c++)
		found = find_option(c->argp, name, key);
	return found;
}

/* Whether the option token tok (an element of argv) takes the next element as its value. */
static bool takes_next(const struct argp *argp, const char *tok)
{
	const struct argp_option *o;
	char name[64];

	if (tok[1] == '-') {
		size_t n = strcspn(tok + 2, "=");

		if (tok[2 + n] == '=' || n >= sizeof(name))
			return false;
		memcpy(name, tok + 2, n);
		name[n] = 0;
		o = find_option(argp, name, 0);
		return o && o->arg && !(o->flags & OPTION_ARG_OPTIONAL);
	}
	/* a bundle of short options: the first that takes a value takes the rest, or the next */
	for (const char *c = tok + 1; *c; c++) {
		o = find_option(argp, NULL, (unsigned char)*c);
		if (o && o->arg)
			return !c[1];
	}
	return false;
}

/* Whether tok is an operand (not an option): `-' alone is stdin's name. */
static bool operand(const char *tok)
{
	return tok[0] != '-' || !tok[1];
}

void mt_cli_renames(const struct argp *argp, const struct mt_cli_rename *t,
		    bool first_operand_ends, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const struct mt_cli_rename *r;
		const char *tok = argv[i], *eq = NULL;
		size_t n;

		if (operand(tok)) {
			if (first_operand_ends)
				return;
			continue;
		}
		n = strcspn(tok, "=");
		if (tok[1] == '-' && tok[n] == '=')
			eq = tok + n;
		for (r = t; r->old; r++) {
			size_t on = strlen(r->old);

			if (strncmp(tok, r->old, on))
				continue;
			if (tok[on] == '=' && r->old[1] == '-')
				break;
			if (!tok[on])
				break;
			/* a short one with its value attached: -P50 */
			if (r->old[1] != '-' && r->value)
				break;
		}
		if (!r->old) {
			if (takes_next(argp, tok))
				i++;
			continue;
		}
		if (r->value && r->operands_after >= 0 && !eq && tok[strlen(r->old)] == 0) {
			int after = 0;

			/* the new flag, unless a value and as many operands more follow */
			if (i + 1 >= argc || !operand(argv[i + 1]))
				continue;
			for (int k = i + 2; k < argc && strcmp(argv[k], "--"); k++)
				after += operand(argv[k]);
			if (after < r->operands_after)
				continue;
		}
		if (r->note)
			mt_info("%s is deprecated, %s", r->old, r->note);
		else
			mt_info("%s is deprecated, use %s", r->old, r->new);
		if (eq || (r->old[1] != '-' && tok[strlen(r->old)])) {
			/* the value attached: --json=FILE, -P50 */
			const char *v = eq ? eq + 1 : tok + strlen(r->old);
			char *s = malloc(strlen(r->new) + strlen(v) + 2);

			if (!s)
				return;
			sprintf(s, "%s=%s", r->new, v);
			argv[i] = s;	/* lives as long as argv */
		} else {
			argv[i] = (char *)r->new;
			i += r->value;
		}
	}
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
static int clash(const struct named *a, const struct named *b)
{
	const struct mt_cli_path *x = a->p, *y = b->p;
	int k;

	if (x->role == MT_PATH_INPUT && y->role == MT_PATH_INPUT)
		return 0;	/* a file compared with itself is only read */
	if (atomic_file_same(&a->id, &b->id)) {
		if (a->id.kind == AF_STDOUT)
			mt_err("%s %s and %s %s both write to standard output: give one of them "
			       "a file", x->option, x->path, y->option, y->path);
		else if (x->role == MT_PATH_INPUT)
			mt_err("%s %s would replace the %s %s it reads: give it another path",
			       y->option, y->path, x->option, x->path);
		else if (x->role == MT_PATH_DIR && y->role == MT_PATH_DIR)
			mt_err("%s %s and %s %s are the same directory: give each its own",
			       x->option, x->path, y->option, y->path);
		else
			mt_err("%s %s and %s %s are the same %s: one would replace the other; give "
			       "each its own path", x->option, x->path, y->option, y->path,
			       x->role == MT_PATH_DIR || y->role == MT_PATH_DIR ? "path" : "file");
		return MT_EXIT_USAGE;
	}
	if (in_dir(a, b, &k) || in_dir(b, a, &k)) {
		const struct mt_cli_path *dir = x->role == MT_PATH_DIR ? x : y;
		const struct mt_cli_path *file = dir == x ? y : x;

		mt_err("%s %s is %s/%s, which %s %s writes: give it another path", file->option,
		       file->path, dir->path, dir->files[k], dir->option, dir->path);
		return MT_EXIT_USAGE;
	}
	return 0;
}

/* p's identity, and its files' for a directory.  0, or MT_EXIT_USAGE after a line. */
static int identify(const struct mt_cli_path *p, struct named *out)
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
		mt_err("%s %s: %s", p->option, p->path, strerror(-err));
	return err ? MT_EXIT_USAGE : 0;
}

int mt_cli_distinct(const struct mt_cli_path *paths, int n)
{
	struct named *seen = calloc((size_t)n, sizeof(*seen));
	int nseen = 0, rc = 0;

	if (!seen && n) {
		mt_err("out of memory checking the output paths");
		return MT_EXIT_FAIL;
	}
	for (int i = 0; !rc && i < n; i++) {
		const struct mt_cli_path *p = &paths[i];

		/* not given, or stdin: nothing an output could replace */
		if (!p->path || (p->role == MT_PATH_INPUT && !strcmp(p->path, "-")))
			continue;
		rc = identify(p, &seen[nseen]);
		for (int j = 0; !rc && j < nseen; j++)
			rc = clash(&seen[j], &seen[nseen]);
		nseen++;
	}
	free(seen);
	return rc;
}
