// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse.h"
#include "printable.h"
#include "units.h"

static void cpu_list_good(void **state)
{
	struct cpu_set_list l;
	char buf[64];

	(void)state;
	assert_int_equal(parse_cpu_list("0-3,5,7-8", &l, NULL, 0), 0);
	assert_int_equal(l.n, 7);
	assert_int_equal(l.cpu[0], 0);
	assert_int_equal(l.cpu[4], 5);
	assert_int_equal(l.cpu[6], 8);
	assert_string_equal(format_cpu_list(&l, buf, sizeof(buf)), "0-3,5,7-8");
	/* unsorted input is sorted */
	assert_int_equal(parse_cpu_list("3,1,2", &l, NULL, 0), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(format_cpu_list(&l, buf, sizeof(buf)), "1-3");
	assert_int_equal(parse_cpu_list("0", &l, NULL, 0), 0);
	assert_int_equal(l.n, 1);
	assert_true(cpu_list_has(&l, 0));
	assert_false(cpu_list_has(&l, 1));
}

static void cpu_list_bad(void **state)
{
	struct cpu_set_list l;
	char bad[32];

	(void)state;
	assert_int_equal(parse_cpu_list("0,x", &l, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "x");
	assert_int_equal(parse_cpu_list("3-1", &l, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "3-1");
	assert_int_equal(parse_cpu_list("0,,1", &l, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "");
	assert_int_equal(parse_cpu_list("0,", &l, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(parse_cpu_list("", &l, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(parse_cpu_list("-1", &l, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(parse_cpu_list("1-", &l, bad, sizeof(bad)), -EINVAL);
	assert_int_equal(parse_cpu_list("99999", &l, bad, sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "99999");
	assert_int_equal(parse_cpu_list("1 2", &l, bad, sizeof(bad)), -EINVAL);
	/* a CPU given twice is refused, not silently dropped */
	assert_int_equal(parse_cpu_list("0,1,0", &l, bad, sizeof(bad)), -EEXIST);
	assert_string_equal(bad, "0");
	assert_int_equal(parse_cpu_list("0-3,2", &l, bad, sizeof(bad)), -EEXIST);
	assert_string_equal(bad, "2");
	assert_int_equal(parse_cpu_list("1,1", &l, NULL, 0), -EEXIST);
}

static void sizes(void **state)
{
	uint64_t b;

	(void)state;
	assert_int_equal(parse_size("4M", &b), 0);
	assert_int_equal(b, 4ULL << 20);
	assert_int_equal(parse_size("512K", &b), 0);
	assert_int_equal(b, 512ULL << 10);
	assert_int_equal(parse_size("3145728", &b), 0);
	assert_int_equal(b, 3145728);
	assert_int_equal(parse_size("1.5M", &b), 0);
	assert_int_equal(b, 1572864);
	assert_int_equal(parse_size("2MiB", &b), 0);
	assert_int_equal(b, 2ULL << 20);
	assert_int_equal(parse_size("64kb", &b), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(parse_size("32768K", &b), 0);	/* sysfs's own spelling */
	assert_int_equal(b, 32ULL << 20);
	assert_int_equal(parse_size("12Q", &b), -EINVAL);
	assert_int_equal(parse_size("", &b), -EINVAL);
	assert_int_equal(parse_size("-4K", &b), -EINVAL);
	assert_int_equal(parse_size("K", &b), -EINVAL);
	assert_int_equal(parse_size("1.3", &b), -EINVAL);
	assert_int_equal(parse_size("99999999999T", &b), -ERANGE);
}

static void durations(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(parse_duration("10s", &ns), 0);
	assert_int_equal(ns, 10000000000ULL);
	assert_int_equal(parse_duration("500ms", &ns), 0);
	assert_int_equal(ns, 500000000ULL);
	assert_int_equal(parse_duration("250us", &ns), 0);
	assert_int_equal(ns, 250000ULL);
	assert_int_equal(parse_duration("1m", &ns), 0);
	assert_int_equal(ns, 60000000000ULL);
	assert_int_equal(parse_duration("30", &ns), 0);
	assert_int_equal(ns, 30000000000ULL);
	assert_int_equal(parse_duration("1.5s", &ns), 0);
	assert_int_equal(ns, 1500000000ULL);
	assert_int_equal(parse_duration("10 s", &ns), -EINVAL);
	assert_int_equal(parse_duration("5x", &ns), -EINVAL);
	assert_int_equal(parse_duration("-1s", &ns), -EINVAL);
	assert_int_equal(parse_duration("", &ns), -EINVAL);
	assert_int_equal(parse_duration("1e30s", &ns), -ERANGE);
}

static void longs(void **state)
{
	long v;

	(void)state;
	assert_int_equal(parse_long("20", 1, 100, &v), 0);
	assert_int_equal(v, 20);
	assert_int_equal(parse_long("0", 1, 100, &v), -ERANGE);
	assert_int_equal(parse_long("20x", 1, 100, &v), -EINVAL);
	assert_int_equal(parse_long("", 1, 100, &v), -EINVAL);
	assert_int_equal(parse_long("99999999999999999999", 1, 100, &v), -ERANGE);
}

/* What tables align on and the percentages they print. */
static void units_helpers(void **state)
{
	(void)state;
	assert_int_equal(utf8_columns(""), 0);
	assert_int_equal(utf8_columns("500 ns"), 6);
	assert_int_equal(utf8_columns("500 µs"), 6);		/* µ: two bytes, one column */
	assert_int_equal(utf8_columns("\xe2\x86\x92 µ"), 3);	/* a 3-byte arrow */
	assert_true(pct(1, 4) == 25.0);
	assert_true(pct(3, 0) == 0.0);				/* nothing to be a share of */
}

/* Names from outside as the text shows them: as `ls -b` would, printable UTF-8 kept. */
static void printable_names(void **state)
{
	char buf[PRINTABLE_SIZE(64)], small[5];

	(void)state;
	assert_string_equal(printable(buf, sizeof(buf), "wakeup -t 4"), "wakeup -t 4");
	assert_string_equal(printable(buf, sizeof(buf), "\033[2Jx\nFAKE"), "\\033[2Jx\\nFAKE");
	assert_string_equal(printable(buf, sizeof(buf), "a\\b\t\r\a\b\v\f"),
			    "a\\\\b\\t\\r\\a\\b\\v\\f");
	assert_string_equal(printable(buf, sizeof(buf), "\x7f\x01"), "\\177\\001");
	/* UTF-8 kept; C1 (U+009B, a CSI), a bidirectional override and bad bytes escaped */
	assert_string_equal(printable(buf, sizeof(buf), "500 µs \xe2\x86\x92"),
			    "500 µs \xe2\x86\x92");
	assert_string_equal(printable(buf, sizeof(buf), "\xc2\x9b" "2J"), "\\302\\2332J");
	assert_string_equal(printable(buf, sizeof(buf), "a\xe2\x80\xae" "b"),
			    "a\\342\\200\\256b");
	assert_string_equal(printable(buf, sizeof(buf), "\xff\xc0\x80"), "\\377\\300\\200");
	/* cut before an escape that does not fit, never inside it */
	assert_string_equal(printable(small, sizeof(small), "ab\033cd"), "ab");
	assert_string_equal(printable(small, sizeof(small), "abcdefghij"), "abcd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_list_good),
		cmocka_unit_test(cpu_list_bad),
		cmocka_unit_test(sizes),
		cmocka_unit_test(durations),
		cmocka_unit_test(longs),
		cmocka_unit_test(units_helpers),
		cmocka_unit_test(printable_names),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
