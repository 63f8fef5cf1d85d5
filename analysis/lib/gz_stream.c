// SPDX-License-Identifier: GPL-2.0
/* gzip run files, read and written through zlib (gz_stream.h). */
#include <errno.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include "gz_stream.h"
#include "parse.h"

#define GZ_CHUNK (64 * 1024)
#define GZ_WINDOW_BITS (15 + 16)	/* zlib's way of saying: a gzip header and trailer */

bool gz_magic(const void *p, size_t n)
{
	const unsigned char *b = p;

	return n >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8;
}

bool gz_path(const char *path)
{
	return path_has_suffix(path, ".gz");
}

/* All of buf to the reader; false when the reader went away (it closed its end). */
static bool send_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

static void say(struct gz_stream *gz, int err, const char *why)
{
	gz->err = err;
	snprintf(gz->why, sizeof(gz->why), "%s", why);
}

/* The thread: the head, then the rest of in_fd, inflated to out_fd; members one after
 * another (gzip -c a b > c is one file); EOF to the reader when done. */
static void *inflate_thread(void *arg)
{
	struct gz_stream *gz = arg;
	unsigned char *in = malloc(GZ_CHUNK), *out = malloc(GZ_CHUNK), *head = gz->head;
	size_t nhead = gz->nhead;
	z_stream zs = { 0 };
	bool ended = false, inited = false;
	int zr = Z_OK;

	if (!in || !out) {
		say(gz, -ENOMEM, "out of memory inflating it");
		goto out;
	}
	if (inflateInit2(&zs, GZ_WINDOW_BITS) != Z_OK) {
		say(gz, -ENOMEM, "zlib could not start inflating it");
		goto out;
	}
	inited = true;
	zs.next_in = head;	/* the head first, then the file in chunks */
	zs.avail_in = (uInt)nhead;
	for (;;) {
		if (!zs.avail_in) {
			ssize_t n = read(gz->in_fd, in, GZ_CHUNK);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				say(gz, -errno, "reading it failed");
				break;
			}
			if (!n) {
				if (!ended)
					say(gz, -EINVAL, "its gzip stream is cut short");
				break;
			}
			zs.next_in = in;
			zs.avail_in = (uInt)n;
		}
		if (ended) {	/* another member follows */
			inflateReset(&zs);
			ended = false;
		}
		do {
			zs.next_out = out;
			zs.avail_out = GZ_CHUNK;
			zr = inflate(&zs, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
				say(gz, zr == Z_MEM_ERROR ? -ENOMEM : -EINVAL, zr == Z_MEM_ERROR ?
				    "out of memory inflating it" : "its gzip stream is damaged");
				goto out;
			}
			/* a reader gone has what it wanted, or gave up: its own message */
			if (!send_all(gz->out_fd, out, GZ_CHUNK - zs.avail_out))
				goto out;
		} while (!zs.avail_out && zr != Z_STREAM_END);
		if (zr == Z_STREAM_END)
			ended = true;
	}
out:
	if (inited)
		inflateEnd(&zs);
	close(gz->out_fd);
	gz->out_fd = -1;
	free(head);
	gz->head = NULL;
	free(in);
	free(out);
	return NULL;
}

int gz_stream_start(struct gz_stream *gz, int in_fd, const void *head, size_t nhead)
{
	sigset_t all, old;
	int sv[2], err;

	memset(gz, 0, sizeof(*gz));
	if (nhead > UINT32_MAX)
		return -EINVAL;
	gz->head = malloc(nhead ? nhead : 1);
	if (!gz->head)
		return -ENOMEM;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		err = -errno;
		goto fail;
	}
	gz->in_fd = in_fd;
	gz->out_fd = sv[1];
	memcpy(gz->head, head, nhead);
	gz->nhead = nhead;
	/* the thread takes no signal: they are the main thread's to handle */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = -pthread_create(&gz->thread, NULL, inflate_thread, gz);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(sv[0]);
		close(sv[1]);
		goto fail;
	}
	gz->started = true;
	return sv[0];
fail:
	free(gz->head);
	gz->head = NULL;
	return err;
}

int gz_stream_finish(struct gz_stream *gz)
{
	if (!gz->started)
		return 0;
	pthread_join(gz->thread, NULL);
	gz->started = false;
	return gz->err;
}

/* ---- writing ---- */

struct gz_writer {
	FILE *to;
	z_stream zs;
	unsigned char out[GZ_CHUNK];
};

/* Deflates what zs holds with flush, writing what comes out; 0 or -EIO. */
static int deflate_out(struct gz_writer *w, int flush)
{
	int zr;

	do {
		w->zs.next_out = w->out;
		w->zs.avail_out = sizeof(w->out);
		zr = deflate(&w->zs, flush);
		if (zr == Z_STREAM_ERROR)
			return -EIO;
		if (fwrite(w->out, 1, sizeof(w->out) - w->zs.avail_out, w->to) !=
		    sizeof(w->out) - w->zs.avail_out)
			return -EIO;
	} while (!w->zs.avail_out || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
	struct gz_writer *w = cookie;
	/* zlib counts in uInt: a write past 1 GiB is taken in parts, the rest left to stdio */
	size_t part = len < (1u << 30) ? len : (1u << 30);

	w->zs.next_in = (Bytef *)buf;
	w->zs.avail_in = (uInt)part;
	if (deflate_out(w, Z_NO_FLUSH)) {
		errno = ferror(w->to) && errno ? errno : EIO;
		return -1;
	}
	return (ssize_t)part;
}

static int gz_close(void *cookie)
{
	struct gz_writer *w = cookie;
	int err;

	w->zs.next_in = NULL;
	w->zs.avail_in = 0;
	err = deflate_out(w, Z_FINISH);
	deflateEnd(&w->zs);
	free(w);
	if (err) {
		errno = EIO;
		return EOF;
	}
	return 0;
}

FILE *gz_fopen_write(FILE *to)
{
	cookie_io_functions_t io = { .write = gz_write, .close = gz_close };
	struct gz_writer *w = calloc(1, sizeof(*w));
	FILE *f = NULL;

	if (!w)
		return NULL;
	w->to = to;
	if (deflateInit2(&w->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZ_WINDOW_BITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(w);
		return NULL;
	}
	f = fopencookie(w, "w", io);
	if (!f) {
		deflateEnd(&w->zs);
		free(w);
	}
	return f;
}
