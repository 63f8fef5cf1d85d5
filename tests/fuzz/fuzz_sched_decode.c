// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the sched events' decoder (user/capture/sched_decode.c) over hostile
 * formats, in this process (a capture's decoding runs in trace_dat.c's child, where a crash
 * would only be a refusal).  A capture's format text says where each field of an event is:
 * the decoder must read inside each record whatever those offsets and sizes say.  The
 * formats here are the eight sched events the decoder reads, with every field's offset and
 * size taken from the input (a u16 and a u8 each), as a damaged or hostile capture could
 * carry them (a dest_cpu at offset 2,000,000,000 made `report` die of SIGSEGV, issue 36);
 * libtraceevent parses them.  The rest of the input is records, each a length byte, an
 * event (1-8), and that many bytes, copied to a heap block of exactly that length so that a
 * read past it is AddressSanitizer's to report.  A decoded event's type must be the
 * replay's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>

#include "sched_decode.h"
#include "sched_replay.h"

struct event_fields {
	const char *name;
	const char *field[6];	/* "type name" */
};

/* The fields sched_decode.c reads, as the kernel declares them. */
static const struct event_fields events[] = {
	{ "sched_switch", { "char prev_comm[16]", "pid_t prev_pid", "int prev_prio",
			    "long prev_state", "char next_comm[16]", "pid_t next_pid" } },
	{ "sched_migrate_task", { "char comm[16]", "pid_t pid", "int prio", "int orig_cpu",
				  "int dest_cpu" } },
	{ "sched_waking", { "char comm[16]", "pid_t pid", "int prio", "int target_cpu" } },
	{ "sched_wakeup", { "char comm[16]", "pid_t pid", "int prio", "int target_cpu" } },
	{ "sched_wakeup_new", { "char comm[16]", "pid_t pid", "int prio", "int target_cpu" } },
	{ "sched_process_fork", { "char parent_comm[16]", "pid_t parent_pid",
				  "char child_comm[16]", "pid_t child_pid" } },
	{ "sched_process_exec", { "__data_loc char[] filename", "pid_t pid", "pid_t old_pid" } },
	{ "sched_process_exit", { "char comm[16]", "pid_t pid", "int prio" } },
};
#define NR_EVENTS (int)(sizeof(events) / sizeof(events[0]))

/* The input's next n bytes as a little-endian number; 0 past its end. */
static unsigned take(const uint8_t **p, const uint8_t *end, int n)
{
	unsigned v = 0;

	for (int i = 0; i < n; i++)
		v |= (unsigned)(*p < end ? *(*p)++ : 0) << (8 * i);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	struct tep_handle *tep = tep_alloc();
	struct sched_decoder *sd;
	static char text[4096];

	if (!tep)
		return 0;
	for (int i = 0; i < NR_EVENTS; i++) {
		struct tep_event *ev = NULL;
		int n = snprintf(text, sizeof(text), "name: %s\nID: %d\nformat:\n"
			"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n",
			events[i].name, i + 1);

		for (int f = 0; f < 6 && events[i].field[f]; f++) {
			unsigned off = take(&p, end, 2), sz = take(&p, end, 1);

			n += snprintf(text + n, sizeof(text) - (size_t)n,
				      "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:1;\n",
				      events[i].field[f], off, sz);
		}
		n += snprintf(text + n, sizeof(text) - (size_t)n, "\nprint fmt: \"x\"\n");
		tep_parse_format(tep, &ev, text, (unsigned long)n, "sched");
	}
	sd = sched_decoder_new(tep);
	while (sd && p < end) {
		size_t len = take(&p, end, 1);
		unsigned id = take(&p, end, 1) % NR_EVENTS + 1;
		struct tep_record rec = { .ts = 1 };
		struct sched_event e;
		uint8_t *copy;

		if (len > (size_t)(end - p))
			len = (size_t)(end - p);
		copy = malloc(len ? len : 1);
		if (!copy)
			break;
		memcpy(copy, p, len);
		if (len >= 2) {		/* common_type: the event the record is */
			copy[0] = (uint8_t)id;
			copy[1] = 0;
		}
		rec.data = copy;
		rec.size = (int)len;
		if (sched_decode(sd, &rec, &e) && (e.type < SE_SWITCH || e.type > SE_EXIT))
			abort();
		free(copy);
		p += len;
	}
	sched_decoder_free(sd);
	tep_free(tep);
	return 0;
}
