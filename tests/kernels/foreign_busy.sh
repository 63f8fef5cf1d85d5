#!/bin/sh
# foreign_busy.sh [SECONDS]: how many CPUs' worth of time the machine spent busy over
# SECONDS (default 0.5), from /proc/stat: user, nice, system, irq and softirq time over all
# time less steal, times the CPUs; "0.98" for a CPU-bound process alone.  The tests run it
# while nothing of theirs runs, so what it reads is other work's: a check that needs an idle
# CPU (an active balance, a wake-up placement) has none when it reads 0.5 or more (see
# docs/testing.md, "Regime-gated").  POSIX sh and awk: it runs in the guests' busybox too.
a=$(grep '^cpu' /proc/stat)
sleep "${1:-0.5}"
b=$(grep '^cpu' /proc/stat)
printf '%s\n--\n%s\n' "$a" "$b" | awk '
	$1 == "--" { second = 1; next }
	$1 == "cpu" {
		# user nice system idle iowait irq softirq steal
		busy = $2 + $3 + $4 + $7 + $8; all = busy + $5 + $6
		if (second) { db = busy - b0; da = all - a0 } else { b0 = busy; a0 = all }
		next
	}
	!second && $1 ~ /^cpu[0-9]/ { ncpu++ }
	END { printf "%.2f\n", (da > 0 ? db / da : 0) * ncpu }'
