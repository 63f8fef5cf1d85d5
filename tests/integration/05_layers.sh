#!/usr/bin/env bash
# The layers (README "Layout"): a lower layer cannot include a higher one, and report links
# without libbpf.  The first case builds a scratch copy of the tree with one backward include
# added and expects make to refuse it.
. "$(dirname "$0")/../lib.sh"

# backward_include_fails: the model including a renderer's header fails to compile
scratch=$MT_TMP/tree
mkdir -p "$scratch/.output"
(cd "$MT_ROOT" && tar --exclude=./.output --exclude=./.git --exclude=./migtrace -cf - .) \
	| tar -xf - -C "$scratch"
# the skeletons as built (newer than their sources): the scratch build compiles C only
cp -p "$MT_ROOT"/.output/.layout "$MT_ROOT"/.output/*.skel.h "$MT_ROOT"/.output/*.bpf.o \
	"$scratch/.output/" 2>/dev/null
obj=.output/analysis/model/run.o
if make -C "$scratch" -s "$obj" >"$MT_TMP/good.log" 2>&1; then
	pass layers_tree_builds_as_is
else
	fail layers_tree_builds_as_is "$(tail -n 3 "$MT_TMP/good.log" | tr '\n' ' ')"
fi
sed -i '0,/#include "run.h"/s//#include "run.h"\n#include "render_text.h"/' \
	"$scratch/analysis/model/run.c"
if make -C "$scratch" -s "$obj" >"$MT_TMP/bad.log" 2>&1; then
	fail layers_backward_include_fails "make built analysis/model/run.c including render_text.h"
elif grep -q 'render_text.h: No such file' "$MT_TMP/bad.log"; then
	pass layers_backward_include_fails
else
	fail layers_backward_include_fails "make failed, not on the include: $(tail -n 2 "$MT_TMP/bad.log" | tr '\n' ' ')"
fi
# and one layer further down: a host file reaching into the CLI
sed -i '0,/#include "tunable.h"/s//#include "tunable.h"\n#include "commands.h"/' \
	"$scratch/user/host/tunable.c"
if make -C "$scratch" -s .output/user/host/tunable.o >"$MT_TMP/bad2.log" 2>&1; then
	fail layers_host_cannot_include_cli "make built user/host/tunable.c including commands.h"
else
	check layers_host_cannot_include_cli grep -q 'commands.h: No such file' "$MT_TMP/bad2.log"
fi

# report_links_without_libbpf: report alone, linked from the analysis layers
ro=$MT_ROOT/.output/tests/report-only
if [ ! -x "$ro" ]; then
	fail report_links_without_libbpf "$ro not built (make all builds it)"
elif ldd "$ro" | grep -q libbpf; then
	fail report_links_without_libbpf "$(ldd "$ro" | grep libbpf)"
else
	pass report_links_without_libbpf
	check report_only_same_text bash -c 'diff <("$1" report "$2/tests/data/sample-run.json") \
		<("$3" "$2/tests/data/sample-run.json")' _ "$MT" "$MT_ROOT" "$ro"
fi
