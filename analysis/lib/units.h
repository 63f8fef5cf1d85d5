/* SPDX-License-Identifier: GPL-2.0 */
/* Every number a user sees says its unit: nanoseconds and bytes scaled for reading. */
#ifndef MIGTRACE_UNITS_H
#define MIGTRACE_UNITS_H

#include <stdint.h>

/* "850 ns", "12.3 µs", "1.23 ms", "2.50 s", "-" when not finite; returns buf. */
char *fmt_ns(char *buf, int len, double ns);
/* "512 KiB", "1.5 MiB", "853 KiB"; returns buf. */
char *fmt_bytes(char *buf, int len, uint64_t bytes);
/* A rate given in MB/s (10^6 bytes/s): "850 MB/s", "1.60 GB/s", "-" when not finite. */
char *fmt_rate(char *buf, int len, double mbps);
/* part of whole in percent; 0 when whole is 0. */
double pct(uint64_t part, uint64_t whole);
/* The columns a UTF-8 string takes in a table: "500 µs" is 7 bytes and 6 columns. */
int utf8_columns(const char *s);

#endif
