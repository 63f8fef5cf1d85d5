// SPDX-License-Identifier: GPL-2.0
/* The sched events decoded into struct sched_event (sched_decode.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>

#include "sched_decode.h"
#include "sched_replay.h"

/*
 * libtraceevent 1.7 keeps a 2-byte string of an event format it parsed past tep_free() (a
 * leak of its own, in tep_parse_event): the sanitized builds' LeakSanitizer ignores it.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* What the replay reads of an event, by slot: each event type names its fields per slot. */
enum { F_COMM, F_PID, F_PRIO, F_STATE, F_COMM2, F_PID2, F_CPU1, F_CPU2, NR_F };

struct decoder {
	const char *name;		/* sched_switch, … */
	uint8_t type;			/* enum sched_event_type */
	const char *field[NR_F];	/* the event's field per slot; NULL: not read */
	/* resolved against the trace's formats */
	int id;				/* -1: the trace has no such event (or a field) */
	struct tep_format_field *f[NR_F];
	unsigned int need;		/* bytes a record must hold for every field read */
	uint64_t records;		/* events of this type decoded */
};

#define DEC(n, t, ...) { .name = n, .type = t, .field = { __VA_ARGS__ } }
static const struct decoder decoders_init[] = {
	DEC("sched_switch", SE_SWITCH, "prev_comm", "prev_pid", "prev_prio", "prev_state",
	    "next_comm", "next_pid"),
	DEC("sched_migrate_task", SE_MIGRATE, "comm", "pid", "prio", NULL, NULL, NULL,
	    "orig_cpu", "dest_cpu"),
	DEC("sched_waking", SE_WAKING, "comm", "pid", "prio", NULL, NULL, NULL, NULL,
	    "target_cpu"),
	DEC("sched_wakeup", SE_WAKEUP, "comm", "pid", "prio", NULL, NULL, NULL, NULL,
	    "target_cpu"),
	DEC("sched_wakeup_new", SE_WAKEUP_NEW, "comm", "pid", "prio", NULL, NULL, NULL, NULL,
	    "target_cpu"),
	DEC("sched_process_fork", SE_FORK, "child_comm", "parent_pid", NULL, NULL, NULL,
	    "child_pid"),
	DEC("sched_process_exec", SE_EXEC, NULL, "pid", NULL, NULL, NULL, "old_pid"),
	DEC("sched_process_exit", SE_EXIT, "comm", "pid"),
};
#undef DEC
#define NR_DECODERS (int)(sizeof(decoders_init) / sizeof(decoders_init[0]))

struct sched_decoder {
	struct tep_handle *tep;
	struct decoder dec[NR_DECODERS];
	unsigned int need_common;	/* bytes every record must hold for its common fields */
	uint64_t malformed;		/* records too short for what their format says */
};

/*
 * The bytes a record must hold for field f to be read from it: its offset and size come
 * from the capture's format text, which nothing checks against the records (a hostile or
 * damaged capture said dest_cpu sat 2000000000 bytes in); a dynamic field's own bytes are
 * its 4-byte location, checked again by comm().  UINT_MAX: no record can hold it.
 */
static unsigned int extent(const struct tep_format_field *f)
{
	long long end;

	if (!f)
		return 0;
	end = (long long)f->offset + (f->flags & TEP_FIELD_IS_DYNAMIC ? 4 : f->size);
	return f->offset < 0 || f->size < 0 || end > UINT_MAX ? UINT_MAX : (unsigned int)end;
}

static unsigned int max_u(unsigned int a, unsigned int b)
{
	return a > b ? a : b;
}

/* What libtraceevent itself reads of every record (its type and pid), over every event's
 * common fields: it takes their offsets from the formats too, and checks nothing. */
static unsigned int common_need(struct tep_handle *tep)
{
	static const char *const common[] = { "common_type", "common_pid" };
	unsigned int need = 0;

	for (int i = 0; i < tep_get_events_count(tep); i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		for (size_t k = 0; ev && k < sizeof(common) / sizeof(common[0]); k++)
			need = max_u(need, extent(tep_find_common_field(ev, common[k])));
	}
	return need;
}

/* The event types' ids and fields in this trace: once, before any record. */
static void resolve(struct sched_decoder *sd)
{
	for (int i = 0; i < NR_DECODERS; i++) {
		struct decoder *d = &sd->dec[i];
		struct tep_event *ev;

		*d = decoders_init[i];
		d->id = -1;
		ev = tep_find_event_by_name(sd->tep, "sched", d->name);
		if (!ev)
			continue;
		for (int s = 0; s < NR_F; s++) {
			d->f[s] = d->field[s] ? tep_find_field(ev, d->field[s]) : NULL;
			d->need = max_u(d->need, extent(d->f[s]));
		}
		d->id = ev->id;
		/* a format without a field read is not read; prio alone may be missing */
		for (int s = 0; s < NR_F; s++)
			if (d->field[s] && !d->f[s] && s != F_PRIO)
				d->id = -1;
	}
}

/* A number field; the record was checked to hold every field read (struct decoder's need). */
static uint64_t num(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f && tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		v = 0;
	return v;
}

/*
 * A task name: a char[16] (sched_switch's), or since 6.10 (the other sched events) a
 * __data_loc char[]: a u32 of its length (high half) and offset (low half), from the
 * record's start, or from the field's end when __rel_loc.
 */
static void comm(char *dst, const struct tep_format_field *f, const struct tep_record *rec)
{
	int off = f ? f->offset : 0, n = f ? f->size : 0;

	memset(dst, 0, MT_COMM_LEN);
	if (!f)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if (f->offset + 4 > rec->size)
			return;
		memcpy(&loc, (const char *)rec->data + f->offset, 4);
		off = (int)(loc & 0xffff);
		n = (int)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (n > MT_COMM_LEN)
		n = MT_COMM_LEN;
	if (n > 0 && off >= 0 && off + n <= rec->size)
		memcpy(dst, (const char *)rec->data + off, n);
}

/* The comm of the task that ran a move, from the trace's saved pid -> comm map. */
static void cur_comm(struct sched_decoder *sd, char *dst, int pid)
{
	const char *c = tep_data_comm_from_pid(sd->tep, pid);

	memset(dst, 0, MT_COMM_LEN);
	if (c && c[0] != '<')	/* "<...>": not saved */
		memcpy(dst, c, strnlen(c, MT_COMM_LEN));
}

static void decode(struct sched_decoder *sd, const struct decoder *d, struct tep_record *rec,
		   struct sched_event *e)
{
	*e = (struct sched_event){
		.ts_ns = rec->ts,
		.cpu = (uint32_t)rec->cpu,
		.type = d->type,
		.cur_pid = (uint32_t)tep_data_pid(sd->tep, rec),
		.pid = (uint32_t)num(d->f[F_PID], rec),
		.pid2 = (uint32_t)num(d->f[F_PID2], rec),
		.prev_state = (int64_t)num(d->f[F_STATE], rec),
		.orig_cpu = (uint32_t)num(d->f[F_CPU1], rec),
		.dest_cpu = (uint32_t)num(d->f[F_CPU2], rec),
		.prio = (int32_t)num(d->f[F_PRIO], rec),
		.has_prio = d->f[F_PRIO] && d->type == SE_MIGRATE,
	};
	comm(e->comm, d->f[F_COMM], rec);
	if (d->type == SE_SWITCH)
		comm(e->comm2, d->f[F_COMM2], rec);
	else if (d->type == SE_MIGRATE)
		cur_comm(sd, e->comm2, (int)e->cur_pid);
}

struct sched_decoder *sched_decoder_new(struct tep_handle *tep)
{
	struct sched_decoder *sd = calloc(1, sizeof(*sd));

	if (!sd)
		return NULL;
	sd->tep = tep;
	resolve(sd);
	sd->need_common = common_need(tep);
	return sd;
}

int sched_decode(struct sched_decoder *sd, struct tep_record *rec, struct sched_event *e)
{
	int id;

	if (rec->size < 0 || (unsigned int)rec->size < sd->need_common) {
		sd->malformed++;
		return 0;
	}
	id = tep_data_type(sd->tep, rec);
	for (int i = 0; i < NR_DECODERS; i++) {
		struct decoder *d = &sd->dec[i];

		if (d->id != id)
			continue;
		if ((unsigned int)rec->size < d->need) {
			sd->malformed++;
			return 0;
		}
		d->records++;
		decode(sd, d, rec, e);
		return 1;
	}
	return 0;
}

uint64_t sched_decoded(const struct sched_decoder *sd, int type)
{
	uint64_t n = 0;

	for (int i = 0; i < NR_DECODERS; i++)
		if (!type || sd->dec[i].type == type)
			n += sd->dec[i].records;
	return n;
}

bool sched_decoder_has(const struct sched_decoder *sd, int type)
{
	for (int i = 0; i < NR_DECODERS; i++)
		if (sd->dec[i].type == type)
			return sd->dec[i].id >= 0;
	return false;
}

uint64_t sched_malformed(const struct sched_decoder *sd)
{
	return sd->malformed;
}

void sched_decoder_free(struct sched_decoder *sd)
{
	free(sd);
}
