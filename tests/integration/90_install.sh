#!/usr/bin/env bash
# Installing like a real tool: `make install` and `make uninstall` under DESTDIR and PREFIX
# (uninstall leaves no file), an installed migtrace finding its workloads in
# PREFIX/libexec/migtrace, --version naming the checkout, and the Debian package: built by
# `make deb`, clean to lintian, installed, run, purged with no file left behind.  Everything
# is built in a copy of the tree, so that the tree's own build is left as it was.
. "$(dirname "$0")/../lib.sh"

# --version and -V: the release the package is named by (debian/changelog), then the
# checkout as git describes it (none without .git, or for git refusing a tree another user
# owns): "migtrace 0.1 (f85a8a2)"
release=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$MT_ROOT/debian/changelog")
want=$(git -C "$MT_ROOT" describe --always --dirty --tags 2>/dev/null)
if [ -z "$want" ]; then
	skip version_is_git_describe "git cannot describe $MT_ROOT (no .git, or not a safe.directory)"
else
	for opt in --version -V; do
		got=$("$MT" "$opt" 2>&1)
		if [ "$got" = "migtrace $release ($want)" ]; then
			pass "version_is_git_describe$opt"
		else
			fail "version_is_git_describe$opt" "'migtrace $opt' says '$got', not 'migtrace $release ($want)': rebuild (make)"
		fi
	done
fi

# The copy: no .git, so its VERSION file carries the version (a tarball's way).
src=$MT_TMP/src
mkdir -p "$src"
(cd "$MT_ROOT" && tar --exclude=./.output --exclude=./.git --exclude=./migtrace -cf - .) \
	| tar -xf - -C "$src"
# with the tree's build of migtrace and its workloads, times kept: the copy's install then
# recompiles only what names PREFIX (make deb builds its own from nothing)
(cd "$MT_ROOT" && tar -cf - .output/.layout .output/*.bpf.o .output/*.skel.h .output/user \
	.output/analysis .output/workloads .output/libmigtrace.a 2>/dev/null) | tar -xf - -C "$src"
[ -z "$want" ] || echo "$want" >"$src/VERSION"

# (a) a staged install, then its uninstall: no file stays, nor migtrace's own directories
dest=$MT_TMP/dest
if make -C "$src" -s -j"$(nproc)" install DESTDIR="$dest" PREFIX=/usr >"$MT_TMP/install.log" 2>&1; then
	check install_destdir_files bash -c 'for f in sbin/migtrace libexec/migtrace/cachewalk \
		libexec/migtrace/wakeup share/doc/migtrace/README.md share/doc/migtrace/docs/design.md \
		share/man/man8/migtrace.8 share/man/man8/migtrace-run.8; do
		[ -f "$1/usr/$f" ] || { echo "missing $1/usr/$f"; exit 1; }; done
		[ -x "$1/usr/sbin/migtrace" ]' _ "$dest"
	make -C "$src" -s uninstall DESTDIR="$dest" PREFIX=/usr >>"$MT_TMP/install.log" 2>&1
	left=$(find "$dest" ! -type d -o -type d -name migtrace)
	if [ -z "$left" ]; then
		pass uninstall_leaves_nothing
	else
		fail uninstall_leaves_nothing "left: $(echo "$left" | head -n 5 | tr '\n' ' ')"
	fi
else
	fail install_destdir_files "make install failed: $(tail -n 3 "$MT_TMP/install.log" | tr '\n' ' ')"
fi

# An install under its own PREFIX runs from anywhere: its workloads are found in
# PREFIX/libexec/migtrace, with no build tree beside it, nothing in the environment or PATH.
prefix=$MT_TMP/prefix
if make -C "$src" -s -j"$(nproc)" install PREFIX="$prefix" >"$MT_TMP/prefix.log" 2>&1; then
	inst=$prefix/sbin/migtrace
	[ -z "$want" ] || check install_prefix_version test "$("$inst" --version)" = "migtrace $release ($want)"
	if need_bpf_pair install_prefix_finds_workloads; then
		(cd "$MT_TMP" && env -u MIGTRACE_WORKLOADS PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			"$inst" run wakeup -t 2 -d 1) >"$MT_TMP/prefix-run.txt" 2>&1
		rc=$?
		if [ "$rc" = 0 ] && grep -qE '^migrations: [0-9]+' "$MT_TMP/prefix-run.txt"; then
			pass install_prefix_finds_workloads
		else
			fail install_prefix_finds_workloads "exit $rc: $(tail -n 3 "$MT_TMP/prefix-run.txt" | tr '\n' ' ')"
		fi
		# relocatable: the installed tree moved elsewhere finds its own workloads there
		mv "$prefix" "$prefix-moved"
		(cd "$MT_TMP" && env -u MIGTRACE_WORKLOADS PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			"$prefix-moved/sbin/migtrace" run -o "$MT_TMP/moved.json" wakeup -t 2 -d 1) \
			>"$MT_TMP/moved-run.txt" 2>&1
		rc=$?
		check install_moved_finds_workloads bash -c '[ "$1" = 0 ] &&
			grep -qE "^migrations: [0-9]+" "$2" &&
			grep -q "\"command\":\"wakeup -t 2 -d 1\"" "$3"' _ "$rc" "$MT_TMP/moved-run.txt" "$MT_TMP/moved.json"
		mv "$prefix-moved" "$prefix"
		# without it, the error names both places looked in (refused before any BPF load)
		mv "$prefix/libexec/migtrace/wakeup" "$MT_TMP/wakeup.away"
		out=$(cd "$MT_TMP" && env -u MIGTRACE_WORKLOADS PATH=/usr/bin:/bin "$inst" run wakeup 2>&1)
		check install_prefix_missing_names_both grep -qF \
			"no such built-in workload in $prefix/sbin/.output/workloads or $prefix/libexec/migtrace," <<<"$out"
	fi
else
	fail install_prefix_version "make install PREFIX=$prefix failed: $(tail -n 3 "$MT_TMP/prefix.log" | tr '\n' ' ')"
fi

# ci_skip NAME REASON: a skip, but a failure under CI, where `make test` installed the tools.
ci_skip() {
	if [ "${CI:-}" = true ]; then fail "$1" "skipped under CI: $2"; else skip "$1" "$2"; fi
}

# (b) the package, built from a copy of the copy (make deb), and lintian's verdict on it
deb=
if ! command -v dpkg-buildpackage >/dev/null || ! command -v lintian >/dev/null ||
   ! command -v dh >/dev/null; then
	ci_skip deb_builds "dpkg-buildpackage, dh or lintian missing (make deps installs them)"
elif make -C "$src" -s deb >"$MT_TMP/deb.log" 2>&1; then
	deb=$(ls "$src"/.output/deb/migtrace_*.deb 2>/dev/null | head -n 1)
	if [ -n "$deb" ]; then
		pass deb_builds
		echo "        $(basename "$deb"): $(stat -c %s "$deb") bytes"
	else
		fail deb_builds "make deb made no .deb: $(tail -n 3 "$MT_TMP/deb.log" | tr '\n' ' ')"
	fi
elif grep -q '^E: ' "$src/.output/deb/lintian.txt" 2>/dev/null; then
	fail deb_builds "lintian: $(grep '^E: ' "$src/.output/deb/lintian.txt" | head -n 3 | tr '\n' ' ')"
else
	fail deb_builds "make deb failed: $(tail -n 3 "$MT_TMP/deb.log" | tr '\n' ' ')"
fi
if [ -n "$deb" ]; then
	lint=$src/.output/deb/lintian.txt
	check deb_lintian_no_errors bash -c '! grep "^E: " "$1"' _ "$lint"
	grep -E '^[WI]: ' "$lint" | sed 's/^/        lintian /'
	# the stripped binaries keep what uprobes attach to by name, in .dynsym
	dpkg-deb -x "$deb" "$MT_TMP/deb-x"
	# the exporter's unit where systemd finds a package's units, not enabled at install
	check deb_unit_where_systemd_looks test -s "$MT_TMP/deb-x/lib/systemd/system/migtrace-exporter.service"
	check deb_keeps_uprobe_symbols bash -c '
		readelf --dyn-syms -W "$1/usr/sbin/migtrace" | grep -q " mt_doctor_uprobe_target$" &&
		readelf --dyn-syms -W "$1/usr/sbin/migtrace" | grep -q " mt_probe_cost_target$" &&
		readelf --dyn-syms -W "$1/usr/libexec/migtrace/cachewalk" | grep -q " cachewalk_unit$"' \
		_ "$MT_TMP/deb-x"
fi

# (c) installed, run, purged: the file system as it was.  Never over a migtrace package
# already there, which this test would purge.
fs_list() {
	find / -xdev \( -path /proc -o -path /sys -o -path /tmp -o -path /var/tmp -o -path /run \
		-o -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path /var/lib/dpkg \
		-o -path /root -o -path /work -o -path "$MT_ROOT" \) -prune -o -print | sort
}
if [ -z "$deb" ]; then
	:
elif ! need_bpf_pair deb_install_run_purge; then
	:
elif st=$(dpkg-query -W -f='${db:Status-Status}' migtrace 2>/dev/null) && [ "$st" != not-installed ]; then
	ci_skip deb_install_run_purge "a migtrace package is on this system already ($st): this test installs and purges its own; remove it first (dpkg -P migtrace)"
else
	fs_list >"$MT_TMP/fs.before"
	trap 'dpkg -P migtrace >/dev/null 2>&1; rm -rf "$MT_TMP"' EXIT
	if dpkg -i "$deb" >"$MT_TMP/dpkg-i.log" 2>&1 </dev/null; then
		pass deb_installs
		# installed, not enabled: it traces every task, which the admin chooses
		check deb_unit_not_enabled bash -c 'systemctl cat migtrace-exporter >/dev/null 2>&1 ||
			test -s /lib/systemd/system/migtrace-exporter.service &&
			test ! -e /etc/systemd/system/multi-user.target.wants/migtrace-exporter.service'
		# the package's version is --version's release, the revision beside it
		check deb_version test "$(/usr/sbin/migtrace --version)" = \
			"migtrace $(dpkg-query -W -f='${Version}' migtrace)${want:+ ($want)}"
		out=$(cd / && /usr/sbin/migtrace doctor 2>&1 </dev/null)
		rc=$?
		check deb_doctor_exit_0 test "$rc" = 0
		check deb_doctor_bpf_and_uprobes bash -c 'grep -qE "^ok +BPF load " <<<"$1" &&
			grep -qE "^ok +uprobes " <<<"$1"' _ "$out"
		out=$(cd / && env -u MIGTRACE_WORKLOADS /usr/sbin/migtrace run wakeup -t 2 -d 1 2>&1 </dev/null)
		rc=$?
		if [ "$rc" = 0 ] && grep -qE '^migrations: [0-9]+' <<<"$out"; then
			pass deb_run_wakeup
		else
			fail deb_run_wakeup "exit $rc: $(tail -n 3 <<<"$out" | tr '\n' ' ')"
		fi
	else
		fail deb_installs "dpkg -i: $(tail -n 3 "$MT_TMP/dpkg-i.log" | tr '\n' ' ')"
	fi
	check deb_purges dpkg -P migtrace
	trap 'rm -rf "$MT_TMP"' EXIT
	fs_list >"$MT_TMP/fs.after"
	left=$(comm -13 "$MT_TMP/fs.before" "$MT_TMP/fs.after")
	gone=$(comm -23 "$MT_TMP/fs.before" "$MT_TMP/fs.after")
	if [ -z "$left$gone" ]; then
		pass deb_purge_leaves_nothing
	else
		fail deb_purge_leaves_nothing "left: $(head -n 5 <<<"$left" | tr '\n' ' ') gone: $(head -n 5 <<<"$gone" | tr '\n' ' ')"
	fi
fi
