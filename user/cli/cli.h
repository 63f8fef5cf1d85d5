/* SPDX-License-Identifier: GPL-2.0 */
/* What every command's option parsing shares.  User space only. */
#ifndef MIGTRACE_CLI_H
#define MIGTRACE_CLI_H

#include <argp.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Refuses an option's value given a second time, in one line naming the option and both
 * values (argp_error: exit status 2).  mt_cli_common() calls it for every key.
 */
void mt_cli_once(struct argp_state *state, int key, const char *arg);
/*
 * What every command's parse_arg does first, so that no command repeats it: refuse an
 * option given twice (mt_cli_once), count -v, and at ARGP_KEY_INIT point argp's messages at
 * a stream of its own (one line for a bad value, argp's "Try" line kept for a mistyped
 * option) and hand the first child parser child_input (NULL: the command has no
 * child, such as the export options).  True when KEY needs nothing more from the command.
 */
bool mt_cli_common(struct argp_state *state, int key, const char *arg, void *child_input);
/*
 * -h, --help, --usage and -V, --version in every command: a child parser each command lists
 * last among its children, parsed with ARGP_NO_HELP (argp's own help has no -h).
 */
extern const struct argp mt_cli_std_argp;
#define MT_CLI_STD_CHILD { &mt_cli_std_argp, 0, NULL, 0 }

/*
 * A spelling kept one release after the vocabulary of docs/man/migtrace.8 replaced it:
 * mt_cli_renames() rewrites it to the new spelling before argp sees it, after a one-line
 * note on stderr (mt_info) ("migtrace CMD: --sysfs-root is deprecated, use --root").
 */
struct mt_cli_rename {
	const char *old;	/* "--sysfs-root", "-P" (a short one alone, not in a bundle) */
	const char *new;	/* "--root", "--polluter"; a long option */
	bool value;		/* the old spelling takes a value (--json FILE) */
	/*
	 * A value-taking old spelling whose new name is a flag (--json FILE, now -j/--json):
	 * the old reading holds when the value is attached (--json=FILE) or is followed by at
	 * least this many operands more; otherwise the token is the new flag.  -1: always old.
	 */
	int operands_after;
	const char *note;	/* NULL, or what the note says instead of "use NEW" */
};
/*
 * Rewrites argv in place (up to `--', and up to the first operand when first_operand_ends,
 * as a workload's own options follow it).  argp (the command's, with its children) says
 * which of the new options take a value, so that a value is not read as an option.
 */
void mt_cli_renames(const struct argp *argp, const struct mt_cli_rename *t,
		    bool first_operand_ends, int argc, char **argv);

/*
 * The one path of a command's user-facing errors, after bpftool's p_err: mt_err() prints
 * "migtrace CMD: message" on stderr and, when the command writes JSON to stdout (-j, or -o -),
 * also {"command": "migtrace CMD", "error": "message"} there as a line of its own, so that a
 * program reading stdout sees the error in its stream.  mt_info() is a note (a deprecation,
 * a fallback): stderr only.  main() names the command; a command that writes JSON to stdout
 * says so once its options are read.
 */
/* migtrace's version as --version says it, without the "migtrace " before it. */
const char *mt_cli_version(void);
void mt_cli_set_cmd(const char *cmd);
void mt_cli_json_errors(bool on);
void mt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mt_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The -v option of the commands that load BPF programs (mt_cli_common counts it). */
#define MT_CLI_OPT_VERBOSE_LIBBPF { "verbose", 'v', NULL, 0, "Show libbpf's messages", 0 }
/*
 * -c LIST, the CPU list's spelling before -C/--cpus (run's -c is --cgroup now, as in
 * libbpf-tools' runqlat): one line naming --cpus, exit status 2.
 */
void mt_cli_old_cpus(struct argp_state *state, const char *arg);
/* Whether arg reads as a CPU list (digits, ',' and '-' only), as -c's old argument did. */
bool mt_cli_looks_like_cpus(const char *arg);

/* The files of a directory output mt_cli_distinct() knows by name, at most. */
#define MT_CLI_DIR_FILES 12

/* A path a command reads or writes, as mt_cli_distinct() compares them. */
struct mt_cli_path {
	const char *option;		/* as the message names it: "-o", "--csv", "run file" */
	const char *path;		/* NULL: not given */
	enum { MT_PATH_INPUT, MT_PATH_FILE, MT_PATH_DIR } role;
	const char *files[MT_CLI_DIR_FILES];	/* MT_PATH_DIR: the files written in it */
	int nfiles;
};

/* A path with no files listed: an input, a file output, or a directory filled in after. */
static inline struct mt_cli_path mt_cli_path_of(const char *option, const char *path, int role)
{
	return (struct mt_cli_path){ .option = option, .path = path, .role = role };
}

/*
 * Before any work: refuses an output that would replace an input or another output (the
 * same file once links are followed, or the same place for one not made yet), a file output
 * that is one of the files a directory output writes, two directory outputs in one
 * directory, and two outputs to standard output.  Devices and FIFOs are written in place and
 * replace nothing; input `-` (stdin) is none of these.  0, or MT_EXIT_USAGE after one line
 * (mt_err) naming both options and paths.
 */
int mt_cli_distinct(const struct mt_cli_path *paths, int n);

#endif
