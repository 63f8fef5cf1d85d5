// SPDX-License-Identifier: GPL-2.0
/*
 * argp prints a usage error as two lines, the message and "Try `PROG --help' or `PROG
 * --usage' for more information."; migtrace's contract is one line naming the option and
 * the token.  A stream that passes everything to stderr except that hint keeps argp's own
 * errors (unknown option, missing argument) and ours to one line, without replacing argp.
 *
 * An option with a value given twice (-o a.json -o b.json) is refused too: the last one
 * would win without a word, and the first was meant for something.
 */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"

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
