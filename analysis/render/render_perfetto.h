/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two Perfetto exports share: the JSON one (render_perfetto.c) and the native
 * protobuf one (render_perfetto_pb.c) show the same threads under the same names.
 */
#ifndef MIGTRACE_RENDER_PERFETTO_H
#define MIGTRACE_RENDER_PERFETTO_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

struct perfetto_thread {
	uint32_t pid, tgid;
};

/* The distinct threads of r's records and units, by tgid then pid; NULL (and *n 0) when
 * there are none or no memory.  The caller frees it. */
struct perfetto_thread *render_perfetto_threads(const struct run *r, size_t *n);
/* The name a thread's track gets: its comm from a migration record and its pid, else
 * "thread PID". */
void render_perfetto_thread_name(const struct run *r, uint32_t pid, char *buf, size_t len);

#endif
