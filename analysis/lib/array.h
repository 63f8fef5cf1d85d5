/* SPDX-License-Identifier: GPL-2.0 */
/* Arrays that grow by doubling: the one helper behind every buffer appended to. */
#ifndef MIGTRACE_ARRAY_H
#define MIGTRACE_ARRAY_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Makes room for element n of *buf, which holds *cap elements of elem bytes: full, its
 * capacity doubles (from first when empty).  0, or -ENOMEM with *buf and *cap unchanged.
 */
static inline int array_grow(void **buf, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : first;
	if (c < *cap || c > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*buf, c * elem);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = c;
	return 0;
}

#endif
