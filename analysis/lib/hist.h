/* SPDX-License-Identifier: GPL-2.0 */
/* log2 histograms as the BPF side fills them, printed like bcc's tools. */
#ifndef MIGTRACE_HIST_H
#define MIGTRACE_HIST_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Slot k holds [2^k, 2^(k+1)) µs, slot 0 holds [0, 2) µs; the last slot is open. */
void hist_print_log2(FILE *f, const __u64 *slots, int nslots, const char *unit);
/* Whether any slot holds a sample; their sum. */
bool hist_any(const __u64 *slots, int nslots);
uint64_t hist_count(const __u64 *slots, int nslots);
/* The q quantile (0..1) of a log2 µs histogram, in µs: linear within its slot (the open last
 * slot taken as twice its lower bound wide).  -1 when it is empty. */
double hist_quantile_us(const __u64 *slots, int nslots, double q);
/* Lower bound of slot k in µs. */
uint64_t hist_slot_low_us(int slot);
/*
 * How many samples of a log2 histogram of ns lie under threshold_ns, as far as its slots
 * tell: a slot wholly under it counts in *at_least and *at_most, one wholly at or over it in
 * neither, the one it splits in *at_most only.  Returns that split slot when it holds any
 * sample (the bounds then differ), else -1 (they are the exact count).
 */
int hist_count_under(const __u64 *slots, int nslots, uint64_t threshold_ns,
		     uint64_t *at_least, uint64_t *at_most);

#endif
