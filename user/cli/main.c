// SPDX-License-Identifier: GPL-2.0
/*
 * migtrace: is the scheduler's cache-hot threshold (migration cost) right for this machine
 * and this workload?  One binary, one subcommand per job.
 */
#include <argp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "launch.h"
#include "version.h"

/* The release and the revision built (the Makefile's MT_VERSION: "0.1 (f85a8a2)"); argp
 * prints it too. */
const char *argp_program_version = "migtrace " MT_VERSION;
const char *argp_program_bug_address = "the project's issue tracker";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "run", cmd_run, "trace every migration of a pinned workload (BPF)" },
	
	{ "calibrate", cmd_calibrate, "measure the migration cost between every pair of CPUs" },
	{ "validate", cmd_validate, "calibrate + controlled experiment + verdict (the main job)" },
	{ "sweep", cmd_sweep, "run a workload at each migration cost: throughput, idle, witnesses" },
	{ "report", cmd_report, "render a saved run again, or compare two runs" },
	{ "doctor", cmd_doctor, "what this kernel allows migtrace to do, and why" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: migtrace COMMAND [OPTIONS]\n\n"
		"Tells whether the scheduler's cache-hot threshold (migration cost) fits this\n"
		"hardware and workload.\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nEXAMPLES:\n"
		"    sudo migtrace doctor\n"
		"    sudo migtrace calibrate --format=seed\n"
		"    sudo migtrace run 1 10                  # every second, 10 times, all CPUs\n"
		"    sudo migtrace run -o run.json -- ./my-program ARGS\n"
		"    migtrace report run.json\n"
		"\n'migtrace help COMMAND' (or 'migtrace COMMAND --help') gives each command's\n"
		"options; migtrace(8) their vocabulary, one meaning per option letter.\n");
}

int main(int argc, char **argv)
{
	/* Bad command lines exit 2 everywhere, argp's own errors included. */
	argp_err_exit_status = MT_EXIT_USAGE;
	launch_ignore_signals();
	if (argc < 2) {
		usage(stderr);
		return MT_EXIT_USAGE;
	}
	/* `migtrace help CMD': that command's --help */
	if (!strcmp(argv[1], "help") && argc >= 3) {
		static char help[] = "--help";

		if (argc > 3) {
			mt_err("help: give one command ('%s' and more)", argv[2]);
			return MT_EXIT_USAGE;
		}
		argv[1] = argv[2];
		argv[2] = help;
	} else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
		   !strcmp(argv[1], "help")) {
		usage(stdout);
		return MT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("%s\n", argp_program_version);
		return MT_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			static char prog[64];

			/* argp names the program in its messages: "migtrace run: …". */
			snprintf(prog, sizeof(prog), "migtrace %s", commands[i].name);
			argv[1] = prog;
			mt_cli_set_cmd(prog);	/* and mt_err() */
			return commands[i].fn(argc - 1, argv + 1);
		}
	}
	mt_err("unknown command '%s' (try 'migtrace --help')", argv[1]);
	return MT_EXIT_USAGE;
}
