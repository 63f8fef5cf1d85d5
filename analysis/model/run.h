/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run model: everything one `migtrace run` or `migtrace validate` produced, in one
 * struct.  Capture fills the environment, the configuration and what was traced; analysis
 * adds its numbers (summary figures, correlation, verdict); renderers only format it.  The
 * run file is its serialisation (schema RUN_SCHEMA, docs/run-file.md): `migtrace report`
 * reads a file back into this struct and renders it with the same code, which is why the
 * model holds numbers and names, never sentences.
 */
#ifndef MIGTRACE_RUN_H
#define MIGTRACE_RUN_H

#include <limits.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cachewalk.h"
#include "calib.h"
#include "findings.h"
#include "footprint.h"
#include "migtrace.h"
#include "parse.h"
#include "probe.h"

#define RUN_SCHEMA "migtrace.run/3"
/* The oldest schema this migtrace reads: /3 only added members, optional when read. */
#define RUN_SCHEMA_OLDEST "migtrace.run/2"
#define RUN_MAX_PROGS 12
#define RUN_MAX_CACHES 16
#define RUN_NO_HOT_ARG INT64_MIN	/* setup.hot_ns_arg when --hot-ns was not given */
#define RUN_MAX_NR_CPUS 4096		/* the largest CPU-pair matrix a file may declare */
#define RUN_MAX_THRESHOLDS 16		/* what-if thresholds a tally counts at */

enum run_kind { RUN_KIND_RUN, RUN_KIND_VALIDATE };

/*
 * One kind of cache of the online CPUs (a level, type and size, shared alike), with how
 * many of it there are and where its description came from.
 */
struct run_cache {
	int level;
	char type[16];			/* "Data", "Instruction", "Unified" */
	uint64_t size_bytes;		/* bytes */
	int instances;			/* how many the online CPUs have; 0: unknown */
	int cpus_per_instance;		/* CPUs sharing each */
	char shared_cpus[256];		/* cpulist of the CPUs sharing the first one */
	bool shared_known;		/* false: the source gave no sharing */
	char source[8];			/* "sysfs" or "cpuid" */
	uint32_t cpuid_leaf;		/* the CPUID leaf, when source is "cpuid"; else 0 */
};

/* Core scheduling on this kernel, as PR_SCHED_CORE answers (docs/design.md, "When the
 * threshold does not govern"). */
enum run_core_sched {
	RUN_CORE_NOT_CHECKED,
	RUN_CORE_NOT_BUILT,	/* EINVAL: a kernel without CONFIG_SCHED_CORE */
	RUN_CORE_NO_SMT,	/* ENODEV: built, but no core has SMT siblings: no cookie */
	RUN_CORE_AVAILABLE,	/* a cookie can be set: see core_cookie_tasks */
};

/* A member of a kernel type, as the kernel's BTF says. */
enum run_btf_member {
	RUN_BTF_NOT_CHECKED,	/* no BTF, or (run) not checked as cheaply as a run allows */
	RUN_BTF_ABSENT,
	RUN_BTF_PRESENT,
};

/*
 * What decides a load-balancer pull besides task_hot()'s age, as the host showed it when the
 * run began (docs/design.md, "When the threshold does not govern").  The traced tasks are the
 * workload's threads when tracing began (doctor: its own process).
 */
struct run_sched_rules {
	bool checked;			/* false: a file written before these were recorded */
	char scx_state[16];		/* /sys/kernel/sched_ext/state: "enabled", "disabled",
					 * "enabling", "disabling"; "" a kernel without sched_ext */
	char scx_ops[128];		/* root/ops: the BPF scheduler's name; "" none */
	int scx_switch_all;		/* 1: every fair task is the BPF scheduler's; 0: partial,
					 * only SCHED_EXT tasks; -1 not known */
	int numa_balancing;		/* kernel.numa_balancing; -1 not readable (no such knob) */
	int numa_nodes;			/* /sys/devices/system/node/node*; 0 not known */
	enum run_core_sched core_sched;
	int core_cookie_tasks;		/* tasks of the machine with a core-scheduling cookie;
					 * -1 not counted (core scheduling not available) */
	int traced_tasks;		/* traced tasks checked for what follows; 0 none */
	int traced_ext_tasks;		/* of them, of policy SCHED_EXT */
	int traced_cookie_tasks;	/* of them, with a cookie */
	enum run_btf_member preferred_llc;	/* task_struct.preferred_llc: cache-aware load
						 * balancing (CONFIG_SCHED_CACHE) */
	/* its knobs as the run began (debugfs sched/llc_balancing/), -1 not readable */
	struct run_llc_knobs {
		int enabled, aggr_tolerance, imb_pct, overaggr_pct, epoch_period,
			epoch_affinity_timeout;
	} llc;
	/* the kernel's LLC ids (sd_llc_id, what preferred_llc holds) of the possible CPUs,
	 * "ID:CPULIST;ID:CPULIST" ("0:0-1;1:2-3"); "" not read (docs/run-file.md) */
	char llc_ids[256];
};

/* The CPUs of the kernel's LLC id in s->llc_ids into out: 0, or -ENOENT when not listed. */
int run_llc_cpus(const struct run_sched_rules *s, int id, struct cpu_set_list *out);
/* The kernel's LLC id of cpu, from s->llc_ids; -1 when not listed. */
int run_llc_of_cpu(const struct run_sched_rules *s, int cpu);

/* Where the run was made. */
struct run_environment {
	char kernel_release[65];	/* uname -r */
	char kernel_version[65];	/* uname -v */
	char machine[65];		/* uname -m */
	char cpu_model[128];		/* /proc/cpuinfo "model name"; "" when unknown */
	char online_cpus[256];		/* cpulist */
	int nr_online, cores, packages, threads_per_core;
	long cpu_mhz;			/* MHz; -1 when unknown */
	char cache_source[16];		/* "sysfs", "cpuid", "sysfs+cpuid" or "none" */
	int ncaches;
	struct run_cache caches[RUN_MAX_CACHES];
	struct tunable_state tunable;
	struct run_sched_rules rules;
};

/* What was asked: the options the run was made with. */
struct run_setup {
	enum run_kind kind;		/* run or validate */
	enum corr_mode mode;		/* from the workload's options (cachewalk --controlled),
					 * never re-discovered from its records */
	long pid_arg;			/* -p PID; 0 when a workload was launched */
	char cpus_arg[256];		/* --cpus as given; "" for all online */
	char user[64];			/* --user; "" for none */
	uint64_t duration_ns;		/* --duration, ns; 0 until the workload ends */
	int64_t hot_ns_arg;		/* --hot-ns, ns; RUN_NO_HOT_ARG when not given */
	uint64_t ringbuf_bytes;		/* bytes */
	uint64_t max_records;		/* records of each kind kept; 0 for all */
	char unit_arg[PATH_MAX];	/* --unit as given; "" for none */
	char calibration_file[PATH_MAX];	/* --calibration; "" for none */
	double cold_fraction;		/* the observed hot time's cold fraction (0.10) */
	int bootstrap;			/* resamples for the confidence intervals */
	/* the intervals' confidence level: 0.95; 1 - 0.05 / max_looks in a sequential
	 * experiment (0 in a file written before it was kept: 0.95) */
	double level;
	/* a sequential experiment (validate --budget; docs/design.md, "Sampling until it
	 * decides"): its time budget from validate's start, s (0: the fixed schedule of
	 * cw.samples rounds, no look before its end), and the most looks it may take */
	double budget_s;
	int max_looks;
	bool cachewalk;			/* the workload is the built-in cachewalk */
	struct cachewalk_config cw;	/* its options, when it is */
};

/* What ended a sequential experiment (run_sequence.end). */
enum seq_end {
	SEQ_END_NONE,		/* not sequential, or not ended by a look */
	SEQ_END_DECIDED,	/* a look's verdict was decided */
	SEQ_END_BUDGET,		/* no further round fitted in the time budget */
	SEQ_END_LOOKS,		/* the last look allowed was taken */
	SEQ_END_ROUNDS,		/* every round of the schedule (--samples) was run */
	SEQ_NR_ENDS
};

#define SEQ_MAX_LOOKS 8

/* A look of a sequential experiment: the units of `rounds` rounds judged. */
struct seq_look {
	uint32_t rounds;		/* rounds done when it looked */
	double at_s;			/* s since validate began */
	double judge_s;			/* s the look took to judge */
	int kind;			/* the verdict's enum verdict_kind at that look */
	double span;			/* its interval's hi / lo (INFINITY: open) */
};

/* How a sequential experiment went: its looks, and what ended it. */
struct run_sequence {
	int nlooks;
	struct seq_look looks[SEQ_MAX_LOOKS];
	uint32_t rounds;		/* rounds run in all */
	enum seq_end end;
};

/*
 * validate calibrates one pair of CPUs: its matrix is 2 x 2, cells[i * 2 + j] for the move
 * from cpus[i] to cpus[j] (the diagonal: a move to the same CPU, the seed's control).
 */
#define RUN_CALIB_CELLS 4

/* The calibrated hot time the verdict compares with: validate's own, or a file's. */
struct run_calibration {
	bool valid;
	bool inline_run;		/* measured by validate (else read from setup's file) */
	bool robust;			/* hot_ns is the robust (median x 6) hot time */
	double hot_ns;			/* the hot time the verdict uses, ns */
	/*
	 * validate's calibration (inline_run), or the --calibration file's.  Its cells are
	 * optional in the run file (files written before it kept them have none): NULL then.
	 */
	struct calibration cal;
	/*
	 * validate's footprint curve and the polluter's size it gave (docs/design.md, "The
	 * polluter's size"); optional in the run file: files written before it have none.
	 */
	bool has_footprint;
	struct footprint footprint;
};

/*
 * Which tracer recorded the run (docs/design.md, "The ftrace backend"): the BPF programs, or
 * scheduler events replayed in user space (a tracefs instance: "ftrace"; a trace-cmd
 * capture: "trace-cmd"), and what such events could not tell.  Optional in the run file
 * (meta.backend): a file written before backends has none, and name is then "".
 */
struct run_backend {
	char name[16];			/* "bpf", "ftrace", "trace-cmd"; "" not said */
	char why[256];			/* why it was chosen ("BPF refused: ..."); "" */
	bool replayed;			/* events replayed in user space: the rest holds */
	uint64_t events;		/* events replayed */
	uint64_t out_of_order;		/* events older than one replayed before: dropped */
	uint64_t lost_events;		/* events the trace's buffers lost (overruns) */
	uint64_t stopper_moves;		/* moves by a stopper, active*: active balance,
					 * affinity or sched_exec, not told apart */
	uint64_t unknown_age;		/* migrations of tasks never seen switching out */
	char missing[128];		/* sched events the trace lacked, comma-separated; "" */
	char not_read[256];		/* what the events do not carry, comma-separated */
	char source[PATH_MAX];		/* the capture read (trace-cmd); "" */
};

/* How the run went. */
struct run_meta {
	char command[1024];		/* the workload's command line, or "pid N" */
	int pid;			/* workload (or -p) pid */
	bool attached;			/* -p: an existing process */
	struct cpu_set_list cpus;	/* where the workload was pinned */
	int64_t hot_ns;			/* threshold task_hot() is judged at, ns */
	char hot_source[700];		/* where hot_ns came from */
	uint64_t ringbuf_bytes;		/* bytes */
	char unit_spec[4400];		/* BINARY:FUNCTION timed as units, "" for none */
	double unit_probe_ns;		/* --unit: what the uprobe + uretprobe pair adds to a
					 * unit here, ns, measured at start; -1: not measured */
	int nr_cpus;			/* possible CPUs: the pair matrix is nr_cpus^2 */
	char start_time[32];		/* UTC, ISO 8601, when tracing began */
	double duration_s;		/* s */
	/* tracing's window on the records' ts_ns clock (CLOCK_MONOTONIC; a trace-cmd
	 * capture's own clock: its first and last event), ns: a move stamped inside it is in
	 * the records unless counted lost; -1 unknown (older files) */
	int64_t traced_from_ns, traced_until_ns;
	int exit_status;		/* the workload's, as a shell reports it; -1 unknown */
	char end_reason[128];
	/* where the wake-up latency starts: "sched_info.last_queued" (the kernel's enqueue
	 * stamp) or "sched_wakeup" (a program on each wake-up); "" not said (older files) */
	char wakeup_latency_from[32];
	bool interrupted;		/* a launched workload was ended by a signal or
					 * --duration, not by itself: what it planned to do may
					 * not all be here */
	struct run_backend backend;	/* which tracer; optional (name "": not said) */
};

/*
 * Per CPU, the ids a move is classed by topology level (MT_LEVEL_OF in bpf/migtrace.h,
 * docs/design.md "Topology levels"), as the capture read them and passed them to BPF.
 */
struct run_topo {
	int ncpus;			/* CPUs with ids: 0 .. ncpus - 1 */
	int core[RUN_MAX_NR_CPUS];	/* the lowest CPU of its SMT siblings */
	int llc[RUN_MAX_NR_CPUS];	/* the lowest CPU sharing its last-level cache; -1: the
					 * sharing is not known */
	int node[RUN_MAX_NR_CPUS];	/* NUMA node (0 without node directories) */
	char llc_why[256];		/* why an online CPU's LLC sharing is not known; "" */
	bool numa_balancing;		/* kernel.numa_balancing was on: NUMA's rule was read */
};

/*
 * Per topology level, the refill cost of the load-balancer pulls of that level against the
 * same-CPU wakes, and the kernel's value judged on them alone (judge/levels.c): natural runs
 * with units only.
 */
struct run_level_cost {
	uint64_t pulls;			/* units joined to a pull of this level */
	uint64_t judged, min_judged;	/* as the verdict's: pulls in cells with both arms */
	enum verdict_kind kind;
	bool bias;			/* a cell's cost interval lies below 0: no verdict */
	enum corr_hot_state hot_state;
	double hot_ns;			/* the observed hot time of this level's cells, ns */
	double factor, factor_lo, factor_hi;	/* as the verdict's; NAN: none */
	bool factor_is_bound;
	/* the youngest cell with both arms: its ages, pulls and migration cost */
	int cells;			/* cells with both arms; 0: none (the rest is NAN) */
	double age_ns, age_hi_ns;	/* ns */
	uint64_t cell_pulls;
	double cost_ns, cost_lo_ns, cost_hi_ns;	/* ns */
	/* this level's wait side: T* from its pulls' waits and refill (as the verdict's) */
	enum corr_hot_state tstar_state;
	double tstar_ns, tstar_lo_ns, tstar_hi_ns;	/* ns; an end out of range: 0 or +inf */
};

/* What tracing cost, as the kernel and getrusage(2) count it. */
struct run_cost {
	double self_user_s;		/* migtrace's own CPU time, s */
	double self_sys_s;		/* s */
	double self_startup_s;		/* of which before tracing began (load, verify, attach),
		s */
	long self_max_rss_kib;		/* migtrace's peak RSS (VmHWM), KiB */
	double workload_cpu_s;		/* the launched workload's user + system CPU, s; -1: -p */
	bool bpf_stats;			/* kernel.bpf_stats_enabled was on: the runs below count */
	int nprogs;
	struct {
		char name[32];
		uint64_t run_cnt;	/* times the program ran */
		uint64_t run_time_ns;	/* ns, in total, as bpf_stats measures it */
		uint64_t recursion_misses;	/* runs the kernel skipped: events not seen */
	} progs[RUN_MAX_PROGS];
};

/* Summary figures: what the text's summary says beyond the raw counters. */
struct run_summary {
	uint64_t migrations;		/* all causes */
	uint64_t kernel_counted;	/* all but fork placements, as se.nr_migrations */
	int64_t completeness_gap;	/* the kernel's count less kernel_counted */
	uint64_t wakeup_records;	/* wakeup placements among the records kept */
	uint64_t wakeup_hot;		/* of them, hot by task_hot()'s rule at meta.hot_ns */
};

/*
 * The records counted as a run file is read (run_file.h), for what needs them summed only:
 * the reader's checks against the file's own totals, the OpenMetrics age sums and the
 * what-if counts (judge/whatif.c says what they mean).  When the reader keeps no record
 * (records_dropped), these stand for the arrays; otherwise they are counted as well.
 */
struct run_tally {
	bool records_dropped;		/* recs (and units, unless the reader was asked to keep
					 * them) are empty: counted here only */
	uint64_t migrations, units;	/* records read of each kind */
	uint64_t by_cause[MT_NR_CAUSES];	/* migration records of each cause */
	uint64_t age_ns[MT_NR_CAUSES];	/* their age_ns summed, ns (mod 2^64, as a u64 sum) */
	uint64_t wakeup_hot;		/* wakeup placements hot at meta.hot_ns */
	int nthresholds;
	int64_t threshold_ns[RUN_MAX_THRESHOLDS];	/* the what-if thresholds T, ns */
	uint64_t lb_judged;		/* load-balancer pulls with the kernel's age */
	uint64_t lb_rule[MT_NR_RULES];	/* of them, by the rule that decides (MT_RULE_OF) */
	uint64_t lb_hot_meta;		/* of them, hot at meta.hot_ns (MT_RULE_HOT) */
	uint64_t lb_hot[RUN_MAX_THRESHOLDS];		/* of them, hot at T (MT_RULE_HOT) */
	uint64_t wakeup_hot_at[RUN_MAX_THRESHOLDS];	/* wakeup placements hot at T */
};

struct run {
	struct run_environment env;
	struct run_setup setup;
	struct run_calibration calib;
	struct run_meta meta;
	/* the in-kernel aggregates: complete even when records were lost */
	struct mt_stats stats;
	struct mt_hists hists;
	uint64_t *pairs;		/* meta.nr_cpus x meta.nr_cpus, row = src */
	struct run_cost cost;
	/* the records: the first max_kept of each kind, in ring-buffer order */
	struct mt_migrate *recs;
	size_t nrecs, cap;
	uint64_t recs_not_kept;		/* read past max_kept, counted only */
	struct mt_unit *units;
	size_t nunits, ucap;
	uint64_t units_not_kept;
	/* switches with a traced task on a side (run --perfetto): what ran on each CPU */
	struct mt_switch *switches;
	size_t nswitches, swcap;
	uint64_t switches_not_kept;
	struct mt_waking *wakings;	/* their wakings, for the same view */
	size_t nwakings, wkcap;
	uint64_t wakings_not_kept;
	size_t max_kept;		/* 0: all */
	struct run_tally tally;		/* a run file's records, counted as read */
	/* the kernel's rule and the topology levels (docs/design.md, "What the kernel does"):
	 * stats' and hists' rule and level members, and topo, hold only with has_levels (a
	 * file written before they were kept has none) */
	bool has_levels;
	struct run_topo topo;
	bool has_level_cost;		/* level_cost was computed (natural runs with units) */
	struct run_level_cost level_cost[MT_NR_LEVELS];
	/* analysis */
	struct run_summary sum;
	bool has_corr;			/* units were timed and correlated */
	struct corr_result corr;
	bool has_verdict;
	struct verdict verdict;
	struct run_sequence seq;	/* setup.budget_s > 0: the looks that led to it */
	/* run --probe-moves (probe.h): the moments made and, for a program without units, the
	 * runs they timed (MT_REC_PROBE_UNIT); what the judge found of them */
	struct probe_setup probe;
	struct probe_moment *moments;
	size_t nmoments, mcap;
	struct mt_unit *probe_units;
	size_t nprobe_units, pucap;
	bool has_probe_result;
	struct probe_result probe_result;
	/* per topology level, when the moves timed spanned more than one (judge/probe_judge.c;
	 * pulls counts the level's moves timed) */
	bool has_probe_level_cost;
	struct run_level_cost probe_level_cost[MT_NR_LEVELS];
	/* -a or --cgroup without -o: no migration record was sent, the counts, histograms and
	 * pairs are the kernel's alone (never in a run file: -o turns records on) */
	bool records_off;
};

extern const char *const mt_cause_names[MT_NR_CAUSES];	/* "wakeup", "lb_pull", … */
extern const char *const mt_cause_titles[MT_NR_CAUSES];	/* "wakeup placement", … */
extern const char *const mt_state_names[4];
extern const char *const run_core_sched_names[4];	/* "not checked", "not built", … */
extern const char *const run_btf_member_names[3];	/* "not checked", "absent", "present" */

/*
 * Whether each rule besides the age applies to the run (docs/design.md, "When the threshold
 * does not govern"): a sched_ext scheduler has the traced tasks, so task_hot() is not
 * consulted at all; NUMA balancing across nodes; core scheduling in use on the machine; a
 * kernel with cache-aware load balancing.
 */
bool run_rules_scx(const struct run_sched_rules *s);
bool run_rules_numa(const struct run_sched_rules *s);
bool run_rules_core(const struct run_sched_rules *s);
bool run_rules_llc(const struct run_sched_rules *s);
/* The run's migrations come from events replayed in user space (ftrace, trace-cmd), not BPF:
 * the kernel's clock and counts were not read. */
bool run_replayed(const struct run *r);
/* The verdict v as it must read when task_hot() was not consulted: every kind not applicable
 * (the numbers stay as measured). */
void verdict_not_applicable(struct verdict *v);
extern const char *const mt_level_names[MT_NR_LEVELS];	/* "unknown", "smt", … */
extern const char *const mt_level_titles[MT_NR_LEVELS];	/* "LLC unknown", "SMT sibling", … */
extern const char *const mt_rule_names[MT_NR_RULES];	/* "age", "numa_to_preferred", … */

/* A zeroed model with the defaults a reader and a capture both start from.  NULL: ENOMEM. */
struct run *run_new(void);
void run_free(struct run *r);
/* Capture's consumers: one more record, kept or (past max_kept) only counted. */
int run_record_add(struct run *r, const struct mt_migrate *m);
int run_record_add_unit(struct run *r, const struct mt_unit *u);
int run_record_add_switch(struct run *r, const struct mt_switch *s);
int run_record_add_waking(struct run *r, const struct mt_waking *w);
int run_record_add_moment(struct run *r, const struct probe_moment *m);
int run_record_add_probe_unit(struct run *r, const struct mt_unit *u);
/* The pair matrix for nr_cpus CPUs, zeroed.  0 or -ENOMEM / -EINVAL. */
int run_alloc_pairs(struct run *r, int nr_cpus);
uint64_t run_total_migrations(const struct run *r);
/* An empty tally counting at thresholds t_ns[0..n) (n <= RUN_MAX_THRESHOLDS). */
void run_tally_init(struct run_tally *t, const int64_t *t_ns, int n);
/* One migration record into t; hot_ns is meta.hot_ns. */
void run_tally_migration(struct run_tally *t, const struct mt_migrate *m, int64_t hot_ns);
/* The topology level (enum mt_level) of a move from src to dst, by t's ids (MT_LEVEL_OF, as
 * the BPF side classes it); unknown for a CPU t has no ids for. */
unsigned run_topo_level(const struct run_topo *t, int src, int dst);
/* Per cause, the migration records and their summed age_ns: from the records, or the tally
 * when the reader kept none. */
void run_record_ages(const struct run *r, uint64_t nrec[MT_NR_CAUSES],
		     uint64_t age_ns[MT_NR_CAUSES]);

#endif
