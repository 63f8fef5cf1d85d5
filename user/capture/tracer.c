// SPDX-License-Identifier: GPL-2.0
/*
 * The tracer's facade: tracer_load() chooses a backend (--backend bpf or ftrace, or auto:
 * BPF where its programs load, else ftrace), and every later step calls through that
 * backend's table of operations (tracer_backend.h; bpf_tracer.c, ftrace_tracer.c).
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_util.h"
#include "launch.h"
#include "run.h"
#include "tracer.h"
#include "tracer_backend.h"

const char *tracer_backend_name(int backend)
{
	switch (backend) {
	case TRACER_BACKEND_BPF:
		return "bpf";
	case TRACER_BACKEND_FTRACE:
		return "ftrace";
	default:
		return "auto";
	}
}

int tracer_backend_parse(const char *name)
{
	static const int all[] = { TRACER_BACKEND_AUTO, TRACER_BACKEND_BPF,
				   TRACER_BACKEND_FTRACE };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(name, tracer_backend_name(all[i])))
			return all[i];
	return -1;
}

void tracer_describe(const struct tracer *tr, struct run_backend *b)
{
	snprintf(b->name, sizeof(b->name), "%s", tracer_backend_name(tr->backend));
	snprintf(b->why, sizeof(b->why), "%s", tr->backend_why);
	if (tr->backend_ops && tr->backend_ops->describe)
		tr->backend_ops->describe(tr, b);
}

/*
 * What every backend starts from: the callbacks and the count of possible CPUs, then its
 * own load.  why: the run's meta.backend.why, NULL to set it after.
 */
static int tracer_load_with(struct tracer *tr, const struct tracer_opts *o,
			    const struct tracer_backend *ops, const char *why)
{
	memset(tr, 0, sizeof(*tr));
	tr->on_migrate = o->on_migrate;
	tr->on_unit = o->on_unit;
	tr->on_offcpu = o->on_offcpu;
	tr->on_switch = o->on_switch;
	tr->on_waking = o->on_waking;
	tr->on_probe_unit = o->on_probe_unit;
	tr->ctx = o->ctx;
	tr->nr_cpus = libbpf_num_possible_cpus();
	if (tr->nr_cpus <= 0) {
		fprintf(stderr, "migtrace: cannot count the possible CPUs: %s\n",
			strerror(-tr->nr_cpus));
		return tr->nr_cpus ? tr->nr_cpus : -EINVAL;
	}
	tr->backend_ops = ops;
	tr->backend = ops->id;
	if (why)
		snprintf(tr->backend_why, sizeof(tr->backend_why), "%s", why);
	return ops->load(tr, o);
}

/*
 * auto: BPF, its libbpf warnings kept back (they would read as a failure of the run); where
 * its programs do not load, ftrace, saying why.  --cgroup needs BPF: its refusal
 * is BPF's, printed as without auto.
 */
static int tracer_load_auto(struct tracer *tr, const struct tracer_opts *o)
{
	const char *missing = mt_missing_bpf_cap();
	struct tracer_opts quiet = *o;
	char bpf_why[128], why[sizeof(tr->backend_why)];
	int err;

	if (missing) {
		snprintf(bpf_why, sizeof(bpf_why), "migtrace lacks %s", missing);
		if (o->scope == MT_SCOPE_CGROUP) {
			fprintf(stderr, "migtrace: needs %s to load BPF programs (--cgroup needs "
				"BPF): run as root (sudo) or grant CAP_BPF and CAP_PERFMON\n",
				missing);
			return -EPERM;
		}
	} else {
		bool capturing = !mt_libbpf_capture_begin();	/* not if a caller is */

		quiet.quiet_load = true;
		err = tracer_load_with(tr, &quiet, &bpf_tracer_backend,
				       "auto: the BPF programs loaded");
		if (capturing)
			free(mt_libbpf_capture_end());
		if (!err)
			return 0;
		tracer_destroy(tr);
		/* what the user fixes here (the line above says how) is not BPF missing */
		if (err == -EMFILE || err == -ENFILE || err == -ENOMEM)
			return err;
		snprintf(bpf_why, sizeof(bpf_why), "its programs did not load (%s; --backend bpf "
			 "says why)", strerror(-err));
		if (o->scope == MT_SCOPE_CGROUP)
			return tracer_load_with(tr, o, &bpf_tracer_backend, NULL);
	}
	/* the run's text and meta say it: "Backend: ftrace (auto: BPF unavailable: ...)" */
	snprintf(why, sizeof(why), "auto: BPF unavailable: %s", bpf_why);
	return tracer_load_with(tr, o, &ftrace_tracer_backend, why);
}

int tracer_load(struct tracer *tr, const struct tracer_opts *o)
{
	/* Both backends see the host's pids (tp_btf's task_struct, the trace events), which a
	 * process in a child pid namespace neither has nor can translate: its workload's pid
	 * would name another task, and the run would be silently empty. */
	if (launch_in_child_pid_ns() == 1) {
		fprintf(stderr, "migtrace: this process is in a pid namespace of its own (a "
			"container's), and the scheduler's events name tasks by the host's pids: "
			"run migtrace in the host's pid namespace (docker run --pid=host, or on the "
			"host itself)\n");
		return -EOPNOTSUPP;
	}
	switch (o->backend) {
	case TRACER_BACKEND_BPF:
		return tracer_load_with(tr, o, &bpf_tracer_backend, "--backend bpf");
	case TRACER_BACKEND_FTRACE:
		return tracer_load_with(tr, o, &ftrace_tracer_backend, "--backend ftrace");
	default:
		return tracer_load_auto(tr, o);
	}
}

/* The steps after a load: -EINVAL on a tracer no backend was chosen for. */

int tracer_track(struct tracer *tr, uint32_t tgid, bool from_exec)
{
	return tr->backend_ops ? tr->backend_ops->track(tr, tgid, from_exec) : -EINVAL;
}

int tracer_scope_cgroup(struct tracer *tr, uint64_t cgroup_id)
{
	return tr->backend_ops && tr->backend_ops->scope_cgroup ?
		tr->backend_ops->scope_cgroup(tr, cgroup_id) : -EOPNOTSUPP;
}

int tracer_probe_arm(struct tracer *tr, uint32_t tid, uint64_t moment_ns, uint32_t kind)
{
	return tr->backend_ops && tr->backend_ops->probe_arm ?
		tr->backend_ops->probe_arm(tr, tid, moment_ns, kind) : -EOPNOTSUPP;
}

int tracer_probe_armed(struct tracer *tr, uint32_t tid)
{
	return tr->backend_ops && tr->backend_ops->probe_armed ?
		tr->backend_ops->probe_armed(tr, tid) : -EOPNOTSUPP;
}

int tracer_attach(struct tracer *tr)
{
	return tr->backend_ops ? tr->backend_ops->attach(tr) : -EINVAL;
}

int tracer_attach_unit(struct tracer *tr, const char *binary, const char *function)
{
	return tr->backend_ops ? tr->backend_ops->attach_unit(tr, binary, function) : -EINVAL;
}

int tracer_poll(struct tracer *tr, int timeout_ms)
{
	return tr->backend_ops ? tr->backend_ops->poll(tr, timeout_ms) : -EINVAL;
}

int tracer_stop(struct tracer *tr)
{
	return tr->backend_ops ? tr->backend_ops->stop(tr) : 0;
}

int tracer_read_counts(const struct tracer *tr, struct mt_stats *stats, struct mt_hists *hists)
{
	return tr->backend_ops ? tr->backend_ops->read_counts(tr, stats, hists) : -EINVAL;
}

int tracer_prog_stats(const struct tracer *tr, struct tracer_prog_stat *out, int max)
{
	if (!tr->backend_ops || !tr->backend_ops->prog_stats)
		return 0;	/* ftrace: no programs */
	return tr->backend_ops->prog_stats(tr, out, max);
}

int tracer_read_pairs(const struct tracer *tr, uint64_t *pairs)
{
	return tr->backend_ops ? tr->backend_ops->read_pairs(tr, pairs) : -EINVAL;
}

void tracer_destroy(struct tracer *tr)
{
	if (tr->backend_ops)
		tr->backend_ops->destroy(tr);
	tr->backend_ops = NULL;
	tr->backend_state = NULL;
}
