#!/usr/bin/env bash
# The man pages (docs/man/*.rst, built by make into .output/man/*.8 with rst2man) and the bash
# completion (contrib/bash-completion/migtrace):
# 1. in step with the binary: every option of `migtrace CMD --help` in that command's page,
#    none there that --help does not print, the commands, the sections, one meaning for each
#    short option across the commands and migtrace(8)'s table of them, the completion's
#    static lists (tests/integration/man_sync.py);
# 2. every page built, and rendered by groff and by man without a warning, within 80 columns;
# 3. the completion driven as bash drives it (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT)
#    in a non-interactive bash, without and with bash-completion's helpers.
# No BPF; root is not needed.
. "$(dirname "$0")/../lib.sh"

MAN=$MT_ROOT/.output/man
COMP=$MT_ROOT/contrib/bash-completion/migtrace
BC=/usr/share/bash-completion/bash_completion

# A package `make deps` installs is missing: a skip, but a failure under CI.
pkg_skip() {
	if [ "${CI:-}" = true ]; then fail "$1" "skipped under CI: $2"; else skip "$1" "$2"; fi
}

# 1. In step with --help.
for what in pages commands options mentions sections vocabulary completion; do
	check "man_sync_$what" python3 "$MT_ROOT/tests/integration/man_sync.py" "$MT" "$MT_ROOT" "$what"
done

# 2. Rendering: no warning from groff (-ww: all of them), none from man, no line over 80
#    columns.  groff's exit status says nothing of warnings: its stderr must be empty.
# within FILE COLUMNS: no line of FILE is wider; else prints the first that is.
within() {
	python3 -c 'import sys
for n, l in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    if len(l.rstrip("\n")) > int(sys.argv[2]):
        sys.exit("line %d is %d columns: %s" % (n, len(l.rstrip("\n")), l.strip()))' "$@"
}
for src in "$MT_ROOT"/docs/man/*.rst; do
	n=$(basename "$src" .rst)
	page=$MAN/$n.8
	# built by `make` (make man), newer than its source
	if ! check "man_built_$n" test "$page" -nt "$src"; then
		continue
	fi
	if ! command -v groff >/dev/null; then
		pkg_skip "man_groff_$n" "no groff (groff-base)"
		continue
	fi
	check "man_groff_$n" bash -c 'err=$(groff -ww -man -Tutf8 -z "$1" 2>&1); [ -z "$err" ] || { echo "$err"; exit 1; }' _ "$page"
	if ! command -v man >/dev/null; then
		pkg_skip "man_render_$n" "no man (man-db)"
		continue
	fi
	# from stdin, so that man reads it whoever it runs as; no seccomp sandbox (containers)
	LC_ALL=C.UTF-8 MAN_DISABLE_SECCOMP=1 MANROFFSEQ='' MANWIDTH=80 man --warnings -l - \
		<"$page" >"$MT_TMP/$n.txt" 2>"$MT_TMP/$n.err"
	rc=$?
	check "man_render_$n" bash -c '[ "$1" = 0 ] && [ ! -s "$2" ] && grep -q "^NAME" "$3" ||
		{ echo "exit $1"; cat "$2"; exit 1; }' _ "$rc" "$MT_TMP/$n.err" "$MT_TMP/$n.txt"
	check "man_width_$n" within "$MT_TMP/$n.txt" 80
done

# 3. The completion.  complete_line MODE LINE: COMPREPLY for LINE with the cursor at its end,
#    one per line, sorted; MODE plain (bash alone), bc (bash-completion loaded first) or
#    lazy (loaded by bash-completion from its completions directory).
#    COMP_WORDS are made as readline makes them: split at blanks, and at '=' and ':'
#    (COMP_WORDBREAKS), each of those a word of its own.  Runs in $MT_TMP/comp, where the
#    files of the cases are.
mkdir -p "$MT_TMP/comp/sub" "$MT_TMP/bin" "$MT_TMP/bcdir/completions"
ln -s "$COMP" "$MT_TMP/bcdir/completions/migtrace"
touch "$MT_TMP/comp/a.json" "$MT_TMP/comp/b.json" "$MT_TMP/comp/c.txt" "$MT_TMP/comp/run.json" \
	"$MT_TMP/comp/d.json.gz" "$MT_TMP/comp/e.gz" "$MT_TMP/comp/trace.dat"
MT_ABS=$(readlink -f "$MT")	# the cases run elsewhere
ln -s "$MT_ABS" "$MT_TMP/bin/migtrace"
complete_line() {
	(cd "$MT_TMP/comp" && PATH=$MT_TMP/bin:/usr/bin:/bin BASH_COMPLETION_USER_DIR=$MT_TMP/bcdir \
		bash --norc --noprofile -c '
		case $1 in
		plain) . "$2" || exit 1 ;;
		bc) . "$3" && . "$2" || exit 1 ;;
		# as installed: bash-completion finds it in its completions directory, and
		# sources it inside a function when migtrace is first completed
		lazy) . "$3" && __load_completion migtrace || exit 1 ;;
		esac
		line=$4 w= c=
		COMP_WORDS=()
		for ((i = 0; i < ${#line}; i++)); do
			c=${line:i:1}
			case $c in
			" ") [ -n "$w" ] && COMP_WORDS+=("$w"); w= ;;
			= | :) [ -n "$w" ] && COMP_WORDS+=("$w"); COMP_WORDS+=("$c"); w= ;;
			*) w+=$c ;;
			esac
		done
		if [ -n "$w" ]; then COMP_WORDS+=("$w"); elif [ "${line% }" != "$line" ]; then COMP_WORDS+=(""); fi
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
		COMPREPLY=()
		spec=$(complete -p migtrace) && [ "$spec" = "complete -F _migtrace migtrace" ] || exit 1
		_migtrace migtrace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$1" "$COMP" "$BC" "$2" </dev/null 2>/dev/null)
}
# expect MODE NAME LINE WORDS...: COMPREPLY for LINE is exactly WORDS.
expect() {
	local mode=$1 name=$2 line=$3 got want
	shift 3
	got=$(complete_line "$mode" "$line" | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then pass "comp_${mode}_$name"; else fail "comp_${mode}_$name" "'$line': got [$got], want [$want]"; fi
}
# has MODE NAME LINE WORD...: COMPREPLY for LINE includes every WORD.
has() {
	local mode=$1 name=$2 line=$3 got w
	shift 3
	got=$(complete_line "$mode" "$line")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" || { fail "comp_${mode}_$name" "'$line': no $w in [$(echo $got)]"; return; }
	done
	pass "comp_${mode}_$name"
}

commands=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import man_sync; print(" ".join(man_sync.commands(sys.argv[2])))' \
	"$MT_ROOT/tests/integration" "$MT")
doctor_opts=$("$MT" doctor --help | sed -nE 's/^  (-., |    )(--[a-z][-a-z0-9]*)(=[^ ]+)?( .*|$)/\2\3/p' | sed -E 's/=.*/=/')
modes=plain
if [ -r "$BC" ]; then modes="plain bc"; else pkg_skip comp_bc "no $BC (bash-completion)"; fi
for m in $modes; do
	# shellcheck disable=SC2086
	expect "$m" commands "migtrace " $commands
	# shellcheck disable=SC2086
	expect "$m" commands_by_path "$MT_ABS " $commands
	has "$m" run_o "migtrace run --o" --output=
	expect "$m" run_ou "migtrace run --ou" --output=
	expect "$m" run_workload "migtrace run wa" wakeup
	expect "$m" run_workload_after_option "migtrace run -C 0,1 -o x.json wa" wakeup
	expect "$m" report_json "migtrace report " a.json b.json d.json.gz run.json sub trace.dat
	# shellcheck disable=SC2086
	expect "$m" doctor_options "migtrace doctor --" $doctor_opts
	expect "$m" calibrate_method "migtrace calibrate --method " 2004 2005 chase
	expect "$m" calibrate_method_split "migtrace calibrate --method=c" chase
	expect "$m" run_output_file "migtrace run -o r" run.json
	expect "$m" run_output_split "migtrace run --output=r" run.json
	expect "$m" report_csv_dir "migtrace report --csv " sub
	expect "$m" cpus_nothing "migtrace run --cpus "
	expect "$m" workload_args_not_ours "migtrace run wakeup --o"
done
if [ -r "$BC" ]; then
	# shellcheck disable=SC2086
	expect lazy doctor_options "migtrace doctor --" $doctor_opts
	expect lazy run_workload "migtrace run wa" wakeup
fi
