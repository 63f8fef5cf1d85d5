# SPDX-License-Identifier: GPL-2.0
#
# migtrace build.  `make` builds ./migtrace and the workloads; `make test` runs every test;
# `make run` does all set-up and runs the default job; `make install` (PREFIX, DESTDIR),
# `make uninstall`, `make deb` (the Debian package, in .output/deb).  V=1 shows the commands.

OUTPUT		:= .output
# The source layout the build directory was made for.  One made for another layout (sources
# since moved, whose dependency files still name their old paths, so that make finds "no rule
# to make target bpf/bracket.bpf.c") is removed once: an updated checkout builds as a fresh
# clone does.  Raise it when sources move.
BUILD_LAYOUT	:= 2
ifneq ($(shell cat $(OUTPUT)/.layout 2>/dev/null),$(BUILD_LAYOUT))
$(shell rm -rf $(OUTPUT) && mkdir -p $(OUTPUT) && echo $(BUILD_LAYOUT) >$(OUTPUT)/.layout)
endif
CLANG		?= clang
BPFTOOL		?= bpftool
CC		?= cc
ARCH		:= $(shell uname -m | sed 's/x86_64/x86/' | sed 's/aarch64/arm64/' \
			 | sed 's/ppc64le/powerpc/' | sed 's/mips.*/mips/' | sed 's/riscv64/riscv/')

WARN		:= -Wall -Wextra -Werror
CFLAGS		?= -g -O2
CFLAGS		+= $(WARN) -std=gnu11 -D_GNU_SOURCE
# trace-cmd captures (user/capture/trace_dat.c): libtracecmd and libtraceevent; the live
# ftrace backend (user/capture/ftrace_tracer.c): libtracefs and libtraceevent
TRACECMD_CFLAGS	:= $(shell pkg-config --cflags libtracecmd libtraceevent 2>/dev/null)
TRACEFS_CFLAGS	:= $(or $(shell pkg-config --cflags libtracefs libtraceevent 2>/dev/null),\
		   -I/usr/include/tracefs -I/usr/include/traceevent)
TRACECMD_LIBS	:= $(or $(shell pkg-config --libs libtracecmd libtracefs libtraceevent 2>/dev/null),\
		   -ltracecmd -ltracefs -ltraceevent)
LDLIBS		:= -lbpf -lelf -lz -lm -lpthread -lmicrohttpd -lprotobuf-c $(TRACECMD_LIBS)
# -O1 after CFLAGS' -O2, as AddressSanitizer's documentation advises: gcc builds the
# sanitized objects in half the time (18.6 s, 9.2 s on 2 CPUs), and finds as much.
SAN_FLAGS	:= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O1
# CPPFLAGS and LDFLAGS are the caller's (empty here; dpkg-buildflags' hardening in the package).
# The functions migtrace's own uprobes attach to by name (doctor's check, the probe cost) and
# the one `--unit .../cachewalk:cachewalk_unit` names go into the dynamic symbol table too,
# where they survive the strip of an installed or packaged binary.
MT_UPROBE_SYMS	:= -Wl,--export-dynamic-symbol=mt_doctor_uprobe_target \
		   -Wl,--export-dynamic-symbol=mt_probe_cost_target

# Installation.  PREFIX is compiled in, too (install_dirs.h): an installed migtrace looks for
# its workloads in LIBEXECDIR, so `make install PREFIX=...` rebuilds what names it.
# DESTDIR is a staging root, as the Debian package's build uses it.
PREFIX		?= /usr/local
SBINDIR		:= $(PREFIX)/sbin
LIBEXECDIR	:= $(PREFIX)/libexec/migtrace
DOCDIR		:= $(PREFIX)/share/doc/migtrace
MAN8DIR		:= $(PREFIX)/share/man/man8
BASHCOMPDIR	:= $(PREFIX)/share/bash-completion/completions
INSTALL		?= install
# the documentation keeps the tree's layout, where its links lead
DOC_MDS		:= $(wildcard docs/*.md)
DOC_IMGS	:= $(wildcard docs/img/*.png)
# the man pages, each made from its one source docs/man/NAME.rst by rst2man (python3-docutils)
# as bpftool makes its own, and the bash completion (contrib)
MAN_SRCS	:= $(wildcard docs/man/*.rst)
MAN_PAGES	:= $(patsubst docs/man/%.rst,$(OUTPUT)/man/%.8,$(MAN_SRCS))
RST2MAN		?= rst2man
BASH_COMP	:= $(wildcard contrib/bash-completion/migtrace)
# for servers (docs/servers.md): the exporter's unit, Prometheus' rules, a Grafana dashboard;
# copies to start from, not enabled by installing
SHAREDIR	:= $(PREFIX)/share/migtrace
CONTRIB		:= $(wildcard contrib/systemd/*.service contrib/prometheus/*.yml \
			contrib/grafana/*.json)

# The build's version, for --version: the release the package is named by (debian/changelog's
# first line), then the revision built: git's description of the checkout, or in a tree
# without .git (a tarball, the package's build copy) its VERSION file.  "0.1 (f85a8a2)".
MT_RELEASE	:= $(or $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog 2>/dev/null),unknown)
MT_REVISION	:= $(or $(if $(wildcard .git),$(shell git describe --always --dirty --tags 2>/dev/null)),\
		   $(shell cat VERSION 2>/dev/null))
MT_VERSION	:= $(MT_RELEASE)$(if $(MT_REVISION), ($(MT_REVISION)))

# The system include dirs clang would use for the host, so that BPF code can include
# <linux/types.h>-style headers through vmlinux.h-free paths when it needs to.
CLANG_BPF_SYS_INCLUDES ?= $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

# The product's BPF (bpf/) and the benchmark's own (bench/bpf/), each a skeleton in $(OUTPUT).
BPF_SRCS	:= $(wildcard bpf/*.bpf.c bench/bpf/*.bpf.c)
BPF_APPS	:= $(patsubst %.bpf.c,%,$(notdir $(BPF_SRCS))) migtrace_pre512
BPF_OBJS	:= $(patsubst %,$(OUTPUT)/%.bpf.o,$(BPF_APPS))
SKELS		:= $(patsubst %,$(OUTPUT)/%.skel.h,$(BPF_APPS))
vpath %.bpf.c bpf bench/bpf

# The layers, lowest first (README "Layout").  Each compiles with its own and the lower
# layers' include paths only, so that a backward include fails the build.  bpf/migtrace.h and
# the workloads' headers are the interface to the kernel side and the workloads: every layer
# from the model up may include them.
INC_analysis/lib	:= -Ianalysis/lib
INC_workloads		:= -Iworkloads -Ibpf
INC_analysis/model	:= $(INC_analysis/lib) $(INC_workloads) -Ianalysis/model
INC_analysis/judge	:= $(INC_analysis/model) -Ianalysis/judge
INC_analysis/render	:= $(INC_analysis/judge) -Ianalysis/render -I$(OUTPUT)/gen
INC_user/host		:= $(INC_analysis/model) -Iuser/host
INC_user/capture	:= $(INC_user/host) -Iuser/capture -I$(OUTPUT)
INC_user/cli		:= $(INC_analysis/render) $(INC_user/capture) -Iuser/cli
INC_ALL			:= $(INC_user/cli)
LAYERS		:= analysis/lib analysis/model analysis/judge analysis/render user/host user/capture \
		   user/cli
# A source's include paths: its folder's layer, or all of them (tests, bench, fuzzers).
inc_of		= $(or $(INC_$(patsubst %/,%,$(dir $(1)))),$(INC_ALL))

# Workload pieces migtrace shares (cachewalk's option parser) are in the library too.
WL_SHARED	:= $(wildcard workloads/*_config.c)
# report needs no libbpf: the analysis layers and report's own command link without it.
ANALYSIS_SRCS	:= $(foreach l,$(filter analysis/%,$(LAYERS)),$(wildcard $(l)/*.c))
LIB_SRCS	:= $(filter-out user/cli/main.c,$(foreach l,$(LAYERS),$(wildcard $(l)/*.c))) \
		   $(WL_SHARED)
LIB_OBJS	:= $(patsubst %.c,$(OUTPUT)/%.o,$(LIB_SRCS))
SAN_OBJS	:= $(patsubst %.c,$(OUTPUT)/san/%.o,$(LIB_SRCS))

WORKLOADS	:= $(patsubst workloads/%.c,$(OUTPUT)/workloads/%,$(filter-out $(WL_SHARED),$(wildcard workloads/*.c)))
TEST_PROGS	:= $(patsubst tests/progs/%.c,$(OUTPUT)/tests/progs/%,$(wildcard tests/progs/*.c))
BENCH_PROGS	:= $(patsubst bench/%.c,$(OUTPUT)/bench/%,$(wildcard bench/*.c))
UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(OUTPUT)/tests/unit/%,$(UNIT_SRCS))
UNIT_SAN_BINS	:= $(patsubst tests/unit/%.c,$(OUTPUT)/tests/unit/san/%,$(UNIT_SRCS))

# Debian packages: what building and running migtrace needs (`make run`; gnuplot draws
# --plot), and what the tests and the benchmark add (`make test`, `make bench`): the tools the
# counts are checked against, promtool (prometheus) for the Prometheus export and
# python3-prometheus-client's parser for the OpenMetrics one, PostgreSQL for the --unit test,
# qemu, busybox and Debian's kernels for the matrix, trace-cmd for its captures.
RUN_PKGS	:= clang llvm libbpf-dev libelf-dev zlib1g-dev bpftool pkg-config \
		   make gcc gnuplot-nox libtracecmd-dev libtracefs-dev libtraceevent-dev libmicrohttpd-dev \
		   protobuf-c-compiler libprotobuf-c-dev \
		   python3-docutils
# `make deb`: debhelper's build, checked by lintian
PKG_PKGS	:= debhelper dpkg-dev fakeroot lintian
TEST_PKGS	:= $(RUN_PKGS) $(PKG_PKGS) trace-cmd prometheus prometheus-node-exporter python3 python3-prometheus-client protobuf-compiler libcmocka-dev libclang-rt-14-dev linux-perf bpftrace rt-tests stress-ng \
		   strace time postgresql postgresql-contrib qemu-system-x86 busybox-static cpio \
		   groff-base man-db bash-completion
DEB_PKGS	?= $(TEST_PKGS)

ifeq ($(V),1)
	Q =
	msg =
else
	Q = @
	msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: all clean deps vmlinux test unit san run bench fuzzers fuzz workloads install uninstall \
	deb man FORCE

all: migtrace $(WORKLOADS) $(TEST_PROGS) $(BENCH_PROGS) $(OUTPUT)/tests/report-only $(OUTPUT)/tests/reanalyze \
	man

# The man pages: docs/man/NAME.rst is the one source of each (`--help` is checked against it
# by tests/integration/91_man.sh); the .8 is built, not kept in git, as bpftool's are.
# man_fixup.py puts the examples at the text's indent and writes non-ASCII as groff escapes.
man: $(MAN_PAGES)

$(OUTPUT)/man/%.8: docs/man/%.rst docs/man/man_fixup.py
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)command -v $(RST2MAN) >/dev/null || { echo "man: no $(RST2MAN): install python3-docutils (make deps)" >&2; exit 1; }
	$(Q)$(RST2MAN) --strict $< | python3 docs/man/man_fixup.py >$@.tmp && mv $@.tmp $@

# Installs what is missing, quietly when nothing is; never upgrades what is there.
# `make deps` installs everything; `make run` only what running needs.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" \
			|| missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq >/dev/null && apt-get install -y -qq $$missing >/dev/null \
			|| { echo "deps: apt-get install failed for:$$missing" >&2; exit 1; }; \
	fi

vmlinux:
	$(call msg,GEN,vmlinux.h)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux.h.tmp
	$(Q)mv vmlinux.h.tmp vmlinux.h

$(OUTPUT) $(OUTPUT)/workloads $(OUTPUT)/tests/progs $(OUTPUT)/tests/unit/san $(OUTPUT)/bench:
	$(Q)mkdir -p $@

# BPF: CO-RE objects against the committed vmlinux.h, then skeletons.
$(OUTPUT)/%.bpf.o: %.bpf.c vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(ARCH) -I. -Ibpf \
		$(CLANG_BPF_SYS_INCLUDES) -MMD -MP -MF $(OUTPUT)/$*.bpf.d -MT $@ -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp
	$(Q)rm -f $@.tmp

# The same programs for kernels before 5.12, whose verifier refuses BPF's atomic OR,
# exchange and compare-and-exchange anywhere in a program, reached or not (MT_PRE_512 in
# bpf/migtrace.bpf.c): loaded through migtrace's own skeleton, with these bytes
# (bpf_tracer.c).
$(OUTPUT)/migtrace_pre512.bpf.o: bpf/migtrace.bpf.c vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(ARCH) -DMT_PRE_512 -I. -Ibpf \
		$(CLANG_BPF_SYS_INCLUDES) -MMD -MP -MF $(OUTPUT)/migtrace_pre512.bpf.d -MT $@ -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp
	$(Q)rm -f $@.tmp

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# What the build knows of itself, each in a header of its own: the version (main.c) and where
# installed workloads are (run_config.c).  Made on every run but rewritten only when they
# change, so that a new commit recompiles main.c alone, and another PREFIX run_config.c.
# gen_header FILE LINE: FILE holds LINE, FILE's time changed only when LINE did.
gen_header = printf '%s\n' '/* Generated by the Makefile: do not edit. */' '$(2)' >$(1).tmp; \
	if cmp -s $(1).tmp $(1); then rm -f $(1).tmp; else \
		printf '  %-8s %s\n' GEN '$(1): $(2)'; mv -f $(1).tmp $(1); fi
$(OUTPUT)/version.h: FORCE | $(OUTPUT)
	$(Q)$(call gen_header,$@,#define MT_VERSION "$(MT_VERSION)")
$(OUTPUT)/install_dirs.h: FORCE | $(OUTPUT)
	$(Q)$(call gen_header,$@,#define MT_LIBEXECDIR "$(LIBEXECDIR)")
$(OUTPUT)/user/cli/main.o $(OUTPUT)/san/user/cli/main.o: $(OUTPUT)/version.h
$(foreach v,/ /san/ /fuzz/obj/,$(OUTPUT)$(v)user/capture/run_config.o): $(OUTPUT)/install_dirs.h
$(foreach v,/ /san/ /fuzz/obj/,$(foreach o,trace_dat sched_decode,$(OUTPUT)$(v)user/capture/$(o).o)): \
	CFLAGS += $(TRACECMD_CFLAGS)
$(foreach v,/ /san/ /fuzz/obj/,$(foreach o,ftrace_tracer trace_keep,$(OUTPUT)$(v)user/capture/$(o).o)): \
	CFLAGS += $(TRACEFS_CFLAGS)

# The native Perfetto export's encoder, made by protoc-c from the .proto the project writes
# (analysis/render/perfetto_trace.proto); perfetto_trace_pb.c compiles it in that layer.
GEN_PB		:= $(OUTPUT)/gen/perfetto_trace.pb-c.h
$(GEN_PB): analysis/render/perfetto_trace.proto
	$(call msg,PROTOC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)protoc-c --c_out=$(dir $@) -Ianalysis/render $<

# User space: every object waits for the skeletons and the generated encoder, since several
# include them; each sees only its layer's include paths.
$(OUTPUT)/%.o: %.c $(SKELS) $(GEN_PB)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(call inc_of,$<) -MMD -MP -c $< -o $@

$(OUTPUT)/san/%.o: %.c $(SKELS) $(GEN_PB)
	$(call msg,CC-SAN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(call inc_of,$<) $(SAN_FLAGS) -MMD -MP -c $< -o $@

# Archives are made anew: `ar rcs` on an old one would keep the object of a deleted source.
$(OUTPUT)/libmigtrace.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# The analysis layers alone, and report's own command over them: linked without libbpf.
REPORT_OBJS	:= $(patsubst %.c,$(OUTPUT)/%.o,$(ANALYSIS_SRCS) $(WL_SHARED) \
		   $(addprefix user/cli/,cmd_report.c export.c cli.c run_output.c) \
		   $(addprefix user/capture/,trace_dat.c sched_decode.c sched_replay.c))
$(OUTPUT)/tests/report-only: tests/link/report_only.c $(REPORT_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(INC_user/cli) $< $(REPORT_OBJS) -lm -lz -lpthread -lprotobuf-c \
		$(TRACECMD_LIBS) -o $@

# A saved run analyzed again by this build (tests of the judge on doctored run files).
$(OUTPUT)/tests/reanalyze: tests/link/reanalyze.c $(REPORT_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(INC_user/cli) $< $(REPORT_OBJS) -lm -lz -lpthread -lprotobuf-c \
		$(TRACECMD_LIBS) -o $@

$(OUTPUT)/libmigtrace-san.a: $(SAN_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

migtrace: $(OUTPUT)/user/cli/main.o $(OUTPUT)/libmigtrace.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(MT_UPROBE_SYMS) $^ $(LDLIBS) -o $@

$(OUTPUT)/migtrace-san: $(OUTPUT)/san/user/cli/main.o $(OUTPUT)/libmigtrace-san.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(MT_UPROBE_SYMS) $(SAN_FLAGS) $^ $(LDLIBS) -o $@

# Workloads and test programs: plain C, pinned by their own code where they need it.
# cachewalk also links its option parser, which migtrace shares.
workloads: $(WORKLOADS)
$(OUTPUT)/workloads/cachewalk: $(OUTPUT)/workloads/cachewalk_config.o
$(OUTPUT)/workloads/cachewalk: WL_LDFLAGS := -Wl,--export-dynamic-symbol=cachewalk_unit
$(OUTPUT)/workloads/%: workloads/%.c | $(OUTPUT)/workloads
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(WL_LDFLAGS) $(INC_workloads) -MMD -MP $< \
		$(filter %.o,$^) -lpthread -lm -o $@

$(OUTPUT)/tests/progs/%: tests/progs/%.c | $(OUTPUT)/tests/progs
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -MMD -MP $< -lpthread -lm -o $@

# The benchmark's helpers link the library, like the tests.
$(OUTPUT)/bench/%: bench/%.c $(OUTPUT)/libmigtrace.a | $(OUTPUT)/bench
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(INC_ALL) -MMD -MP $< $(OUTPUT)/libmigtrace.a \
		$(LDLIBS) -o $@

$(OUTPUT)/tests/unit/%: tests/unit/%.c $(OUTPUT)/libmigtrace.a | $(OUTPUT)/tests/unit/san
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(INC_ALL) -MMD -MP $< $(OUTPUT)/libmigtrace.a \
		-lcmocka $(LDLIBS) -o $@

$(OUTPUT)/tests/unit/san/%: tests/unit/%.c $(OUTPUT)/libmigtrace-san.a | $(OUTPUT)/tests/unit/san
	$(call msg,CC-SAN,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(INC_ALL) $(SAN_FLAGS) -MMD -MP $< \
		$(OUTPUT)/libmigtrace-san.a -lcmocka $(LDLIBS) -o $@

unit: $(UNIT_BINS)
san: $(UNIT_SAN_BINS) $(OUTPUT)/migtrace-san

# Fuzzers (libFuzzer, clang 14): the library rebuilt with coverage and ASan+UBSan, one
# binary per tests/fuzz/fuzz_*.c.  The tests run each for a few seconds over its corpus;
# `make fuzz` runs each for FUZZ_SECONDS and keeps what it found in the corpus.
FUZZ_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SRCS	:= $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS	:= $(patsubst tests/fuzz/%.c,$(OUTPUT)/fuzz/%,$(FUZZ_SRCS))
FUZZ_OBJS	:= $(patsubst %.c,$(OUTPUT)/fuzz/obj/%.o,$(LIB_SRCS))
FUZZ_SECONDS	?= 300

$(OUTPUT)/fuzz/obj/%.o: %.c $(SKELS) $(GEN_PB)
	$(call msg,CC-FUZZ,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG) $(CFLAGS) $(call inc_of,$<) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(OUTPUT)/libmigtrace-fuzz.a: $(FUZZ_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OUTPUT)/fuzz/%: tests/fuzz/%.c $(OUTPUT)/libmigtrace-fuzz.a
	$(call msg,CC-FUZZ,$@)
	$(Q)$(CLANG) $(CFLAGS) $(INC_ALL) $(FUZZ_FLAGS) -fsanitize=fuzzer -MMD -MP $< \
		$(OUTPUT)/libmigtrace-fuzz.a $(LDLIBS) -o $@

# the decoder's fuzzer builds libtraceevent's formats itself
$(OUTPUT)/fuzz/fuzz_sched_decode: CFLAGS += $(TRACECMD_CFLAGS)

fuzzers: $(FUZZ_BINS)

fuzz: fuzzers
	$(Q)bash tests/fuzz/run.sh --keep $(FUZZ_SECONDS)

# The README's two commands.
# The build on every CPU: half of a fresh clone's `make test` minute on 2 CPUs.  The
# fuzzers are built by their test (80_fuzz), which runs beside the kernel matrix's guests.
NPROC		:= $(shell nproc 2>/dev/null || echo 1)
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all unit san
	$(Q)bash tests/run.sh

# The kernel matrix: Debian's kernels booted under qemu (TCG), and the host's own kernel,
# each running the real BPF cases (tests/kernels/matrix.sh; also run by `make test`).
.PHONY: test-kernels matrix-doc
test-kernels: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash tests/kernels/matrix.sh

# The last whole matrix's figures into docs/, after a green run (docs/testing.md).
matrix-doc:
	$(Q)test -s $(OUTPUT)/kernels/kernel-matrix.md || { echo "no $(OUTPUT)/kernels/kernel-matrix.md: run the whole matrix first (sudo make test-kernels)" >&2; exit 1; }
	$(Q)cp $(OUTPUT)/kernels/kernel-matrix.md docs/.kernel-matrix.md.tmp && mv docs/.kernel-matrix.md.tmp docs/kernel-matrix.md

run:
	$(Q)$(MAKE) --no-print-directory deps DEB_PKGS="$(RUN_PKGS)"
	$(Q)$(MAKE) --no-print-directory migtrace $(WORKLOADS)
	./migtrace validate

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)python3 bench/bench.py

# install_to MODE DIR FILE...: each FILE into DIR under a temporary name, then renamed over
# the old one, so that a migtrace running from there never sees a half-written file.
install_to = $(INSTALL) -d $(2) && for f in $(3); do t=$(2)/.$$(basename $$f).tmp; \
	$(INSTALL) -m $(1) $$f $$t && mv -f $$t $(2)/$$(basename $$f) || exit 1; done

install: migtrace $(WORKLOADS) $(MAN_PAGES)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)$(call install_to,0755,$(DESTDIR)$(SBINDIR),migtrace)
	$(Q)$(call install_to,0755,$(DESTDIR)$(LIBEXECDIR),$(WORKLOADS))
	$(Q)$(call install_to,0644,$(DESTDIR)$(DOCDIR),README.md)
	$(Q)$(if $(DOC_MDS),$(call install_to,0644,$(DESTDIR)$(DOCDIR)/docs,$(DOC_MDS)))
	$(Q)$(if $(DOC_IMGS),$(call install_to,0644,$(DESTDIR)$(DOCDIR)/docs/img,$(DOC_IMGS)))
	$(Q)$(if $(MAN_PAGES),$(call install_to,0644,$(DESTDIR)$(MAN8DIR),$(MAN_PAGES)))
	$(Q)$(if $(BASH_COMP),$(call install_to,0644,$(DESTDIR)$(BASHCOMPDIR),$(BASH_COMP)))
	$(Q)$(foreach d,$(sort $(dir $(CONTRIB))),$(call install_to,0644,$(DESTDIR)$(SHAREDIR)/$(notdir $(patsubst %/,%,$(d))),$(filter $(d)%,$(CONTRIB))) &&) true

# Exactly what install put there, found from the same lists (no build needed), and the
# directories that were migtrace's alone once they are empty.
uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(DESTDIR)$(SBINDIR)/migtrace \
		$(addprefix $(DESTDIR)$(LIBEXECDIR)/,$(notdir $(WORKLOADS))) \
		$(DESTDIR)$(DOCDIR)/README.md $(addprefix $(DESTDIR)$(DOCDIR)/,$(DOC_MDS) $(DOC_IMGS)) \
		$(addprefix $(DESTDIR)$(MAN8DIR)/,$(notdir $(MAN_PAGES))) \
		$(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(notdir $(BASH_COMP))) \
		$(addprefix $(DESTDIR)$(SHAREDIR)/,$(patsubst contrib/%,%,$(CONTRIB)))
	$(Q)for d in $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DOCDIR)/docs/img $(DESTDIR)$(DOCDIR)/docs \
		$(DESTDIR)$(DOCDIR) $(addprefix $(DESTDIR)$(SHAREDIR)/,$(sort $(notdir $(patsubst \
		%/,%,$(dir $(CONTRIB)))))) $(DESTDIR)$(SHAREDIR); do \
		[ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; done

# The Debian package (debian/), built from a copy of this tree, uncommitted changes included,
# in $(DEB_DIR): dpkg-buildpackage leaves the .deb beside the tree it builds, and cleans that
# tree first, so the copy keeps both off this one.  The copy has no .git: its VERSION file
# carries the version over.  lintian's verdict is in $(DEB_DIR)/lintian.txt; an error fails.
DEB_DIR		:= $(OUTPUT)/deb
deb:
	$(Q)$(MAKE) --no-print-directory deps DEB_PKGS="$(RUN_PKGS) $(PKG_PKGS)"
	$(call msg,DEB,$(DEB_DIR))
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	$(Q)tar --exclude=./$(OUTPUT) --exclude=./.git --exclude=./migtrace -cf - . \
		| tar -xf - -C $(DEB_DIR)/src
	$(Q)echo '$(MT_REVISION)' >$(DEB_DIR)/src/VERSION
	$(Q)cd $(DEB_DIR)/src && dpkg-buildpackage -us -uc -b -jauto >../build.log 2>&1 \
		|| { tail -n 20 ../build.log >&2; echo "deb: dpkg-buildpackage failed;" \
			"the whole log is in $(DEB_DIR)/build.log" >&2; exit 1; }
	$(Q)lintian $(DEB_DIR)/migtrace_*.deb >$(DEB_DIR)/lintian.txt 2>&1; rc=$$?; \
		sed 's/^/  /' $(DEB_DIR)/lintian.txt; \
		[ $$rc = 0 ] || { echo "deb: lintian found errors in $(DEB_DIR)/migtrace_*.deb" >&2; exit 1; }
	$(Q)ls $(DEB_DIR)/*.deb

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUTPUT) migtrace

# Dependency files only: a directory whose name ends in .d is not one.
-include $(shell find $(OUTPUT) -name '*.d' -type f 2>/dev/null)
