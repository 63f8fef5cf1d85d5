/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `run --listen [ADDR:]PORT`: the live exposition served at /metrics for Prometheus to
 * scrape, as the textfile holds it (interval_out.c renders it at each interval's end and
 * publishes it here).  libmicrohttpd answers in a thread of its own from the last copy
 * published, so a scrape never waits on tracing, nor tracing on a scrape.  Loopback unless
 * an address is given.  User space only.
 */
#ifndef MIGTRACE_METRICS_SERVER_H
#define MIGTRACE_METRICS_SERVER_H

#include <netinet/in.h>
#include <stddef.h>

#define METRICS_DEFAULT_ADDR "127.0.0.1"
#define METRICS_PATH "/metrics"

struct metrics_server;

/* What --listen names, parsed before anything starts. */
struct metrics_listen {
	struct sockaddr_storage addr;	/* AF_INET or AF_INET6, its port set */
	char text[96];			/* as said back: "127.0.0.1:9464", "[::1]:9464" */
};

/*
 * "PORT", "ADDR:PORT" or "[ADDR6]:PORT" (ADDR numeric: no name is looked up; PORT 0: any
 * free one) into *l.  0, or -EINVAL with why in err (a clause, no newline).
 */
int metrics_listen_parse(const char *arg, struct metrics_listen *l, char *err, size_t errlen);
/*
 * Listening on l (its text and port then the ones bound: PORT 0 becomes the kernel's
 * choice), answering 503 ("no interval has ended yet") until the first publish.  NULL after
 * one line on stderr naming the address and what to do (the port taken: give another;
 * EACCES: a port under 1024 needs CAP_NET_BIND_SERVICE).
 */
struct metrics_server *metrics_server_start(struct metrics_listen *l);
/* The exposition every scrape gets from now on: copied.  0 or -ENOMEM. */
int metrics_server_publish(struct metrics_server *s, const char *text, size_t len);
/* Scrapes answered so far (for the run's last line). */
unsigned long metrics_server_scrapes(const struct metrics_server *s);
/* Stops listening (a scrape in progress finishes first) and frees s; NULL is fine. */
void metrics_server_stop(struct metrics_server *s);

#endif
