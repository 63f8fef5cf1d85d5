// SPDX-License-Identifier: GPL-2.0
/* run --listen (user/cli/metrics_server.c): what --listen accepts, and the server asked over
 * a real loopback socket: 503 before the first exposition, then the last one published,
 * as OpenMetrics 1.0 when asked so, 404 and 405 for anything else, a taken port refused. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics_server.h"

static void parse_accepts(void **state)
{
	static const struct {
		const char *arg, *text;
		int family;
	} ok[] = {
		{ "9464", "127.0.0.1:9464", AF_INET },
		{ "0.0.0.0:80", "0.0.0.0:80", AF_INET },
		{ "10.1.2.3:65535", "10.1.2.3:65535", AF_INET },
		{ "[::1]:9464", "[::1]:9464", AF_INET6 },
		{ "0", "127.0.0.1:0", AF_INET },
	};
	struct metrics_listen l;
	char why[160];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(metrics_listen_parse(ok[i].arg, &l, why, sizeof(why)), 0);
		assert_string_equal(l.text, ok[i].text);
		assert_int_equal(l.addr.ss_family, ok[i].family);
	}
	assert_int_equal(metrics_listen_parse("8080", &l, why, sizeof(why)), 0);
	assert_int_equal(ntohs(((struct sockaddr_in *)&l.addr)->sin_port), 8080);
}

static void parse_refuses(void **state)
{
	static const struct {
		const char *arg, *why;
	} bad[] = {
		{ "", "the port must be" },
		{ "70000", "the port must be" },
		{ "-1", "the port must be" },
		{ "+80", "the port must be" },
		{ "80x", "the port must be" },
		{ "1.2.3.4:", "the port must be" },
		{ "localhost:9464", "not a numeric IPv4 address" },
		{ ":9464", "give PORT, ADDR:PORT" },
		{ "a:b:9464", "give PORT, ADDR:PORT" },
		{ "[::1]9464", "[ADDR]:PORT" },
		{ "[::1:9464", "[ADDR]:PORT" },
		{ "[zz]:9464", "not a numeric IPv6 address" },
	};
	struct metrics_listen l;
	char why[160];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		assert_int_equal(metrics_listen_parse(bad[i].arg, &l, why, sizeof(why)), -EINVAL);
		if (!strstr(why, bad[i].why))
			fail_msg("--listen '%s' said '%s', not '%s'", bad[i].arg, why, bad[i].why);
	}
}

/* The whole answer to one HTTP/1.0 request (the server closes after it), NUL-ended. */
static char *ask(const struct metrics_listen *l, const char *request)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t len = 0, cap = 1 << 16;
	char *buf = calloc(1, cap);
	ssize_t n;

	assert_true(fd >= 0 && buf);
	assert_int_equal(connect(fd, (const struct sockaddr *)&l->addr, sizeof(struct sockaddr_in)),
			 0);
	assert_int_equal(write(fd, request, strlen(request)), (ssize_t)strlen(request));
	while ((n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	return buf;
}

/* The status code of an answer's first line ("HTTP/1.1 503 Service Unavailable"); -1. */
static int status_of(const char *answer)
{
	int code;

	return sscanf(answer, "HTTP/1.%*d %d ", &code) == 1 ? code : -1;
}

static void serves_the_last_exposition(void **state)
{
	static const char first[] = "# TYPE a_total counter\na_total 1\n";
	static const char second[] = "# HELP a_total As.\n# TYPE a_total counter\na_total 2\n";
	struct metrics_listen l, again;
	struct metrics_server *s, *twice;
	char why[160], *r;

	(void)state;
	assert_int_equal(metrics_listen_parse("127.0.0.1:0", &l, why, sizeof(why)), 0);
	s = metrics_server_start(&l);
	assert_non_null(s);
	assert_string_not_equal(l.text, "127.0.0.1:0");	/* the port the kernel gave */

	r = ask(&l, "GET /metrics HTTP/1.0\r\n\r\n");
	assert_int_equal(status_of(r), 503);
	assert_non_null(strstr(r, "Retry-After: 1"));
	assert_non_null(strstr(r, "no interval has ended yet"));
	free(r);
	assert_int_equal(metrics_server_scrapes(s), 0);

	assert_int_equal(metrics_server_publish(s, first, sizeof(first) - 1), 0);
	assert_int_equal(metrics_server_publish(s, second, sizeof(second) - 1), 0);
	r = ask(&l, "GET /metrics HTTP/1.0\r\n\r\n");
	assert_int_equal(status_of(r), 200);
	assert_non_null(strstr(r, "text/plain; version=0.0.4; charset=utf-8"));
	assert_non_null(strstr(r, "\r\n\r\n# HELP a_total As.\n# TYPE a_total counter\na_total 2\n"));
	assert_null(strstr(r, "a_total 1"));
	free(r);
	assert_int_equal(metrics_server_scrapes(s), 1);
	/* as Prometheus asks: OpenMetrics first, the text format as a fallback */
	r = ask(&l, "GET /metrics HTTP/1.0\r\nAccept: application/openmetrics-text;"
		"version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n\r\n");
	assert_int_equal(status_of(r), 200);
	assert_non_null(strstr(r, "application/openmetrics-text; version=1.0.0; charset=utf-8"));
	assert_non_null(strstr(r, "\r\n\r\n# TYPE a counter\n# HELP a As.\na_total 2\n# EOF\n"));
	free(r);
	assert_int_equal(metrics_server_scrapes(s), 2);

	r = ask(&l, "GET /other HTTP/1.0\r\n\r\n");
	assert_int_equal(status_of(r), 404);
	free(r);
	r = ask(&l, "POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
	assert_int_equal(status_of(r), 405);
	assert_non_null(strstr(r, "Allow: GET, HEAD"));
	free(r);
	assert_int_equal(metrics_server_scrapes(s), 2);

	/* its port is taken now: a second server there is refused, the first serves on */
	again = l;
	twice = metrics_server_start(&again);
	assert_null(twice);
	r = ask(&l, "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "a_total 2"));
	free(r);
	metrics_server_stop(s);
	metrics_server_stop(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_accepts),
		cmocka_unit_test(parse_refuses),
		cmocka_unit_test(serves_the_last_exposition),
	};

	return cmocka_run_group_tests_name("metrics_server", tests, NULL, NULL);
}
