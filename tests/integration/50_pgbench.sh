#!/usr/bin/env bash
# --unit on a program no one here wrote: a PostgreSQL server under pgbench, units = calls
# of PortalRun (one per statement), in a temporary cluster on loopback that this test makes,
# starts and removes.
. "$(dirname "$0")/../lib.sh"

if ! reason=$(bpf_ok); then
	bpf_skip pgbench_unit "$reason"
	exit 0
fi
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pgbin" ] || [ ! -x "$pgbin/postgres" ] || ! id postgres >/dev/null 2>&1; then
	fail pgbench_unit "PostgreSQL is not installed (make deps installs it)"
	exit 0
fi

pg=$MT_TMP/pg
port=$((54000 + RANDOM % 1000))
mkdir -p "$pg/data" "$pg/sock"
chown -R postgres "$pg"
chmod 755 "$MT_TMP"
as_pg() { runuser -u postgres -- "$@"; }
stop_pg() { as_pg "$pgbin/pg_ctl" -D "$pg/data" -m immediate stop >/dev/null 2>&1; }
trap 'stop_pg; rm -rf "$MT_TMP"' EXIT

as_pg "$pgbin/initdb" -D "$pg/data" -A trust >"$pg/initdb.log" 2>&1 || { fail pgbench_unit "initdb failed: $(tail -n 2 "$pg/initdb.log")"; exit 0; }
if ! as_pg "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -o \
	"-c listen_addresses=127.0.0.1 -p $port -k $pg/sock -c log_connections=on -c log_line_prefix='%p '" \
	start >/dev/null 2>&1; then
	fail pgbench_unit "the server did not start: $(tail -n 2 "$pg/server.log")"
	exit 0
fi
postmaster=$(head -n 1 "$pg/data/postmaster.pid")
as_pg "$pgbin/pgbench" -h 127.0.0.1 -p "$port" -i -s 1 postgres >"$pg/init.log" 2>&1

"$MT" run -p "$postmaster" --unit "$pgbin/postgres:PortalRun" --duration 6s -o "$MT_TMP/pg.json" \
	>"$MT_TMP/pg.out" 2>&1 &
mt=$!
wait_for "$MT_TMP/pg.out" '^Tracing'
as_pg "$pgbin/pgbench" -h 127.0.0.1 -p "$port" -c 2 -j 2 -T 3 postgres >"$pg/bench.log" 2>&1
wait "$mt"
rc=$?
check pgbench_run_completes bash -c '[ "$1" = 0 ] && grep -q "number of transactions actually processed" "$2"' _ "$rc" "$pg/bench.log"
tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$pg/bench.log")
# The backends that served pgbench, from the server's own log ("%p connection authorized").
grep 'connection authorized' "$pg/server.log" | awk '{print $1}' | sort -u >"$pg/backends"
python3 - "$MT_TMP/pg.json" "$pg/backends" "$postmaster" "${tx:-0}" >"$MT_TMP/pg.check" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
backends = {int(l) for l in open(sys.argv[2]) if l.strip()}
postmaster, tx = int(sys.argv[3]), int(sys.argv[4])
units = d.get("units", [])
pids = {u["pid"] for u in units}
print("%d transactions, %d units (PortalRun calls) in backends %s; backends seen in the log: %s"
      % (tx, len(units), sorted(pids), sorted(backends)))
ok = (tx > 0 and units and postmaster not in pids and pids <= backends
      # pgbench's TPC-B-like transaction is 7 statements, each one PortalRun
      and len(units) >= 5 * tx
      and all(u["tgid"] == u["pid"] for u in units)
      and len([p for p in pids if sum(1 for u in units if u["pid"] == p) >= tx]) >= 2)
print("ok" if ok else "differ")
PY
sed 's/^/    /' "$MT_TMP/pg.check"
check pgbench_units_in_backends grep -qx ok "$MT_TMP/pg.check"

# run --probe-moves on the same server (docs/design.md, "Probed moves"): the backends' next
# PortalRun after a move against after a sham.  A verdict, or an undetermined that states its
# bound; never the natural run's "biased", which a coin's arms cannot be.
"$MT" run -p "$postmaster" --unit "$pgbin/postgres:PortalRun" --probe-moves 50 --duration 11s \
	-o "$MT_TMP/probe.json" >"$MT_TMP/probe.out" 2>&1 &
mt=$!
wait_for "$MT_TMP/probe.out" '^Tracing'
as_pg "$pgbin/pgbench" -h 127.0.0.1 -p "$port" -c 2 -j 2 -T 9 postgres >"$pg/bench2.log" 2>&1
wait "$mt"
check pgbench_probe_run_ok test $? = 0
check pgbench_probe_judged json "$MT_TMP/probe.json" \
	"(p := d['probes'])['result']['timed_moves'] >= 10 and p['result']['timed_shams'] >= 10 and p['masks_restored'] == p['masks_narrowed'] > 0 and p['result']['verdict']['verdict'] in ('too low', 'about right', 'too high', 'undetermined') and not p['result']['verdict']['bias']" \
	"{k: v for k, v in d['probes'].items() if k not in ('moments', 'units')}"
sed -n '/^probed moves/,$p' "$MT_TMP/probe.out" >"$MT_TMP/probed.txt"
check pgbench_probe_words bash -c 'grep -qE "^  => (the kernel.s .* is (too (low|high) by|about right)|undetermined: .*(at least|at most|fewer than|contains))" "$1" && ! grep -q biased "$1" || { grep "=>" "$1"; exit 1; }' _ "$MT_TMP/probed.txt"
