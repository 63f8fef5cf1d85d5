// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF backend (tracer_backend.h): the skeleton's lifecycle in one straight line: open,
 * set rodata and map sizes, load, fill the tracked-tgid map, attach, drain the ring buffer,
 * detach, destroy.  Every step that fails says which it was and the errno text.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf_util.h"
#include "run.h"
#include "tracer.h"	/* before the skeleton: it defines the .bss structs */
#include "tracer_backend.h"
#include "migtrace.skel.h"
#include "migtrace_pre512.skel.h"

/* The pre-5.12 object is opened through migtrace's skeleton (open_skeleton): the same
 * source, the same maps, programs and globals, laid out alike. */
_Static_assert(sizeof(*((struct migtrace_bpf *)0)->rodata) ==
	       sizeof(*((struct migtrace_pre512_bpf *)0)->rodata), "rodata differs");
_Static_assert(sizeof(*((struct migtrace_bpf *)0)->bss) ==
	       sizeof(*((struct migtrace_pre512_bpf *)0)->bss), "bss differs");
_Static_assert(sizeof(((struct migtrace_bpf *)0)->maps) ==
	       sizeof(((struct migtrace_pre512_bpf *)0)->maps), "maps differ");
_Static_assert(sizeof(((struct migtrace_bpf *)0)->progs) ==
	       sizeof(((struct migtrace_pre512_bpf *)0)->progs), "programs differ");

#define BPF_TRACER_MAX_UNIT_LINKS 8	/* --unit's probes: a uprobe and a uretprobe a function */

/* The backend's state, tr->backend_state. */
struct bpf_tracer {
	struct migtrace_bpf *skel;
	struct ring_buffer *rb;
	/* src x dst of the migration records read; the kernel counts only those it could not
	 * send (bpf_tracer_read_pairs adds the two) */
	uint64_t *read_pairs;
	int nunit_links;
	struct bpf_link *unit_links[BPF_TRACER_MAX_UNIT_LINKS];
	bool reduced;		/* no task storage or bpf_get_current_task_btf() (5.11) */
	bool pre512;		/* no BPF atomics (5.12): the MT_PRE_512 object */
};

static struct bpf_tracer *bpf_of(const struct tracer *tr)
{
	return tr->backend_state;
}

/*
 * A task's __state as sched_switch's prev_state reports it (the kernel's
 * __trace_sched_switch_state()): 0 runnable; else one bit, 1 << (the highest of the state's
 * TASK_REPORT bits - 1), TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD) as its own, 0x80.
 * The ftrace backend's records carry the event's own; so do the BPF ones after this.
 */
static __s64 reported_state(__s64 state)
{
	__s64 report = state & 0x7f;	/* TASK_REPORT */
	int bit = 0;

	if ((state & 0x402) == 0x402)
		return 0x80;		/* TASK_REPORT_IDLE */
	while (report >> bit)
		bit++;
	return bit ? (__s64)1 << (bit - 1) : 0;
}

static int handle_record(void *ctx, void *data, size_t len)
{
	struct tracer *tr = ctx;
	__u32 kind = len >= sizeof(__u32) ? *(__u32 *)data : 0;

	if (kind == MT_REC_MIGRATE && len >= sizeof(struct mt_migrate)) {
		const struct mt_migrate *m = data;

		if (m->src_cpu < tr->nr_cpus && m->dst_cpu < tr->nr_cpus)
			bpf_of(tr)->read_pairs[m->src_cpu * tr->nr_cpus + m->dst_cpu]++;
		return tr->on_migrate ? tr->on_migrate(tr->ctx, m) : 0;
	}
	if (kind == MT_REC_UNIT && len >= sizeof(struct mt_unit) && tr->on_unit)
		return tr->on_unit(tr->ctx, data);
	if (kind == MT_REC_OFFCPU && len >= sizeof(struct mt_offcpu) && tr->on_offcpu)
		return tr->on_offcpu(tr->ctx, data);
	if (kind == MT_REC_SWITCH && len >= sizeof(struct mt_switch) && tr->on_switch) {
		struct mt_switch s = *(const struct mt_switch *)data;

		s.prev_state = s.preempted ? 0 : reported_state(s.prev_state);
		return tr->on_switch(tr->ctx, &s);
	}
	if (kind == MT_REC_WAKING && len >= sizeof(struct mt_waking) && tr->on_waking)
		return tr->on_waking(tr->ctx, data);
	if (kind == MT_REC_PROBE_UNIT && len >= sizeof(struct mt_unit) && tr->on_probe_unit)
		return tr->on_probe_unit(tr->ctx, data);
	return 0;
}

/*
 * The slots of per-task state (bpf/migtrace.bpf.c, `slots`): one per pid up to pid_max,
 * a power of two, at most 64 Ki (4 MiB); a task whose pid shares its slot with another
 * live traced task's keeps its state in task storage instead.  MIGTRACE_TASK_SLOTS=N (a
 * power of two) sets the count, so that tests can send tasks down that second path.
 */
#define TRACER_MAX_SLOTS (1u << 16)

static __u32 task_slot_count(void)
{
	const char *forced = getenv("MIGTRACE_TASK_SLOTS");
	unsigned long pid_max = TRACER_MAX_SLOTS;
	FILE *f;
	__u32 n = 1024;

	if (forced) {
		char *end;
		unsigned long v = strtoul(forced, &end, 10);

		if (*forced && !*end && v && v <= TRACER_MAX_SLOTS && !(v & (v - 1)))
			return (__u32)v;
		fprintf(stderr, "migtrace: MIGTRACE_TASK_SLOTS=%s is not a power of two from 1 "
			"to %u: ignored\n", forced, TRACER_MAX_SLOTS);
	}
	f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%lu", &pid_max) != 1)
			pid_max = TRACER_MAX_SLOTS;
		fclose(f);
	}
	while (n < pid_max && n < TRACER_MAX_SLOTS)
		n *= 2;
	return n;
}

/*
 * Where the wake-up latency starts (bpf/migtrace.bpf.c, queued_clock_of): the kernel's own
 * enqueue stamp, sched_info.last_queued, when CO-RE found it in this kernel
 * (CONFIG_SCHED_INFO, which SCHEDSTATS and TASK_DELAY_ACCT select), so that no program runs
 * at each wake-up; else a sched_wakeup program.  mt_features says what CO-RE found: run once
 * after load, it is never attached.  MIGTRACE_WAKEUP_HOOK=1 takes the program anyway, so
 * that tests can compare the two and cover kernels without the stamp.  Call after load,
 * before attach.
 */
static bool wakeup_from_queued(struct migtrace_bpf *skel)
{
	const char *forced = getenv("MIGTRACE_WAKEUP_HOOK");
	LIBBPF_OPTS(bpf_test_run_opts, run);
	int err;

	if (forced && *forced && strcmp(forced, "0"))
		return false;
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.mt_features), &run);
	if (err) {
		fprintf(stderr, "migtrace: running mt_features to learn what this kernel has "
			"failed (%s): the wake-up latency comes from a sched_wakeup program\n",
			strerror(errno));
		return false;
	}
	return skel->bss->has_queued_stamp;
}

/*
 * Descriptors beside the object's: its BTF, the kernel's BTF while it loads, the ring
 * buffer's epoll, and the files opened after load (the run file's temporary, a sweep's
 * output file, /proc files read while tracing).
 */
#define TRACER_FD_SLACK 16

/* What loading and attaching skel takes in file descriptors, on top of those open now: a map
 * or program is one, a program's link another, and --unit's probe pairs a link each. */
static unsigned long fds_needed(struct migtrace_bpf *skel)
{
	unsigned long need = BPF_TRACER_MAX_UNIT_LINKS + TRACER_FD_SLACK;
	struct bpf_program *prog;
	struct bpf_map *map;
	struct dirent *e;
	DIR *d;

	bpf_object__for_each_map(map, skel->obj)
		need++;
	bpf_object__for_each_program(prog, skel->obj)
		need += 2;
	d = opendir("/proc/self/fd");
	while (d && (e = readdir(d)))
		need += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return need;
}

/*
 * Each CPU's topology ids into the object's arrays (bpf/migtrace.bpf.c level_of): a CPU
 * without ids (none given, or past those given) is its own core, of an unknown LLC, on
 * node 0, so that its moves are never called SMT or same-LLC by mistake.
 */
static void set_topo(struct migtrace_bpf *skel, int nr_cpus, const struct run_topo *topo)
{
	int n = (int)(sizeof(skel->rodata->cpu_core) / sizeof(skel->rodata->cpu_core[0]));

	for (int cpu = 0; cpu < nr_cpus && cpu < n; cpu++) {
		bool known = topo && cpu < topo->ncpus;

		skel->rodata->cpu_core[cpu] = known ? topo->core[cpu] : (__s16)cpu;
		skel->rodata->cpu_llc[cpu] = known ? topo->llc[cpu] : -1;
		skel->rodata->cpu_node[cpu] = known ? topo->node[cpu] : 0;
	}
	skel->rodata->numa_balancing = topo && topo->numa_balancing;
}


/*
 * What 5.10 lacks and 5.11 brought (compat.bpf.h): task storage and
 * bpf_get_current_task_btf().  Without either, every use is dead code to the verifier, the
 * task-storage maps are not created, and the unit probes, which need both, are not loaded.
 */
static void use_task_btf_features(struct migtrace_bpf *skel, struct bpf_tracer *bt,
				  const struct mt_bpf_features *f)
{
	skel->rodata->has_task_storage = f->task_storage;
	skel->rodata->has_current_task_btf = f->current_task_btf;
	bt->reduced = !f->task_storage || !f->current_task_btf;
	if (!f->task_storage) {
		bpf_map__set_autocreate(skel->maps.tasks, false);
		bpf_map__set_autocreate(skel->maps.unit_tasks, false);
	}
	if (bt->reduced) {
		bpf_program__set_autoload(skel->progs.mt_unit_enter, false);
		bpf_program__set_autoload(skel->progs.mt_unit_exit, false);
	}
}

/*
 * migtrace's skeleton, holding the object this kernel takes: the one built with BPF's
 * atomics, or before 5.12 the one without (Makefile, migtrace_pre512).  NULL with errno.
 */
static struct migtrace_bpf *open_skeleton(bool pre512)
{
	struct migtrace_bpf *skel;
	int err;

	if (!pre512)
		return migtrace_bpf__open();
	skel = calloc(1, sizeof(*skel));
	if (!skel)
		return NULL;
	err = migtrace_bpf__create_skeleton(skel);
	if (!err) {
		skel->skeleton->data = (void *)migtrace_pre512_bpf__elf_bytes(&skel->skeleton->data_sz);
		err = bpf_object__open_skeleton(skel->skeleton, NULL);
	}
	if (err) {
		migtrace_bpf__destroy(skel);
		errno = -err;
		return NULL;
	}
	return skel;
}

static int bpf_tracer_load(struct tracer *tr, const struct tracer_opts *o)
{
	__u32 nr_slots = task_slot_count();
	struct migtrace_bpf *skel;
	struct mt_bpf_features features;
	struct bpf_tracer *bt;
	int err;

	bt = calloc(1, sizeof(*bt));
	if (!bt)
		return -ENOMEM;
	tr->backend_state = bt;
	bt->read_pairs = calloc((size_t)tr->nr_cpus * tr->nr_cpus, sizeof(*bt->read_pairs));
	if (!bt->read_pairs) {
		fprintf(stderr, "migtrace: no room for the %d x %d CPU-pair counts\n", tr->nr_cpus,
			tr->nr_cpus);
		return -ENOMEM;
	}
	mt_bpf_features_probe(&features);
	bt->pre512 = !features.atomics;
	skel = bt->skel = open_skeleton(bt->pre512);
	if (!skel) {
		err = -errno;
		fprintf(stderr, "migtrace: opening the BPF object failed: %s\n", strerror(-err));
		return err;
	}
	skel->rodata->nr_cpus = (__u32)tr->nr_cpus;
	skel->rodata->hot_ns = o->hot_ns;
	skel->rodata->offcpu_records = o->on_offcpu != NULL;
	skel->rodata->switch_records = o->on_switch != NULL;
	skel->rodata->unit_probes = o->unit_probes;
	skel->rodata->probe_runs = o->on_probe_unit != NULL;
	skel->rodata->slot_mask = nr_slots - 1;
	skel->rodata->scope = o->scope;
	skel->bss->scope_cgroup_id = o->cgroup_id;
	skel->rodata->send_records = !o->no_records;
	use_task_btf_features(skel, bt, &features);
	if (bt->reduced && o->unit_probes) {
		fprintf(stderr, "migtrace: --unit BINARY:FUNCTION needs task storage and "
			"bpf_get_current_task_btf() (Linux 5.11), which this kernel lacks: trace "
			"with --backend ftrace, whose uprobe events time units on any kernel\n");
		return -EOPNOTSUPP;
	}
	if (o->ringbuf_bytes)
		skel->rodata->wakeup_bytes = o->ringbuf_bytes / 4;
	set_topo(skel, tr->nr_cpus, o->topo);
	err = bpf_map__set_max_entries(skel->maps.cpu_pairs, (__u32)(tr->nr_cpus * tr->nr_cpus));
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.slots, nr_slots);
	if (!err && o->ringbuf_bytes)
		err = bpf_map__set_max_entries(skel->maps.events, (__u32)o->ringbuf_bytes);
	if (err) {
		fprintf(stderr, "migtrace: sizing the BPF maps failed: %s\n", strerror(-err));
		return err;
	}
	/* a limit too tight fails inside libbpf with EINVAL or EMFILE, which say nothing */
	err = mt_nofile_ensure(fds_needed(skel));
	if (err)
		return err;
	err = migtrace_bpf__load(skel);
	if (err) {
		if (!o->quiet_load)
			fprintf(stderr, "migtrace: loading the BPF programs failed: %s (libbpf "
				"printed the verifier's log above; `migtrace doctor` says which "
				"program this kernel refuses and why)\n", strerror(-err));
		return err;
	}
	tr->wakeup_from_queued = wakeup_from_queued(skel);
	skel->bss->wakeup_from_queued = tr->wakeup_from_queued;
	/* loaded either way (doctor verifies every program), attached only when needed */
	bpf_program__set_autoattach(skel->progs.mt_wakeup, !tr->wakeup_from_queued);
	bpf_program__set_autoattach(skel->progs.mt_waking, o->on_switch != NULL);
	/* moves between cgroups matter to --cgroup only */
	bpf_program__set_autoattach(skel->progs.mt_cgroup_attach, o->scope == MT_SCOPE_CGROUP);
	return 0;
}

static int bpf_tracer_track(struct tracer *tr, uint32_t tgid, bool from_exec)
{
	struct migtrace_bpf *skel = bpf_of(tr)->skel;
	__u8 mode = from_exec ? MT_TRACK_AT_EXEC : MT_TRACK_NOW;
	__u64 *word = &skel->data_filter->traced_tgid_bits[(tgid / 64) % MT_TGID_WORDS];
	int err = bpf_map__update_elem(skel->maps.tracked_tgids, &tgid, sizeof(tgid), &mode,
				       sizeof(mode), BPF_ANY);

	if (err) {
		fprintf(stderr, "migtrace: adding tgid %u to the traced set failed: %s\n", tgid,
			strerror(-err));
		return err;
	}
	/* and the pre-filter's bit, written through the mmap'ed section */
	__atomic_fetch_or(word, 1ULL << (tgid % 64), __ATOMIC_RELAXED);
	return 0;
}

static int bpf_tracer_attach(struct tracer *tr)
{
	struct bpf_tracer *bt = bpf_of(tr);
	int err = migtrace_bpf__attach(bt->skel);

	if (err) {
		fprintf(stderr, "migtrace: attaching to the sched tracepoints failed: %s\n",
			strerror(-err));
		return err;
	}
	bt->rb = ring_buffer__new(bpf_map__fd(bt->skel->maps.events), handle_record, tr, NULL);
	if (!bt->rb) {
		err = -errno;
		fprintf(stderr, "migtrace: creating the ring-buffer reader failed: %s\n",
			strerror(-err));
		return err;
	}
	return 0;
}

static int bpf_tracer_attach_unit(struct tracer *tr, const char *binary, const char *function)
{
	struct bpf_tracer *bt = bpf_of(tr);
	struct bpf_program *progs[2] = { bt->skel->progs.mt_unit_enter,
					 bt->skel->progs.mt_unit_exit };
	int err;

	if (bt->nunit_links + 2 > BPF_TRACER_MAX_UNIT_LINKS)
		return -E2BIG;
	for (int i = 0; i < 2; i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = function, .retprobe = i == 1);
		struct bpf_link *l = bpf_program__attach_uprobe_opts(progs[i], -1, binary, 0, &uo);

		if (!l) {
			err = -errno;
			fprintf(stderr, "migtrace: attaching a %s to %s:%s failed: %s (is the "
				"function in the binary's symbol table?)\n",
				i ? "uretprobe" : "uprobe", binary, function, strerror(-err));
			return err;
		}
		bt->unit_links[bt->nunit_links++] = l;
	}
	return 0;
}

static int bpf_tracer_poll(struct tracer *tr, int timeout_ms)
{
	struct ring_buffer *rb = bpf_of(tr)->rb;
	int n = ring_buffer__poll(rb, timeout_ms), m;

	if (n < 0)
		return n;
	/* Records are submitted without a wake-up below the threshold: drain on the timer. */
	m = ring_buffer__consume(rb);
	return m < 0 ? m : n + m;
}

static void unit_links_destroy(struct bpf_tracer *bt)
{
	for (int i = 0; i < bt->nunit_links; i++)
		bpf_link__destroy(bt->unit_links[i]);
	bt->nunit_links = 0;
}

static int bpf_tracer_stop(struct tracer *tr)
{
	struct bpf_tracer *bt = bpf_of(tr);

	if (!bt || !bt->skel)
		return 0;
	unit_links_destroy(bt);
	migtrace_bpf__detach(bt->skel);
	return bt->rb ? ring_buffer__consume(bt->rb) : 0;
}

static int bpf_tracer_read_counts(const struct tracer *tr, struct mt_stats *stats,
				  struct mt_hists *hists)
{
	struct mt_counts *percpu;
	__u32 zero = 0;
	int err = 0;

	percpu = calloc((size_t)tr->nr_cpus, sizeof(*percpu));
	if (!percpu)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(bpf_of(tr)->skel->maps.counts), &zero, percpu)) {
		err = -errno;
		fprintf(stderr, "migtrace: reading the per-CPU counters failed: %s\n",
			strerror(-err));
		goto out;
	}
	memset(stats, 0, sizeof(*stats));
	memset(hists, 0, sizeof(*hists));
	/* Both structs are arrays of __u64: sum them word by word. */
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++) {
		const __u64 *s = (const __u64 *)&percpu[cpu].stats;
		const __u64 *h = (const __u64 *)&percpu[cpu].hists;

		for (size_t i = 0; i < sizeof(*stats) / sizeof(__u64); i++)
			((__u64 *)stats)[i] += s[i];
		for (size_t i = 0; i < sizeof(*hists) / sizeof(__u64); i++)
			((__u64 *)hists)[i] += h[i];
	}
out:
	free(percpu);
	return err;
}

static int bpf_tracer_prog_stats(const struct tracer *tr, struct tracer_prog_stat *out, int max)
{
	const struct bpf_tracer *bt = bpf_of(tr);
	struct bpf_program *prog;
	int n = 0, err;

	if (!bt || !bt->skel)
		return 0;
	bpf_object__for_each_program(prog, bt->skel->obj) {
		struct mt_prog_run run;

		if (n == max)
			break;
		if (!bpf_program__autoload(prog))
			continue;	/* not loaded on this kernel (use_task_btf_features) */
		out[n].name = bpf_program__name(prog);

		err = mt_prog_run_stats(bpf_program__fd(prog), &run);
		if (err) {
			fprintf(stderr, "migtrace: reading the run counts of %s failed: %s\n",
				out[n].name, strerror(-err));
			return err;
		}
		out[n].run_cnt = run.run_cnt;
		out[n].run_time_ns = run.run_time_ns;
		out[n].recursion_misses = run.recursion_misses;
		n++;
	}
	return n;
}

static int bpf_tracer_read_pairs(const struct tracer *tr, uint64_t *pairs)
{
	const struct bpf_tracer *bt = bpf_of(tr);
	int fd = bpf_map__fd(bt->skel->maps.cpu_pairs);

	for (__u32 k = 0; k < (__u32)(tr->nr_cpus * tr->nr_cpus); k++) {
		if (bpf_map_lookup_elem(fd, &k, &pairs[k])) {
			int err = -errno;

			fprintf(stderr, "migtrace: reading the CPU-pair counts failed: %s\n",
				strerror(-err));
			return err;
		}
		pairs[k] += bt->read_pairs[k];
	}
	return 0;
}

static void bpf_tracer_destroy(struct tracer *tr)
{
	struct bpf_tracer *bt = bpf_of(tr);

	if (!bt)
		return;
	unit_links_destroy(bt);
	ring_buffer__free(bt->rb);
	migtrace_bpf__destroy(bt->skel);
	free(bt->read_pairs);
	free(bt);
	tr->backend_state = NULL;
}

/* --cgroup's subtree now by another id: every task decides again at its next event. */
static int bpf_tracer_scope_cgroup(struct tracer *tr, uint64_t cgroup_id)
{
	struct migtrace_bpf *skel = bpf_of(tr)->skel;

	__atomic_store_n(&skel->bss->scope_cgroup_id, cgroup_id, __ATOMIC_RELEASE);
	__atomic_fetch_add(&skel->bss->cgroup_gen, 1, __ATOMIC_RELEASE);
	return 0;
}

/* --probe-moves: a thread armed for its next run, or (kind 0) the arm taken back. */
static int bpf_tracer_probe_arm(struct tracer *tr, uint32_t tid, uint64_t moment_ns,
				uint32_t kind)
{
	struct migtrace_bpf *skel = bpf_of(tr)->skel;
	int fd = bpf_map__fd(skel->maps.probe_arms), err = 0;
	struct mt_probe_arm arm = { .moment_ns = moment_ns, .kind = kind };

	/* probe_armed counts the arms (bpf/migtrace.bpf.c): up before one is added, so that
	 * the programs look it up; down by whoever deletes one */
	if (!kind) {
		if (bpf_map_delete_elem(fd, &tid))
			return -errno;
		__atomic_fetch_sub(&skel->bss->probe_armed, 1, __ATOMIC_RELEASE);
		return 0;
	}
	/* a thread armed again replaces its arm: one arm, counted once */
	if (!bpf_map_lookup_elem(fd, &tid, &arm)) {
		arm = (struct mt_probe_arm){ .moment_ns = moment_ns, .kind = kind };
		return bpf_map_update_elem(fd, &tid, &arm, BPF_EXIST) ? -errno : 0;
	}
	__atomic_fetch_add(&skel->bss->probe_armed, 1, __ATOMIC_RELEASE);
	if (bpf_map_update_elem(fd, &tid, &arm, BPF_NOEXIST)) {
		err = -errno;
		__atomic_fetch_sub(&skel->bss->probe_armed, 1, __ATOMIC_RELEASE);
	}
	return err;
}

static int bpf_tracer_probe_armed(struct tracer *tr, uint32_t tid)
{
	struct mt_probe_arm arm;

	if (!bpf_map_lookup_elem(bpf_map__fd(bpf_of(tr)->skel->maps.probe_arms), &tid, &arm))
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

/* A reduced mode is named in the run, never silent: after why the backend was chosen. */
static void bpf_tracer_describe(const struct tracer *tr, struct run_backend *b)
{
	size_t len = strlen(b->why);

	if (bpf_of(tr) && bpf_of(tr)->reduced)
		snprintf(b->why + len, sizeof(b->why) - len, "%sreduced: no task storage before "
			 "Linux 5.11 (a task whose pid slot another holds is not traced, counted "
			 "as storage_busy_events; no --unit)", len ? "; " : "");
	len = strlen(b->why);
	if (bpf_of(tr) && bpf_of(tr)->pre512)
		snprintf(b->why + len, sizeof(b->why) - len, "%sthe programs built without BPF "
			 "atomics, which came in 5.12", len ? "; " : "");
}

const struct tracer_backend bpf_tracer_backend = {
	.id = TRACER_BACKEND_BPF,
	.load = bpf_tracer_load,
	.track = bpf_tracer_track,
	.attach = bpf_tracer_attach,
	.attach_unit = bpf_tracer_attach_unit,
	.poll = bpf_tracer_poll,
	.stop = bpf_tracer_stop,
	.read_counts = bpf_tracer_read_counts,
	.read_pairs = bpf_tracer_read_pairs,
	.prog_stats = bpf_tracer_prog_stats,
	.describe = bpf_tracer_describe,
	.scope_cgroup = bpf_tracer_scope_cgroup,
	.probe_arm = bpf_tracer_probe_arm,
	.probe_armed = bpf_tracer_probe_armed,
	.destroy = bpf_tracer_destroy,
};
