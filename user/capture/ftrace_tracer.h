/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live ftrace backend of `migtrace run`: a private tracefs instance records the sched
 * events, its per-CPU raw buffers are read every poll, decoded with libtraceevent and
 * replayed in timestamp order (sched_replay.h) into what the BPF programs count in the
 * kernel.  Its operations are ftrace_tracer_backend (tracer_backend.h), used through struct
 * tracer (tracer.h) when the backend is ftrace; what is here is for choosing it.
 */
#ifndef MIGTRACE_FTRACE_TRACER_H
#define MIGTRACE_FTRACE_TRACER_H

#include <stdbool.h>
#include <stddef.h>

/* Whether this machine could record with ftrace: 0, or -errno with why (one line, saying
 * what to do) in why[len].  Mounts tracefs when it is not mounted and we may. */
int ftrace_tracer_check(char *why, size_t len);
/*
 * The tracefs instances (migtrace-PID, migtrace-PID-mig) and unit probes (migtrace_PID)
 * of migtrace runs that are gone (PID no longer a migtrace): left, still recording, when
 * a kill took the run and its guard at once (systemd's final kill of a unit's cgroup).
 * remove: rmdir them and their probes.  Returns how many instances, their names in names.
 */
int ftrace_tracer_orphans(bool remove, char *names, size_t len);

#endif
