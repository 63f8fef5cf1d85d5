// SPDX-License-Identifier: GPL-2.0
/* The calibration model's life (calib.h): its arrays made and freed, its CPUs grouped. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

int calib_alloc_cells(struct calibration *c, int n)
{
	free(c->cells);
	c->cells = n > 0 ? calloc((size_t)n * n, sizeof(*c->cells)) : NULL;
	return c->cells ? 0 : -ENOMEM;
}

void calib_free(struct calibration *c)
{
	free(c->cells);
	for (int d = 0; d < c->ndist && c->dist; d++)
		free(c->dist[d].steps);
	free(c->dist);
	free(c->sizes);
	if (c->chase)
		free(c->chase->curves);
	free(c->chase);
	memset(c, 0, sizeof(*c));
}

const int chase_chains[CHASE_NCHAINS] = { 1, 2, 4, 8 };

int calib_alloc_chase(struct calibration *c, int ncurves)
{
	if (c->chase)
		free(c->chase->curves);
	free(c->chase);
	c->chase = calloc(1, sizeof(*c->chase));
	if (c->chase && ncurves > 0)
		c->chase->curves = calloc((size_t)ncurves, sizeof(*c->chase->curves));
	if (!c->chase || (ncurves > 0 && !c->chase->curves)) {
		free(c->chase);
		c->chase = NULL;
		return -ENOMEM;
	}
	c->chase->ncurves = ncurves;
	return 0;
}

double calib_assumed_mbps(const struct calibration *c)
{
	double hot_ns = c->method == CALIB_2004 ? c->hot_robust_ns : c->hot_seed_ns;

	/* bytes per ns is GB/s: x 1000 for MB/s */
	return c->has_hot && isfinite(hot_ns) && hot_ns > 0 ?
		(double)c->cache_bytes / hot_ns * 1000 : 0;
}

/* Union-find over calibrated-CPU indexes. */
static int uf_find(int *p, int i)
{
	while (p[i] != i)
		i = p[i] = p[p[i]];
	return i;
}

int calib_partition(int n, bool (*same)(int i, int j, const void *ctx), const void *ctx,
		    int *label)
{
	int parent[MT_MAX_CPUS_USER], map[MT_MAX_CPUS_USER], k = 0;

	for (int i = 0; i < n; i++) {
		parent[i] = i;
		map[i] = -1;
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (same(i, j, ctx))
				parent[uf_find(parent, i)] = uf_find(parent, j);
	/* roots renumbered 0..k-1 in order of first appearance */
	for (int i = 0; i < n; i++) {
		int root = uf_find(parent, i);

		if (map[root] < 0)
			map[root] = k++;
		label[i] = map[root];
	}
	return k;
}
