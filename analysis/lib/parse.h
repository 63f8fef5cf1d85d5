/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing of the numbers users type: CPU lists, sizes, durations.  User space only. */
#ifndef MIGTRACE_PARSE_H
#define MIGTRACE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MT_MAX_CPUS_USER 1024

/* A set of CPU ids, kept sorted and without duplicates. */
struct cpu_set_list {
	int n;
	int cpu[MT_MAX_CPUS_USER];
};

/*
 * Parses "0-3,5,7-8" (the kernel's cpulist format) into a sorted list.  On failure returns
 * -EINVAL and, when bad_token is non-NULL, copies the offending token into it (NUL-terminated,
 * at most bad_len bytes); a CPU listed twice ("0,1,0", "0-3,2") is -EEXIST with that CPU's
 * number in bad_token.
 */
int parse_cpu_list(const char *s, struct cpu_set_list *out, char *bad_token, size_t bad_len);
bool cpu_list_has(const struct cpu_set_list *l, int cpu);
/* Formats back to the kernel's compact form ("0-3,5"); returns buf. */
char *format_cpu_list(const struct cpu_set_list *l, char *buf, size_t len);

/* "4M", "512K", "3145728", "1.5M", "2MiB", "64KB": binary multiples.  -EINVAL or -ERANGE. */
int parse_size(const char *s, uint64_t *bytes);
/* "10s", "500ms", "250us", "1m", "2h", "30" (seconds): to nanoseconds.  -EINVAL or -ERANGE. */
int parse_duration(const char *s, uint64_t *ns);
/* Decimal integer in [min, max], strtoll + errno + range check.  -EINVAL or -ERANGE. */
int parse_long(const char *s, long min, long max, long *out);
/* Whether path is a name followed by suffix: "run.json.gz" has ".gz", ".gz" alone not. */
bool path_has_suffix(const char *path, const char *suffix);

#endif
