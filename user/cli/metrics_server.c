// SPDX-License-Identifier: GPL-2.0
/* `run --listen`: /metrics over HTTP, served by libmicrohttpd (metrics_server.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli.h"
#include "metrics_server.h"
#include "render_export.h"

#define METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_OM_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define METRICS_MAX_CONNECTIONS 16	/* Prometheus scrapes with one; a few more for curl */
#define METRICS_TIMEOUT_S 10		/* an idle connection is closed after it */

struct metrics_server {
	struct MHD_Daemon *daemon;
	int fd;				/* the listening socket, ours to close */
	pthread_mutex_t lock;		/* guards text, om and their lengths */
	char *text;			/* the last exposition published; NULL: none yet */
	size_t len;
	char *om;			/* the same as OpenMetrics 1.0 (render_om1) */
	size_t om_len;
	unsigned long scrapes;		/* atomic */
};

int metrics_listen_parse(const char *arg, struct metrics_listen *l, char *err, size_t errlen)
{
	char host[64] = METRICS_DEFAULT_ADDR, *end;
	const char *port_s = arg, *colon;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&l->addr;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&l->addr;
	unsigned long port;
	bool v6 = false;

	memset(l, 0, sizeof(*l));
	if (arg[0] == '[') {
		const char *close = strchr(arg, ']');

		if (!close || close[1] != ':' || (size_t)(close - arg - 1) >= sizeof(host)) {
			snprintf(err, errlen, "'%s': an IPv6 address is written [ADDR]:PORT", arg);
			return -EINVAL;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(close - arg - 1), arg + 1);
		port_s = close + 2;
		v6 = true;
	} else if ((colon = strrchr(arg, ':'))) {
		if (colon == arg || (size_t)(colon - arg) >= sizeof(host) || strchr(arg, ':') != colon) {
			snprintf(err, errlen, "'%s': give PORT, ADDR:PORT or [ADDR6]:PORT", arg);
			return -EINVAL;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(colon - arg), arg);
		port_s = colon + 1;
	}
	errno = 0;
	port = strtoul(port_s, &end, 10);
	if (!*port_s || *end || errno || port > 65535 || *port_s == '-' || *port_s == '+') {
		snprintf(err, errlen, "'%s': the port must be a number from 0 (any free one) "
			 "to 65535", arg);
		return -EINVAL;
	}
	if (v6) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host, &a6->sin6_addr) != 1) {
			snprintf(err, errlen, "'%s': '%s' is not a numeric IPv6 address", arg, host);
			return -EINVAL;
		}
		snprintf(l->text, sizeof(l->text), "[%s]:%lu", host, port);
	} else {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &a4->sin_addr) != 1) {
			snprintf(err, errlen, "'%s': '%s' is not a numeric IPv4 address (no name "
				 "is looked up: give 127.0.0.1, 0.0.0.0 or [::1])", arg, host);
			return -EINVAL;
		}
		snprintf(l->text, sizeof(l->text), "%s:%lu", host, port);
	}
	return 0;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *body,
			     size_t len, const char *type, const char *extra_header,
			     const char *extra_value)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body,
								 MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				type ? type : "text/plain; charset=utf-8");
	if (extra_header)
		MHD_add_response_header(r, extra_header, extra_value);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* One request: GET (or HEAD) /metrics gets the last exposition; anything else is refused. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **req_cls)
{
	static const char not_found[] = "migtrace serves " METRICS_PATH " only\n";
	static const char not_yet[] = "no interval has ended yet: the first exposition comes "
				      "at the end of the first --interval\n";
	static const char get_only[] = "GET " METRICS_PATH "\n";
	struct metrics_server *s = cls;
	enum MHD_Result ret;
	const char *accept;
	bool om;

	(void)version;
	(void)upload_data;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		*upload_data_size = 0;
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, get_only, sizeof(get_only) - 1, NULL,
			     MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	}
	if (strcmp(url, METRICS_PATH))
		return reply(c, MHD_HTTP_NOT_FOUND, not_found, sizeof(not_found) - 1, NULL, NULL,
			     NULL);
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	/* Prometheus asks for OpenMetrics first; a client that does not gets the text format */
	om = accept && strstr(accept, "application/openmetrics-text");
	pthread_mutex_lock(&s->lock);
	if (s->text) {
		/* copied under the lock: a publish may replace the text as soon as it is let go */
		ret = om ? reply(c, MHD_HTTP_OK, s->om, s->om_len, METRICS_OM_TYPE, NULL, NULL) :
			   reply(c, MHD_HTTP_OK, s->text, s->len, METRICS_CONTENT_TYPE, NULL, NULL);
		__atomic_add_fetch(&s->scrapes, 1, __ATOMIC_RELAXED);
	} else {
		ret = reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, not_yet, sizeof(not_yet) - 1, NULL,
			    MHD_HTTP_HEADER_RETRY_AFTER, "1");
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* The listening socket, bound here so that a failure says why (MHD_start_daemon does not). */
static int listen_on(const struct metrics_listen *l)
{
	socklen_t len = l->addr.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
							sizeof(struct sockaddr_in);
	int fd = socket(l->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
	int err = 0;

	if (fd < 0)
		return -errno;
	/* a restarted exporter takes its port again at once, past the old one's TIME_WAIT */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (const struct sockaddr *)&l->addr, len) || listen(fd, METRICS_MAX_CONNECTIONS))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* l->text again with the port the kernel gave (PORT 0: any free one). */
static void say_port(struct metrics_listen *l, int fd)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);
	char *colon = strrchr(l->text, ':');
	uint16_t port;

	if (getsockname(fd, (struct sockaddr *)&a, &len) || !colon)
		return;
	port = ntohs(a.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&a)->sin6_port :
					       ((struct sockaddr_in *)&a)->sin_port);
	snprintf(colon + 1, sizeof(l->text) - (size_t)(colon + 1 - l->text), "%u", port);
	if (a.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&l->addr)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)&l->addr)->sin_port = htons(port);
}

struct metrics_server *metrics_server_start(struct metrics_listen *l)
{
	struct metrics_server *s = calloc(1, sizeof(*s));
	sigset_t block, old;
	int fd;

	if (!s) {
		mt_err("--listen %s: out of memory", l->text);
		return NULL;
	}
	fd = listen_on(l);
	if (fd < 0) {
		mt_err("--listen %s: cannot listen there: %s (%s)", l->text,
			strerror(-fd), fd == -EADDRINUSE ? "something else has the port: give "
			"another" : fd == -EACCES ? "a port under 1024 needs CAP_NET_BIND_SERVICE: "
			"give one above it" : fd == -EADDRNOTAVAIL ? "no interface of this host "
			"has that address" : "give another address or port");
		free(s);
		return NULL;
	}
	s->fd = fd;
	say_port(l, fd);
	pthread_mutex_init(&s->lock, NULL);
	/* the server's thread takes none of the run's signals: the capture's loop handles
	 * them, and a signal taken by another thread would not wake its poll */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	s->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
				     (l->addr.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0), 0,
				     NULL, NULL, on_request, s,
				     MHD_OPTION_LISTEN_SOCKET, fd,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)METRICS_MAX_CONNECTIONS,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)METRICS_TIMEOUT_S,
				     MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->daemon) {
		mt_err("--listen %s: libmicrohttpd could not start its server (out of threads or "
		       "memory?)", l->text);
		metrics_server_stop(s);
		return NULL;
	}
	return s;
}

int metrics_server_publish(struct metrics_server *s, const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1), *om = NULL, *swap;
	size_t om_len = 0;
	FILE *f = copy ? open_memstream(&om, &om_len) : NULL;
	int err = -ENOMEM;

	if (!f)
		goto out;
	memcpy(copy, text, len);
	render_om1(f, text, len);
	if (fclose(f))
		goto out;
	/* swapped under the lock: the old ones are freed below, once no scrape reads them */
	pthread_mutex_lock(&s->lock);
	swap = s->text;
	s->text = copy;
	copy = swap;
	s->len = len;
	swap = s->om;
	s->om = om;
	om = swap;
	s->om_len = om_len;
	pthread_mutex_unlock(&s->lock);
	err = 0;
out:
	free(copy);
	free(om);
	return err;
}

unsigned long metrics_server_scrapes(const struct metrics_server *s)
{
	return __atomic_load_n(&s->scrapes, __ATOMIC_RELAXED);
}

void metrics_server_stop(struct metrics_server *s)
{
	if (!s)
		return;
	if (s->daemon)
		MHD_stop_daemon(s->daemon);
	close(s->fd);
	pthread_mutex_destroy(&s->lock);
	free(s->text);
	free(s->om);
	free(s);
}
