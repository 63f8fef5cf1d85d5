/* SPDX-License-Identifier: GPL-2.0 */
/* Output files written whole or not at all: a temp file beside the target, then rename. */
#ifndef MIGTRACE_ATOMIC_FILE_H
#define MIGTRACE_ATOMIC_FILE_H
#ifdef __KERNEL__
#error "user/atomic_file.h is for user space"
#endif

#include <stddef.h>

/* Writes len bytes of data to path atomically.  Returns 0 or -errno, with a message on
 * stderr naming the file and what to do. */
int atomic_write_file(const char *path, const void *data, size_t len);

#endif
