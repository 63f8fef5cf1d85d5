// SPDX-License-Identifier: GPL-2.0
/*
 * The raw capture as trace.dat version 6 (trace_keep.h; the format: trace-cmd.dat(5)).
 *
 * The file: the magic and version, endianness, the size of a long and the page size; the
 * ring buffer's header_page and header_event as tracefs prints them; no ftrace (function
 * tracer) formats; the event formats, by system; no kallsyms and no printk formats (the
 * sched events need neither); saved_cmdlines; the CPU count; then "flyrecord" and each
 * CPU's offset and size, and the CPUs' pages, each at a page-aligned offset.
 *
 * The pages are encoded here, not copied: the backend reads two instances (the pid-filtered
 * one and the unfiltered moves), whose events must be one time-ordered stream per CPU for
 * a reader.  Each page starts with its first event's stamp; an event whose delta from the
 * one before does not fit the header's 27 bits is preceded by a time extend (type 30).  An
 * event of up to 112 bytes says its length in its type (len / 4); a longer one in the word
 * after its header (type 0, the length plus that word).  This is the kernel's own encoding
 * (kernel/trace/ring_buffer.c), for a 64-bit little-endian host: the only kind migtrace runs
 * on.
 */
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "atomic_file.h"
#include "trace_keep.h"

#define KEEP_PAGE 4096			/* the ring buffer's page; header_page says 4080 data */
#define KEEP_PAGE_HDR 16		/* u64 stamp, local_t commit */
#define KEEP_MAX_SMALL 112		/* data bytes a type_len of 1..28 can say */
#define KEEP_DELTA_BITS 27
#define KEEP_TYPE_EXTEND 30
#define KEEP_MAX_EVENT 4000		/* bytes: a page holds it with its headers */
#define KEEP_MAX_TYPES 64		/* distinct event ids kept */

/* One spooled event, then len bytes. */
struct spool_rec {
	uint64_t ts;
	uint32_t len;
	uint32_t pad;
};

struct trace_keep {
	int nstreams, nr_cpus;
	FILE **spool;			/* nstreams x nr_cpus, stream-major */
	uint64_t events;
	int err;			/* the first spool write's error */
	int ntypes;
	int type[KEEP_MAX_TYPES];	/* event ids seen (common_type) */
};

/* A spool read back: its next record, buffered. */
struct cursor {
	FILE *f;
	bool have;
	struct spool_rec r;
	unsigned char data[KEEP_MAX_EVENT];
};

struct trace_keep *trace_keep_new(int nstreams, int nr_cpus)
{
	struct trace_keep *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->nstreams = nstreams;
	k->nr_cpus = nr_cpus;
	k->spool = calloc((size_t)nstreams * (size_t)nr_cpus, sizeof(*k->spool));
	if (!k->spool)
		goto fail;
	for (int i = 0; i < nstreams * nr_cpus; i++)
		if (!(k->spool[i] = tmpfile()))
			goto fail;
	return k;
fail:
	trace_keep_free(k);
	return NULL;
}

void trace_keep_free(struct trace_keep *k)
{
	if (!k)
		return;
	for (int i = 0; k->spool && i < k->nstreams * k->nr_cpus; i++)
		if (k->spool[i])
			fclose(k->spool[i]);
	free(k->spool);
	free(k);
}

uint64_t trace_keep_events(const struct trace_keep *k)
{
	return k ? k->events : 0;
}

static void note_type(struct trace_keep *k, const void *data, unsigned int len)
{
	uint16_t id;

	if (len < sizeof(id))
		return;
	memcpy(&id, data, sizeof(id));
	for (int i = 0; i < k->ntypes; i++)
		if (k->type[i] == id)
			return;
	if (k->ntypes < KEEP_MAX_TYPES)
		k->type[k->ntypes++] = id;
}

int trace_keep_event(struct trace_keep *k, int s, int cpu, uint64_t ts, const void *data,
		     unsigned int len)
{
	struct spool_rec r = { .ts = ts, .len = len };
	FILE *f;

	if (s < 0 || s >= k->nstreams || cpu < 0 || cpu >= k->nr_cpus || len > KEEP_MAX_EVENT)
		return 0;	/* not one a page can hold: the reader has it, the file not */
	f = k->spool[s * k->nr_cpus + cpu];
	if (fwrite(&r, sizeof(r), 1, f) != 1 || (len && fwrite(data, len, 1, f) != 1)) {
		if (!k->err)
			k->err = errno ? -errno : -EIO;
		return k->err;
	}
	note_type(k, data, len);
	k->events++;
	return 0;
}

static void cursor_next(struct cursor *c)
{
	c->have = c->f && fread(&c->r, sizeof(c->r), 1, c->f) == 1 &&
		  c->r.len <= sizeof(c->data) &&
		  (!c->r.len || fread(c->data, c->r.len, 1, c->f) == 1);
}

/* ---- the file ---- */

struct out {
	FILE *f;
	uint64_t pos;			/* bytes written: offsets without ftell (a pipe) */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (n && fwrite(p, n, 1, o->f) == 1)
		o->pos += n;
	else if (n)
		o->pos = UINT64_MAX;	/* fwrite failed: commit sees the stream's error */
}

static void put_u32(struct out *o, uint32_t v)
{
	v = htole32(v);
	put(o, &v, sizeof(v));
}

static void put_u64(struct out *o, uint64_t v)
{
	v = htole64(v);
	put(o, &v, sizeof(v));
}

static void pad_to(struct out *o, uint64_t align)
{
	static const unsigned char zero[KEEP_PAGE];

	if (o->pos % align)
		put(o, zero, align - o->pos % align);
}

/* A tracefs file of the top instance as a section: its size (8 bytes), then its text. */
static int put_section(struct out *o, const char *rel, int size_bytes)
{
	int size = 0;
	char *text = tracefs_instance_file_read(NULL, rel, &size);

	if (!text) {
		fprintf(stderr, "migtrace: --keep-trace: reading %s/%s failed: %s\n",
			tracefs_tracing_dir(), rel, strerror(errno));
		return -EIO;
	}
	if (size_bytes == 8)
		put_u64(o, (uint64_t)size);
	else
		put_u32(o, (uint32_t)size);
	put(o, text, (size_t)size);
	free(text);
	return 0;
}

static int by_system(const void *a, const void *b)
{
	const struct tep_event *x = *(const struct tep_event *const *)a;
	const struct tep_event *y = *(const struct tep_event *const *)b;

	return strcmp(x->system, y->system);
}

/* The formats of the event ids the spools hold, by system. */
static int put_formats(struct out *o, struct trace_keep *k, struct tep_handle *tep)
{
	struct tep_event *ev[KEEP_MAX_TYPES];
	int n = 0, nsys = 0, err = 0;

	for (int i = 0; i < k->ntypes; i++)
		if ((ev[n] = tep_find_event(tep, k->type[i])))
			n++;
	qsort(ev, (size_t)n, sizeof(ev[0]), by_system);
	for (int i = 0; i < n; i++)
		nsys += !i || strcmp(ev[i]->system, ev[i - 1]->system);
	put_u32(o, (uint32_t)nsys);
	for (int i = 0, j; i < n && !err; i = j) {
		for (j = i; j < n && !strcmp(ev[j]->system, ev[i]->system); j++)
			;
		put(o, ev[i]->system, strlen(ev[i]->system) + 1);
		put_u32(o, (uint32_t)(j - i));
		for (int e = i; e < j && !err; e++) {
			int size = 0;
			char *fmt = tracefs_event_file_read(NULL, ev[e]->system, ev[e]->name,
							    "format", &size);

			if (!fmt) {
				fprintf(stderr, "migtrace: --keep-trace: the format of %s:%s cannot "
					"be read: %s\n", ev[e]->system, ev[e]->name, strerror(errno));
				err = -EIO;
				break;
			}
			put_u64(o, (uint64_t)size);
			put(o, fmt, (size_t)size);
			free(fmt);
		}
	}
	return err;
}

/* A page being filled. */
struct page {
	unsigned char b[KEEP_PAGE];
	size_t used;			/* from KEEP_PAGE_HDR */
	uint64_t last_ts;
	bool open;
};

static void page_flush(struct out *o, struct page *p)
{
	uint64_t commit = htole64(p->used - KEEP_PAGE_HDR);

	if (!p->open)
		return;
	memcpy(p->b + 8, &commit, sizeof(commit));
	memset(p->b + p->used, 0, KEEP_PAGE - p->used);
	put(o, p->b, KEEP_PAGE);
	p->open = false;
}

static void page_word(struct page *p, uint32_t w)
{
	w = htole32(w);
	memcpy(p->b + p->used, &w, sizeof(w));
	p->used += sizeof(w);
}

/* One event into the page (a new one when it does not fit). */
static void page_event(struct out *o, struct page *p, uint64_t ts, const void *data,
		       uint32_t len)
{
	uint32_t words = (len + 3) / 4, need = 4 + words * 4;
	uint64_t delta;

	if (words * 4 > KEEP_MAX_SMALL)
		need += 4;
	if (p->open && (ts < p->last_ts || p->used + need + 8 > KEEP_PAGE))
		page_flush(o, p);
	if (!p->open) {
		uint64_t stamp = htole64(ts);

		memcpy(p->b, &stamp, sizeof(stamp));
		p->used = KEEP_PAGE_HDR;
		p->last_ts = ts;
		p->open = true;
	}
	delta = ts - p->last_ts;
	if (delta >> KEEP_DELTA_BITS) {
		page_word(p, KEEP_TYPE_EXTEND | (uint32_t)(delta & ((1u << KEEP_DELTA_BITS) - 1))
						<< 5);
		page_word(p, (uint32_t)(delta >> KEEP_DELTA_BITS));
		delta = 0;
	}
	if (words * 4 > KEEP_MAX_SMALL) {
		page_word(p, (uint32_t)delta << 5);
		page_word(p, words * 4 + 4);
	} else {
		page_word(p, words | (uint32_t)delta << 5);
	}
	memcpy(p->b + p->used, data, len);
	memset(p->b + p->used + len, 0, words * 4 - len);
	p->used += words * 4;
	p->last_ts = ts;
}

/* CPU cpu's events of every stream, merged by stamp, as pages.  0 or -errno. */
static int put_cpu(struct out *o, struct trace_keep *k, int cpu)
{
	struct cursor *c = calloc((size_t)k->nstreams, sizeof(*c));
	struct page *p = calloc(1, sizeof(*p));
	int err = 0;

	if (!c || !p) {
		err = -ENOMEM;
		goto out;
	}
	for (int s = 0; s < k->nstreams; s++) {
		c[s].f = k->spool[s * k->nr_cpus + cpu];
		rewind(c[s].f);
		cursor_next(&c[s]);
	}
	for (;;) {
		int best = -1;

		for (int s = 0; s < k->nstreams; s++)
			if (c[s].have && (best < 0 || c[s].r.ts < c[best].r.ts))
				best = s;
		if (best < 0)
			break;
		page_event(o, p, c[best].r.ts, c[best].data, c[best].r.len);
		cursor_next(&c[best]);
	}
	page_flush(o, p);
out:
	free(c);
	free(p);
	return err;
}

/* Copies the whole of f (from its start) to o.  0 or -errno. */
static int put_file(struct out *o, FILE *f)
{
	unsigned char buf[KEEP_PAGE];
	size_t n;

	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		put(o, buf, n);
	return ferror(f) ? -EIO : 0;
}

/* Everything after the path is open: 0 or -errno. */
static int write_all(struct out *o, struct trace_keep *k, struct tep_handle *tep)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n',
					       'g' };
	struct out *pages = NULL;
	uint64_t at;
	int err = 0;

	put(o, magic, sizeof(magic));
	put(o, "6", 2);			/* the version, NUL-terminated */
	put(o, "\0\x08", 2);		/* little-endian, 8-byte long */
	put_u32(o, KEEP_PAGE);
	put(o, "header_page", 12);
	if ((err = put_section(o, "events/header_page", 8)))
		return err;
	put(o, "header_event", 13);
	if ((err = put_section(o, "events/header_event", 8)))
		return err;
	put_u32(o, 0);			/* no ftrace (function tracer) formats */
	if ((err = put_formats(o, k, tep)))
		return err;
	put_u32(o, 0);			/* kallsyms */
	put_u32(o, 0);			/* printk formats */
	if ((err = put_section(o, "saved_cmdlines", 8)))
		return err;
	put_u32(o, (uint32_t)k->nr_cpus);
	put(o, "flyrecord", 10);
	/* each CPU's pages first in a file of their own: the table before them needs their
	 * sizes, and the output may be a pipe */
	pages = calloc((size_t)k->nr_cpus, sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	for (int cpu = 0; cpu < k->nr_cpus && !err; cpu++) {
		if (!(pages[cpu].f = tmpfile()))
			err = -errno;
		else
			err = put_cpu(&pages[cpu], k, cpu);
		if (!err && pages[cpu].pos == UINT64_MAX)
			err = -EIO;
	}
	at = o->pos + (uint64_t)k->nr_cpus * 16;
	for (int cpu = 0; cpu < k->nr_cpus && !err; cpu++) {
		at = (at + KEEP_PAGE - 1) / KEEP_PAGE * KEEP_PAGE;
		put_u64(o, at);
		put_u64(o, pages[cpu].pos);
		at += pages[cpu].pos;
	}
	for (int cpu = 0; cpu < k->nr_cpus && !err; cpu++) {
		pad_to(o, KEEP_PAGE);
		err = put_file(o, pages[cpu].f);
	}
	for (int cpu = 0; cpu < k->nr_cpus; cpu++)
		if (pages[cpu].f)
			fclose(pages[cpu].f);
	free(pages);
	if (!err && o->pos == UINT64_MAX)
		err = -EIO;
	return err;
}

int trace_keep_write(struct trace_keep *k, struct tep_handle *tep, const char *path)
{
	struct atomic_file af;
	struct out o = { 0 };
	int err;

	if (k->err) {
		fprintf(stderr, "migtrace: --keep-trace: spooling the events failed (%s): %s not "
			"written\n", strerror(-k->err), path);
		return k->err;
	}
	if ((err = atomic_file_open(&af, path)))
		return err;
	o.f = af.f;
	err = write_all(&o, k, tep);
	if (err) {
		fprintf(stderr, "migtrace: --keep-trace: writing %s failed: %s\n", path,
			strerror(-err));
		atomic_file_abort(&af);
		return err;
	}
	return atomic_file_commit(&af);
}
