/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's trace events decoded into struct sched_event (sched_replay.h), for a
 * trace-cmd capture (trace_dat.c) and a live tracefs instance alike: each event type's id
 * and fields are resolved once against the trace's formats (sched_decoder_new), never per
 * record.  A task name is a char[16] (sched_switch's) or, since 6.10 for the other sched
 * events, a __data_loc char[]: both are read.  User space only; needs libtraceevent.
 */
#ifndef MIGTRACE_SCHED_DECODE_H
#define MIGTRACE_SCHED_DECODE_H

#include <stdbool.h>
#include <stdint.h>

struct sched_event;
struct sched_decoder;
struct tep_handle;
struct tep_record;

/* The decoder of tep's sched events.  NULL: out of memory. */
struct sched_decoder *sched_decoder_new(struct tep_handle *tep);
/* 1: rec is a sched event the replay reads, decoded into *e; 0: another event, or a record
 * too short for the fields its format names (counted: sched_malformed). */
int sched_decode(struct sched_decoder *d, struct tep_record *rec, struct sched_event *e);
/* Records left out because they hold less than their format's fields say. */
uint64_t sched_malformed(const struct sched_decoder *d);
/* Records of type (enum sched_event_type) decoded so far; 0 for type: of every type. */
uint64_t sched_decoded(const struct sched_decoder *d, int type);
/* Whether the trace has type's format with every field the replay reads. */
bool sched_decoder_has(const struct sched_decoder *d, int type);
void sched_decoder_free(struct sched_decoder *d);

#endif
