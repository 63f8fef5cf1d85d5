// SPDX-License-Identifier: GPL-2.0
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bpf_util.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#define CAP_SYS_ADMIN_NR 21

/* The limit to suggest: the usual default soft limit, ample for every command (each needs
 * well under a hundred), so that one raise serves them all. */
#define MT_NOFILE_SUGGESTED 1024

static int verbosity;
/* The soft open-file limit migtrace was started with, once mt_nofile_ensure raised it. */
static bool nofile_raised;
static rlim_t nofile_orig;
/* While a caller captures libbpf's messages (doctor), warnings go here, not to stderr. */
static FILE *capture;
static char *capture_buf;
static size_t capture_len;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !verbosity)
		return 0;
	if (capture && level != LIBBPF_DEBUG) {
		va_list copy;
		int n;

		va_copy(copy, args);
		n = vfprintf(capture, fmt, copy);
		va_end(copy);
		if (!verbosity)
			return n;
	}
	return vfprintf(stderr, fmt, args);
}

void mt_libbpf_init(int verbose)
{
	verbosity = verbose;
	libbpf_set_print(print_fn);
}

int mt_libbpf_capture_begin(void)
{
	if (capture)
		return -EBUSY;
	capture = open_memstream(&capture_buf, &capture_len);
	return capture ? 0 : -errno;
}

char *mt_libbpf_capture_end(void)
{
	char *text;

	if (!capture)
		return NULL;
	fclose(capture);
	capture = NULL;
	text = capture_buf;
	capture_buf = NULL;
	return text;
}

/* Verifier lines that are bookkeeping or a trace of the walk, not a finding. */
static bool log_noise(const char *line)
{
	static const char *const prefixes[] = {
		"processed ", "verification time ", "stack depth ", "mark_precise", "from ",
		"last_idx ", "parent ", "regs=", "func#", "Validating ", "Func#", "Global function ",
	};

	if (!*line || (*line >= '0' && *line <= '9'))	/* "305: (69) r3 = ..." */
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(line, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

int mt_verifier_verdict(const char *log, struct mt_verifier_verdict *v)
{
	const char *fail = NULL, *begin, *end, *next;
	char tag[sizeof(v->prog) + 40], line[512];

	memset(v, 0, sizeof(*v));
	if (!log)
		return -ENOENT;
	/* libbpf ends with "prog 'NAME': failed to load: -13", after the log it printed. */
	for (const char *p = log; (p = strstr(p, "prog '")); p++)
		if (sscanf(p, "prog '%63[^']'", v->prog) == 1 &&
		    !strncmp(p + 6 + strlen(v->prog), "': failed to load", 17))
			fail = p;
	if (!fail) {
		v->prog[0] = '\0';
		return -ENOENT;
	}
	sscanf(fail, "prog '%63[^']'", v->prog);
	snprintf(tag, sizeof(tag), "prog '%s': -- BEGIN PROG LOAD LOG --\n", v->prog);
	begin = strstr(log, tag);
	if (!begin || begin > fail)
		return 0;	/* refused without a log: the name is all there is */
	begin += strlen(tag);
	end = strstr(begin, "-- END PROG LOAD LOG --");
	if (!end || end > fail)
		end = fail;
	/* The finding is the last line that is not a trace of the walk; the source line before
	 * it (BTF line info: "; code @ file.c:N") says where. */
	for (const char *p = begin; p < end; p = next + 1) {
		next = memchr(p, '\n', (size_t)(end - p));
		if (!next)
			next = end;
		snprintf(line, sizeof(line), "%.*s", (int)(next - p), p);
		if (line[0] == ';')
			snprintf(v->source, sizeof(v->source), "%.255s", line + 1 + (line[1] == ' '));
		else if (!log_noise(line))
			snprintf(v->reason, sizeof(v->reason), "%.255s", line);
	}
	return 0;
}

bool mt_has_cap(int cap)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long eff = 0;
	char line[256];

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << cap);
}

const char *mt_missing_bpf_cap(void)
{
	/* CAP_SYS_ADMIN implies the others on every kernel; 5.8+ split out BPF and PERFMON. */
	if (mt_has_cap(CAP_SYS_ADMIN_NR))
		return NULL;
	if (!mt_has_cap(CAP_BPF))
		return mt_has_cap(CAP_PERFMON) ? "CAP_BPF" : "CAP_BPF and CAP_PERFMON";
	if (!mt_has_cap(CAP_PERFMON))
		return "CAP_PERFMON";
	return NULL;
}

int mt_bpf_stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int on = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &on) != 1)
		on = -1;
	fclose(f);
	return on;
}

int mt_prog_run_stats(int prog_fd, struct mt_prog_run *out)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	out->run_cnt = info.run_cnt;
	out->run_time_ns = info.run_time_ns;
	out->recursion_misses = info.recursion_misses;
	return 0;
}

/* The atomic OR on the stack: a five-instruction program loaded and closed. */
static bool has_atomics(void)
{
	/* *(u64 *)(r10 - 8) = 0; r1 = 1; lock *(u64 *)(r10 - 8) |= r1; r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_10, .off = -8, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = BPF_REG_10,
		  .src_reg = BPF_REG_1, .off = -8, .imm = BPF_OR },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

void mt_bpf_features_probe(struct mt_bpf_features *f)
{
	const char *as = getenv("MIGTRACE_BPF_AS");

	if (as && !strcmp(as, "5.10")) {
		memset(f, 0, sizeof(*f));
		return;
	}
	f->task_storage = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) == 1;
	/* a probe that cannot tell (an error) counts as present: the load then says */
	f->current_task_btf = libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE,
						      BPF_FUNC_get_current_task_btf, NULL) != 0;
	f->atomics = has_atomics();
}

int mt_nofile_ensure(unsigned long need)
{
	struct rlimit rl, raised;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max < need) {
		fprintf(stderr, "migtrace: the open-file limit (RLIMIT_NOFILE) is %llu, hard limit "
			"%llu, and loading the BPF object needs %lu descriptors (one per map, "
			"program and link): raise it with `ulimit -n %d` (the hard limit as root) "
			"and try again\n", (unsigned long long)rl.rlim_cur,
			(unsigned long long)rl.rlim_max, need, MT_NOFILE_SUGGESTED);
		return -EMFILE;
	}
	if (!nofile_raised)
		nofile_orig = rl.rlim_cur;
	raised.rlim_cur = need;
	raised.rlim_max = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &raised)) {
		int err = -errno;

		fprintf(stderr, "migtrace: raising the open-file limit (RLIMIT_NOFILE) from %llu "
			"to %lu failed: %s; raise it with `ulimit -n %d` and try again\n",
			(unsigned long long)rl.rlim_cur, need, strerror(-err), MT_NOFILE_SUGGESTED);
		return err;
	}
	nofile_raised = true;
	return 0;
}

void mt_nofile_reset(void)
{
	struct rlimit rl;

	if (nofile_raised && !getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = nofile_orig;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}
