// SPDX-License-Identifier: GPL-2.0
/*
 * The text a sweep reads: the workload's throughput report, /proc/stat, the sched files and
 * /proc/schedstat.  Formats as the tools print them today (the captured samples are in
 * tests/data/sweep/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_parse.h"

/* The number after the last occurrence of key in out (the last report is the final one). */
static bool number_after(const char *out, const char *key, double *v)
{
	const char *p = NULL, *q = out;
	char *end;

	while ((q = strstr(q, key))) {
		p = q;
		q += strlen(key);
	}
	if (!p)
		return false;
	p += strlen(key);
	while (*p == ' ' || *p == '\t')
		p++;
	*v = strtod(p, &end);
	return end != p && *v > 0;
}

/* The number just before key on its line ("57187 ops/sec"). */
static bool number_before(const char *out, const char *key, double *v)
{
	const char *p = strstr(out, key), *b;
	char *end;

	if (!p)
		return false;
	b = p;
	while (b > out && (b[-1] == ' ' || b[-1] == '\t'))
		b--;
	while (b > out && b[-1] != ' ' && b[-1] != '\t' && b[-1] != '\n')
		b--;
	*v = strtod(b, &end);
	return end != b && *v > 0;
}

int sweep_parse_throughput(const char *out, double wall_s, struct sweep_tput *t)
{
	const char *cw;
	double v;

	if (number_after(out, "\ntps = ", &v) || (!strncmp(out, "tps = ", 6) &&
						    number_after(out, "tps = ", &v))) {
		*t = (struct sweep_tput){ v, "tps", "pgbench tps" };
		return 0;
	}
	/* hackbench reports the time its groups took: lower is better. */
	if (number_after(out, "Time: ", &v)) {
		*t = (struct sweep_tput){ 1.0 / v, "runs/s", "hackbench 1 / Time" };
		return 0;
	}
	if (strstr(out, "# Running 'sched/")) {
		if (number_before(out, "ops/sec", &v)) {
			*t = (struct sweep_tput){ v, "ops/s", "perf bench ops/sec" };
			return 0;
		}
		if (number_after(out, "Total time: ", &v)) {
			*t = (struct sweep_tput){ 1.0 / v, "runs/s", "perf bench 1 / Total time" };
			return 0;
		}
	}
	/* the project's own wakeup workload: its cycles over the seconds it ran them */
	cw = strstr(out, "wakeup: ");
	if (cw && (cw == out || cw[-1] == '\n') &&
	    number_before(cw, " run/sleep cycles in", &v)) {
		double secs;

		if (!number_after(cw, "run/sleep cycles in ", &secs))
			secs = wall_s;
		if (secs > 0) {
			*t = (struct sweep_tput){ v / secs, "cycles/s", "wakeup cycles / s" };
			return 0;
		}
	}
	cw = strstr(out, "cachewalk: natural,");
	if (cw && wall_s > 0 && number_before(cw, " units,", &v)) {
		*t = (struct sweep_tput){ v / wall_s, "units/s", "cachewalk units / wall time" };
		return 0;
	}
	*t = (struct sweep_tput){ wall_s > 0 ? 1.0 / wall_s : 0, "runs/s", "1 / wall time" };
	return -ENOENT;
}

/* idle + iowait and the total of one "cpu…" line's first eight fields (guest time is
 * counted in user already). */
static int cpu_line(const char *line, struct sweep_cputime *ct)
{
	unsigned long long f[8] = { 0 };
	const char *p = strchr(line, ' ');

	if (!p || sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
			 &f[3], &f[4], &f[5], &f[6], &f[7]) < 4)
		return -EPROTO;
	ct->idle += f[3] + f[4];
	for (int i = 0; i < 8; i++)
		ct->total += f[i];
	return 0;
}

int sweep_parse_proc_stat(const char *text, const struct cpu_set_list *cpus,
			  struct sweep_cputime *ct)
{
	int found = 0, want = cpus ? cpus->n : 0;
	const char *line = text;
	int cpu;

	ct->idle = ct->total = 0;
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "cpu", 3))
			continue;
		if (!want) {
			if (line[3] == ' ')
				return cpu_line(line, ct);
			continue;
		}
		if (sscanf(line + 3, "%d", &cpu) != 1 || !cpu_list_has(cpus, cpu))
			continue;
		if (cpu_line(line, ct))
			return -EPROTO;
		found++;
	}
	return found == want && want ? 0 : -ENOENT;
}

/* The value of a "NAME   :   V" line whose name ends in field. */
static bool sched_field(const char *text, const char *field, uint64_t *v)
{
	const char *p = text;
	size_t n = strlen(field);

	while ((p = strstr(p, field))) {
		const char *e = p + n;

		/* the whole name: preceded by '.' (se.statistics. or stats.) or a line start */
		if ((p == text || p[-1] == '.' || p[-1] == '\n') && (*e == ' ' || *e == ':')) {
			e = strchr(e, ':');
			if (e) {
				*v = strtoull(e + 1, NULL, 10);
				return true;
			}
		}
		p = e;
	}
	return false;
}

int sweep_parse_task_sched(const char *text, uint64_t *failed_hot, uint64_t *forced)
{
	bool a, b;

	*failed_hot = *forced = 0;
	a = sched_field(text, "nr_failed_migrations_hot", failed_hot);
	b = sched_field(text, "nr_forced_migrations", forced);
	return a || b ? 0 : -ENOENT;
}

int sweep_parse_schedstat(const char *text, uint64_t *lb_hot_gained)
{
	const char *line = text;
	int version = 0, lines = 0;

	*lb_hot_gained = 0;
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long long f[40];
		int per, at, n = 0, skip = 2;
		const char *p;

		if (!strncmp(line, "version ", 8))
			version = atoi(line + 8);
		if (strncmp(line, "domain", 6))
			continue;
		/* v15/16: lb_count, lb_balanced, lb_failed, lb_imbalance, lb_gained,
		 * lb_hot_gained, …: 8 per idle type.  v17 splits lb_imbalance in four and names
		 * the domain ("domain0 SMT 03 …"): 11 per type, lb_hot_gained ninth. */
		if (version == 15 || version == 16) {
			per = 8;
			at = 5;
		} else if (version == 17) {
			per = 11;
			at = 8;
			skip = 3;
		} else {
			return -EPROTO;
		}
		p = line;
		for (int i = 0; i < skip && p; i++) {
			p = strchr(p, ' ');
			p = p ? p + 1 : NULL;
		}
		while (p && *p && *p != '\n' && n < 40) {
			char *end;

			f[n] = strtoull(p, &end, 10);
			if (end == p)
				break;
			n++;
			p = end;
		}
		if (n < 3 * per)
			return -EPROTO;
		for (int t = 0; t < 3; t++)
			*lb_hot_gained += f[t * per + at];
		lines++;
	}
	return lines ? 0 : -ENOENT;
}
