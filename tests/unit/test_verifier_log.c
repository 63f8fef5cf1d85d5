// SPDX-License-Identifier: GPL-2.0
/*
 * doctor's reading of a refused load: which program, the verifier's decisive line, and the
 * source line it was at, from libbpf's messages as libbpf 1.1 prints them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bpf_util.h"

/* Debian 12's 6.1 on mt_migrate before its index was masked (abridged). */
static const char refused_6_1[] =
	"libbpf: prog 'mt_migrate': BPF program load failed: Permission denied\n"
	"libbpf: prog 'mt_migrate': -- BEGIN PROG LOAD LOG --\n"
	"reg type unsupported for arg#0 function log2_slot#40\n"
	"0: R1=ctx(off=0,imm=0) R10=fp0\n"
	"; int BPF_PROG(mt_migrate, struct task_struct *p, int dest_cpu)\n"
	"0: (79) r6 = *(u64 *)(r1 +0)          ; R1=ctx(off=0,imm=0) R6_w=ptr_task_struct()\n"
	"from 97 to 104: R0=scalar() R6=ptr_task_struct() R10=fp0\n"
	"; return cpu < MT_MAX_CPUS ? cpu_node[cpu] : -1;\n"
	"305: (69) r3 = *(u16 *)(r3 +0)\n"
	"R3 unbounded memory access, make sure to bounds check any such access\n"
	"processed 456 insns (limit 1000000) max_states_per_insn 2 total_states 30 "
	"peak_states 30 mark_read 15\n"
	"-- END PROG LOAD LOG --\n"
	"libbpf: prog 'mt_migrate': failed to load: -13\n"
	"libbpf: failed to load object 'migtrace_bpf'\n"
	"libbpf: failed to load BPF skeleton 'migtrace_bpf': -13\n";

static void refused_program_and_reason(void **state)
{
	struct mt_verifier_verdict v;

	(void)state;
	assert_int_equal(mt_verifier_verdict(refused_6_1, &v), 0);
	assert_string_equal(v.prog, "mt_migrate");
	assert_string_equal(v.reason,
			    "R3 unbounded memory access, make sure to bounds check any such access");
	assert_string_equal(v.source, "return cpu < MT_MAX_CPUS ? cpu_node[cpu] : -1;");
}

static void refused_without_log(void **state)
{
	struct mt_verifier_verdict v;

	(void)state;
	assert_int_equal(mt_verifier_verdict("libbpf: prog 'mt_switch': BPF program load failed: "
					     "Invalid argument\nlibbpf: prog 'mt_switch': failed "
					     "to load: -22\n", &v), 0);
	assert_string_equal(v.prog, "mt_switch");
	assert_string_equal(v.reason, "");
	assert_string_equal(v.source, "");
}

static void nothing_refused(void **state)
{
	struct mt_verifier_verdict v;

	(void)state;
	assert_int_equal(mt_verifier_verdict(NULL, &v), -ENOENT);
	assert_int_equal(mt_verifier_verdict("libbpf: map 'events': failed to create: -1\n", &v),
			 -ENOENT);
	assert_string_equal(v.prog, "");
	/* a program named in passing is not a refused one */
	assert_int_equal(mt_verifier_verdict("libbpf: prog 'mt_exec': attach failed\n", &v),
			 -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refused_program_and_reason),
		cmocka_unit_test(refused_without_log),
		cmocka_unit_test(nothing_refused),
	};

	return cmocka_run_group_tests_name("verifier_log", tests, NULL, NULL);
}
