/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gzip run files (run.json.gz: a validate's 4.6 MB are ~12x smaller), with zlib.  Reading
 * inflates in a thread into a socket the JSON reader reads as it reads a file, so that a
 * file of any size is read through the reader's window, not held whole; writing deflates
 * through a stdio stream over the file being written.
 */
#ifndef MIGTRACE_GZ_STREAM_H
#define MIGTRACE_GZ_STREAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct gz_stream {
	pthread_t thread;
	bool started;
	int in_fd;			/* the compressed file: the caller's, read by the thread */
	int out_fd;			/* the thread's end of the socket, closed when it ends */
	unsigned char *head;		/* what was read before the gzip was seen: a copy,
					 * the thread's to free */
	size_t nhead;
	int err;			/* the thread's: 0, -EINVAL (why says), -errno */
	char why[128];
};

/* Whether n bytes at p start like a gzip member (RFC 1952: 1f 8b 08). */
bool gz_magic(const void *p, size_t n);
/*
 * Starts inflating the gzip file in_fd, whose first nhead bytes were read already into
 * head (copied).  Returns the descriptor the inflated bytes are read from (the
 * caller closes it, then calls gz_stream_finish), or -errno.
 */
int gz_stream_start(struct gz_stream *gz, int in_fd, const void *head, size_t nhead);
/*
 * Waits for the thread; the reader's descriptor must be closed first (a reader that stopped
 * early ends the thread so).  0, or the thread's error, said in gz->why: a gzip stream that
 * is damaged or cut short.
 */
int gz_stream_finish(struct gz_stream *gz);
/*
 * A stream whose bytes are gzipped into to (not closed with it).  fclose() ends the gzip
 * member and reports what failed (EOF, errno set).  NULL: out of memory.
 */
FILE *gz_fopen_write(FILE *to);
/* Whether path names a gzip file by its suffix (".gz"). */
bool gz_path(const char *path);

#endif
