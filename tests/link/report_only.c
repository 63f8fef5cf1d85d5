// SPDX-License-Identifier: GPL-2.0
/*
 * `migtrace report` alone, linked from the analysis layers and report's own command without
 * libbpf (Makefile: $(OUTPUT)/tests/report-only): tests/integration/05_layers.sh checks that
 * it links so, and prints what migtrace report prints.
 */
#include "commands.h"

int main(int argc, char **argv)
{
	return cmd_report(argc, argv);
}
