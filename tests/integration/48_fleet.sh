#!/usr/bin/env bash
# The fleet path end to end (issue 24, item 5), on loopback only: the rules file passes
# `promtool check rules` and its own `promtool test rules` cases; the Grafana dashboard is
# valid and names only what migtrace exports (dashboard_check.py, which must also catch a
# name it does not); then a real prometheus-node-exporter serves migtrace's textfile, a real
# prometheus scrapes it every second with the rules loaded, migtrace runs under a workload, and
# Prometheus' HTTP API answers sum(migtrace_migrations_total) with the count migtrace printed.
. "$(dirname "$0")/../lib.sh"

PROMDIR=$MT_ROOT/contrib/prometheus
RULES=$PROMDIR/migtrace.rules.yml
DASH=$MT_ROOT/contrib/grafana/migtrace-dashboard.json
CHECK=$MT_ROOT/tests/integration/dashboard_check.py
TXT=$MT_TMP/textfile		# node_exporter's --collector.textfile.directory
# The wake-up workload, and selfmig's 30 moves 100 ms apart beside it: the counter must change
# from one second's file to the next (fleet_textfile_rewritten), and a CPU-bound process
# beside the suite leaves the wake-up workload no idle CPU to be placed on (one change in
# 4 s was seen); selfmig moves itself whatever else runs.
WORKLOAD=(sh -c '"$1" running 30 100 >/dev/null & "$2" -t 2 -d 3; wait' sh
	"$MT_ROOT/.output/tests/progs/selfmig" "$MT_ROOT/.output/workloads/wakeup")
# The migtrace command that feeds node_exporter, as on a server: every task (-a), the file
# rewritten every second while the workload runs beside it, started by this test, and the
# same exposition served at --listen for Prometheus to scrape directly (@MTPORT@: a free
# port).  The checks below wait for Prometheus to hold the count migtrace prints at the end.
FLEET_RUN=(run -a --textfile "$TXT" --listen 127.0.0.1:@MTPORT@ --interval 1s --duration 4s)
QUERY='sum(migtrace_migrations_total{job="node"})'

# Every server this test starts is stopped on every way out (SIGTERM, then SIGKILL after
# 5 s), and the temporary tree removed: lib.sh's EXIT trap is replaced, so it is done here.
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -rf "$MT_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# 1. The rules and the dashboard, without BPF.
if ! command -v promtool >/dev/null; then
	fail fleet_promtool "promtool not installed (apt-get install prometheus; make deps does)"
	exit 0
fi
check fleet_promtool_check_rules promtool check rules "$RULES"
check fleet_promtool_test_rules promtool test rules "$PROMDIR/migtrace.rules.test.yml"

# The verdict's figures (hot times, the factor) exist only in runs that have a verdict: a
# validate run's exposition, from the checked-in sample, stands beside the live one below.
"$MT" report --prometheus "$MT_TMP/sample.prom" "$MT_ROOT/tests/data/sample-run.json" >/dev/null
# the checker catches a dashboard query naming a metric or a recording rule that do not exist
sed -e 's/migtrace_records_lost_total/migtrace_record_lost_total/' \
	-e 's/instance:migtrace_lb_pulls_hot:rate5m/instance:migtrace_lb_pull_hot:rate5m/' \
	"$DASH" >"$MT_TMP/bad-dashboard.json"
check fleet_dashboard_checker_catches bash -c '! out=$(python3 "$1" "$2" "$3" "$4") &&
	grep -q "migtrace_record_lost_total is in no exposition" <<<"$out" &&
	grep -q "instance:migtrace_lb_pull_hot:rate5m is no recording rule" <<<"$out" || {
	echo "$out"; false; }' _ "$CHECK" "$MT_TMP/bad-dashboard.json" "$RULES" "$MT_TMP/sample.prom"

# 2. Live, with BPF and both servers.
need_bpf_pair fleet_live || exit 0
for bin in prometheus-node-exporter prometheus curl; do
	if ! command -v "$bin" >/dev/null; then
		fail fleet_live "$bin not installed (apt-get install prometheus-node-exporter" \
			"prometheus curl; make deps does)"
		exit 0
	fi
done

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# serve NAME PATH CMD...: starts CMD (@PORT@ in it replaced) on a random free port in
# 20000-60000 until it answers http://127.0.0.1:PORT/PATH (10 s a try, 5 tries: a port
# taken between the probe and the bind is tried again); sets PORT and appends the pid to PIDS.
serve() {
	local name=$1 path=$2 pid try
	shift 2
	for try in 1 2 3 4 5; do
		PORT=$((20000 + (RANDOM * 32768 + RANDOM) % 40001))
		[ "$PORT" = "${MT_PORT:-}" ] && continue
		port_in_use "$PORT" && continue
		"${@//@PORT@/$PORT}" >"$MT_TMP/$name.log" 2>&1 &
		pid=$!
		for _ in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			if curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$PORT$path"; then
				PIDS+=("$pid")
				return 0
			fi
			sleep 0.1
		done
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	fail "fleet_$name" "did not start in 5 tries: $(tail -n 2 "$MT_TMP/$name.log" | tr '\n' ' ')"
	return 1
}

# promq QUERY: the value of an instant query's (last) series, or nothing.  sed, not a JSON
# parser: the answer is {"status":"success","data":{..."result":[{"metric":{...},
# "value":[TIME,"VALUE"]}]}}, and the poll below runs it up to 60 times on a busy machine.
promq() {
	curl -sf --max-time 2 --get --data-urlencode "query=$1" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" |
		sed -n 's/.*"value":\[[^,]*,"\([^"]*\)"\].*/\1/p'
}

# a free port for migtrace's --listen, which Prometheus is told of before migtrace starts
for _ in $(seq 20); do
	MT_PORT=$((20000 + (RANDOM * 32768 + RANDOM) % 40001))
	port_in_use "$MT_PORT" || break
done

mkdir -p "$TXT"
serve node_exporter /metrics prometheus-node-exporter --web.listen-address=127.0.0.1:@PORT@ \
	--collector.disable-defaults --collector.textfile --collector.textfile.directory="$TXT" ||
	exit 0
NE_PORT=$PORT
# The verdict's figures are in the expositions of runs that have a verdict: the validate
# sample's, served as a target of its own (job "sample", a static file), stands beside the
# live host, so that every panel of the dashboard has data to show (fleet_dashboard_answers).
mkdir -p "$MT_TMP/sample-srv"
cp "$MT_TMP/sample.prom" "$MT_TMP/sample-srv/metrics"
serve sample /metrics /usr/bin/python3 -m http.server --bind 127.0.0.1 \
	--directory "$MT_TMP/sample-srv" @PORT@ || exit 0
SAMPLE_PORT=$PORT
cat >"$MT_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $RULES
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
  - job_name: migtrace
    static_configs:
      - targets: ['127.0.0.1:$MT_PORT']
  - job_name: sample
    static_configs:
      - targets: ['127.0.0.1:$SAMPLE_PORT']
EOF
serve prometheus /-/ready prometheus --config.file="$MT_TMP/prometheus.yml" \
	--storage.tsdb.path="$MT_TMP/tsdb" --web.listen-address=127.0.0.1:@PORT@ --log.level=warn ||
	exit 0
PROM_PORT=$PORT
# Ready is not scraping: Prometheus applies its targets a few seconds after the start (the
# discovery manager's 5 s update cycle).  Start migtrace once node_exporter was scraped, so
# that Prometheus sees every file migtrace writes.
up=
deadline=$((SECONDS + 15))
while [ "$SECONDS" -lt "$deadline" ]; do
	up=$(promq 'up{job="node"}')
	[ "$up" = 1 ] && break
	sleep 0.2
done
if [ "$up" != 1 ]; then
	fail fleet_servers_up "Prometheus has not scraped node_exporter in 15 s (up '$up'):" \
		"$(tail -n 2 "$MT_TMP/prometheus.log" | tr '\n' ' ')"
	exit 0
fi
pass fleet_servers_up

run_args=()
for a in "${FLEET_RUN[@]}"; do
	if [ "$a" = @WORKLOAD@ ]; then run_args+=("${WORKLOAD[@]}"); else run_args+=("${a//@MTPORT@/$MT_PORT}"); fi
done
if [[ " ${FLEET_RUN[*]} " != *" @WORKLOAD@ "* ]]; then
	"${WORKLOAD[@]}" >"$MT_TMP/workload.out" 2>&1 &
	PIDS+=($!)
fi
timeout -k 5 60 "$MT" "${run_args[@]}" >"$MT_TMP/run.out" 2>&1
rc=$?
n=$(sed -n 's/^migrations: \([0-9][0-9]*\).*/\1/p' "$MT_TMP/run.out" | tail -n 1)
if [ "$rc" != 0 ] || [ -z "$n" ]; then
	fail fleet_run "migtrace ${run_args[*]}: exit $rc, no 'migrations: N' line:" \
		"$(tail -n 3 "$MT_TMP/run.out" | tr '\n' ' ')"
	exit 0
fi
check fleet_textfile_lints bash -c 'promtool check metrics <"$1"' _ "$TXT/migtrace.prom"
# only the file itself: the temporary one of the atomic write (.migtrace.prom.XXXXXX,
# which the collector ignores: not *.prom) is gone
check fleet_textfile_dir_clean bash -c '[ "$(ls -A "$1")" = migtrace.prom ] || ls -A "$1"' _ "$TXT"
check fleet_node_exporter_serves bash -c 'curl -sf "$1" | grep -q "^migtrace_migrations_total{cause=\"wakeup\"}" &&
	curl -sf "$1" | grep -q "^node_textfile_scrape_error 0"' _ "http://127.0.0.1:$NE_PORT/metrics"

# Prometheus holds what migtrace printed: poll its HTTP API (a scrape a second) for up to 30 s.
got=
deadline=$((SECONDS + 30))
while [ "$SECONDS" -lt "$deadline" ]; do
	got=$(promq "$QUERY")
	[ -n "$got" ] && awk -v a="$got" -v b="$n" 'BEGIN { exit !(a + 0 == b + 0) }' && break
	sleep 0.5
done
# (the count is whatever the machine gave: hundreds when quiet, a handful under a load of
# 100 on 2 CPUs; the series carry it either way)
if [ -n "$got" ] && awk -v a="$got" -v b="$n" 'BEGIN { exit !(a + 0 == b + 0) }'; then
	pass fleet_query_matches_run
else
	fail fleet_query_matches_run "Prometheus answered '$got' to $QUERY, migtrace printed" \
		"migrations: $n (30 s of polling)"
fi
echo "FIG fleet | GET /api/v1/query?query=$QUERY -> $got (Prometheus 127.0.0.1:$PROM_PORT," \
	"scraping prometheus-node-exporter 127.0.0.1:$NE_PORT textfile every 1 s);" \
	"migtrace ${FLEET_RUN[*]#$MT_TMP/} (workload: ${WORKLOAD[*]##*/}) printed migrations: $n"

# --listen: Prometheus scraped migtrace itself (job "migtrace") while it ran, each scrape
# the last interval's exposition: at most the count printed at the end, which comes with
# the last interval (a scrape may have missed it before migtrace exited), and some of it.
case " ${FLEET_RUN[*]} " in
*" --listen "*)
	q='sum(max_over_time(migtrace_migrations_total{job="migtrace"}[1m]))'
	lgot=$(promq "$q")
	lup=$(promq 'max_over_time(up{job="migtrace"}[1m])')
	if [ "$lup" = 1 ] && [ -n "$lgot" ] &&
		awk -v a="$lgot" -v b="$n" 'BEGIN { exit !(a + 0 > 0 && a + 0 <= b + 0) }'; then
		pass fleet_listen_scraped
	else
		fail fleet_listen_scraped "Prometheus scraping 127.0.0.1:$MT_PORT/metrics: up '$lup'," 			"$q '$lgot', migtrace printed migrations: $n"
	fi
	check fleet_listen_said grep -qE "^--listen 127.0.0.1:$MT_PORT: [1-9][0-9]* scrapes? answered" \
		"$MT_TMP/run.out"
	echo "FIG fleet_listen | $q -> $lgot (migtrace printed $n): $(grep '^--listen' "$MT_TMP/run.out")"
	;;
esac

# In the exporter mode the file is rewritten every interval: Prometheus saw the counters
# rise while the run went on, not only their last value (run --prometheus writes once).
case " ${FLEET_RUN[*]} " in
*" --textfile "*)
	ch=$(promq 'max(changes(migtrace_migrations_total[1m]))')
	if [ "${ch:-0}" -ge 2 ] 2>/dev/null; then pass fleet_textfile_rewritten
	else fail fleet_textfile_rewritten "max(changes(migtrace_migrations_total[1m])) is '$ch', not 2 or more"; fi
	;;
esac

# The rules, loaded by the real server, see the real labels: a per-host rate for every cause,
# and the stale alert's selector matches the mtime series node_exporter really serves.
causes=
deadline=$((SECONDS + 10))
while [ "$SECONDS" -lt "$deadline" ]; do
	causes=$(promq "count(instance_cause:migtrace_migrations:rate5m{instance=\"127.0.0.1:$NE_PORT\"})")
	[ "$causes" = 8 ] && break
	sleep 0.5
done
if [ "$causes" = 8 ]; then pass fleet_recording_rules_live
else fail fleet_recording_rules_live "count(instance_cause:migtrace_migrations:rate5m) of node_exporter's instance is '$causes', not 8 causes"; fi
mtime=$(promq 'node_textfile_mtime_seconds{job="node",file=~"(.*/)?migtrace\\.prom"}')
if [ -n "$mtime" ]; then pass fleet_stale_selector_matches
else fail fleet_stale_selector_matches "MigtraceTextfileStale's selector matches no node_textfile_mtime_seconds series"; fi

# The questions of docs/servers.md, asked of the live server: each one is valid PromQL.
DOC=$MT_ROOT/docs/servers.md
nq=0 bad=
while IFS= read -r q; do
	nq=$((nq + 1))
	curl -sf --max-time 5 --get --data-urlencode "query=$q" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" | grep -q '"status":"success"' || bad+=" [$q]"
done < <(sed -n '/^```promql$/,/^```$/{/^```/d;/^#/d;/^$/d;p}' "$DOC")
if [ "$nq" -ge 10 ] && [ -z "$bad" ]; then pass fleet_doc_queries_run
else fail fleet_doc_queries_run "$nq queries in $DOC; refused:${bad:- none}"; fi

# Every migtrace name of the dashboard, the rules and the doc's queries is in the live
# exposition (the level families exist only there) or the validate sample's (the verdict's
# figures), or is a recording rule.
check fleet_dashboard_names python3 "$CHECK" --doc "$DOC" "$DASH" "$RULES" "$TXT/migtrace.prom" \
	"$MT_TMP/sample.prom"

# Every query of the dashboard, asked of the live server with its variables at "All" and
# $__rate_interval at 1m, answers with a series: each panel has something to show from
# what migtrace exported (the live host, and the sample's verdict).  The hot share is a
# ratio over the pulls judged, and is rightly empty while none was: then it is said, not
# required.
judged=$(promq 'sum(increase(migtrace_level_lb_pulls_judged_total{job="node"}[5m]))')
nq=0 empty=
while IFS= read -r q; do
	nq=$((nq + 1))
	n=$(curl -sf --max-time 5 --get --data-urlencode "query=$q" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" | grep -o '"metric":' | wc -l)
	if [ "$n" = 0 ]; then
		case $q in
		*ratio_rate5m*) awk -v j="${judged:-0}" 'BEGIN { exit !(j + 0 == 0) }' &&
			echo "FIG fleet_dashboard | no pull judged: empty as it should be: $q" && continue ;;
		esac
		empty+=" [$q]"
	fi
done < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def walk(ps):
    for p in ps:
        yield p
        yield from walk(p.get("panels", []))
for p in walk(d["panels"]):
    for t in p.get("targets", []):
        e = t.get("expr", "")
        if e:
            print(e.replace("$job", ".*").replace("$instance", ".*").replace("$__rate_interval", "1m"))
' "$DASH")
if [ "$nq" -ge 10 ] && [ -z "$empty" ]; then pass fleet_dashboard_answers
else fail fleet_dashboard_answers "$nq dashboard queries; with no series:${empty:- none}"; fi
