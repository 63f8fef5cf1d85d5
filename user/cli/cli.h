/* SPDX-License-Identifier: GPL-2.0 */
/* What every command's option parsing shares.  User space only. */
#ifndef MIGTRACE_CLI_H
#define MIGTRACE_CLI_H

#include <argp.h>
#include <stdio.h>

/*
 * The stream argp reports bad input on: stderr without argp's second line ("Try `migtrace
 * run --help' or ..."), so that every usage error is the one line that names the option and
 * the token.  Each command sets it at ARGP_KEY_INIT: state->err_stream = mt_cli_err_stream().
 */
FILE *mt_cli_err_stream(void);
/*
 * Refuses an option's value given a second time, in one line naming the option and both
 * values (argp_error: exit status 2).  Each command's parser calls it first, for every key.
 */
void mt_cli_once(struct argp_state *state, int key, const char *arg);

#endif
