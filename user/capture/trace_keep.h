/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace backend's raw capture kept as a trace-cmd file (`run --keep-trace FILE`):
 * every event the backend read, of both its instances, merged per CPU in time order and
 * written as trace.dat version 6, so that `trace-cmd report`, KernelShark and `migtrace
 * report` read it (docs/ftrace.md, "Keeping the capture").
 *
 * While tracing, each event goes to a spool file of its instance and CPU (a record: stamp,
 * size, the event's bytes as the ring buffer held them); at the end the spools are merged
 * and encoded into ring-buffer pages again, behind the headers and event formats tracefs
 * gives.  Nothing is written to FILE until the end, and then atomically.
 */
#ifndef MIGTRACE_TRACE_KEEP_H
#define MIGTRACE_TRACE_KEEP_H

#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct trace_keep;

/* A keeper for nstreams x nr_cpus spools (an instance a stream).  NULL: ENOMEM or no
 * temporary file (errno says). */
struct trace_keep *trace_keep_new(int nstreams, int nr_cpus);
/* One event of stream s on cpu, as the ring buffer held it (len bytes).  0 or -errno. */
int trace_keep_event(struct trace_keep *k, int s, int cpu, uint64_t ts, const void *data,
		     unsigned int len);
/*
 * Writes the capture to path (temp file + rename; a device, FIFO or '-' directly): the
 * headers and cmdlines from tracefs, the formats of the events the spools hold (their ids
 * found in tep), then each CPU's events.  0 or -errno, with one line on stderr naming what
 * failed.
 */
int trace_keep_write(struct trace_keep *k, struct tep_handle *tep, const char *path);
/* Events spooled, all streams. */
uint64_t trace_keep_events(const struct trace_keep *k);
void trace_keep_free(struct trace_keep *k);

#endif
