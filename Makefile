# SPDX-License-Identifier: GPL-2.0
#
# migtrace build.  `make` builds ./migtrace and the workloads; `make test` runs every test;
# `make run` does all set-up and runs the default job.  V=1 shows the commands.

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
LDLIBS		:= -lbpf -lelf -lz -lm -lpthread
SAN_FLAGS	:= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# The system include dirs clang would use for the host, so that BPF code can include
# <linux/types.h>-style headers through vmlinux.h-free paths when it needs to.
CLANG_BPF_SYS_INCLUDES ?= $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

# The product's BPF (bpf/) and the benchmark's own (bench/bpf/), each a skeleton in $(OUTPUT).
BPF_SRCS	:= $(wildcard bpf/*.bpf.c bench/bpf/*.bpf.c)
BPF_APPS	:= $(patsubst %.bpf.c,%,$(notdir $(BPF_SRCS)))
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
INC_analysis/render	:= $(INC_analysis/judge) -Ianalysis/render
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
# counts are checked against, promtool (prometheus) for the OpenMetrics export, PostgreSQL for the --unit test,
# qemu, busybox and Debian's kernels for the matrix.
RUN_PKGS	:= clang llvm libbpf-dev libelf-dev zlib1g-dev bpftool pkg-config \
		   make gcc gnuplot-nox
TEST_PKGS	:= $(RUN_PKGS) prometheus python3 libcmocka-dev libclang-rt-14-dev linux-perf bpftrace rt-tests stress-ng \
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
.PHONY: all clean deps vmlinux test unit san run bench fuzzers fuzz

all: migtrace $(WORKLOADS) $(TEST_PROGS) $(BENCH_PROGS) $(OUTPUT)/tests/report-only $(OUTPUT)/tests/reanalyze

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

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# User space: every object waits for the skeletons, since several include them; each sees
# only its layer's include paths.
$(OUTPUT)/%.o: %.c $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(call inc_of,$<) -MMD -MP -c $< -o $@

$(OUTPUT)/san/%.o: %.c $(SKELS)
	$(call msg,CC-SAN,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(call inc_of,$<) $(SAN_FLAGS) -MMD -MP -c $< -o $@

# Archives are made anew: `ar rcs` on an old one would keep the object of a deleted source.
$(OUTPUT)/libmigtrace.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# The analysis layers alone, and report's own command over them: linked without libbpf.
REPORT_OBJS	:= $(patsubst %.c,$(OUTPUT)/%.o,$(ANALYSIS_SRCS) $(WL_SHARED) \
		   $(addprefix user/cli/,cmd_report.c export.c cli.c run_output.c))
$(OUTPUT)/tests/report-only: tests/link/report_only.c $(REPORT_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(INC_user/cli) $< $(REPORT_OBJS) -lm -o $@

# A saved run analyzed again by this build (tests of the judge on doctored run files).
$(OUTPUT)/tests/reanalyze: tests/link/reanalyze.c $(REPORT_OBJS)
	$(call msg,LINK,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(INC_user/cli) $< $(REPORT_OBJS) -lm -o $@

$(OUTPUT)/libmigtrace-san.a: $(SAN_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

migtrace: $(OUTPUT)/user/cli/main.o $(OUTPUT)/libmigtrace.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(OUTPUT)/migtrace-san: $(OUTPUT)/san/user/cli/main.o $(OUTPUT)/libmigtrace-san.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) $^ $(LDLIBS) -o $@

# Workloads and test programs: plain C, pinned by their own code where they need it.
# cachewalk also links its option parser, which migtrace shares.
$(OUTPUT)/workloads/cachewalk: $(OUTPUT)/workloads/cachewalk_config.o
$(OUTPUT)/workloads/%: workloads/%.c | $(OUTPUT)/workloads
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(INC_workloads) -MMD -MP $< $(filter %.o,$^) -lpthread -lm -o $@

$(OUTPUT)/tests/progs/%: tests/progs/%.c | $(OUTPUT)/tests/progs
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP $< -lpthread -lm -o $@

# The benchmark's helpers link the library, like the tests.
$(OUTPUT)/bench/%: bench/%.c $(OUTPUT)/libmigtrace.a | $(OUTPUT)/bench
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(INC_ALL) -MMD -MP $< $(OUTPUT)/libmigtrace.a $(LDLIBS) -o $@

$(OUTPUT)/tests/unit/%: tests/unit/%.c $(OUTPUT)/libmigtrace.a | $(OUTPUT)/tests/unit/san
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(INC_ALL) -MMD -MP $< $(OUTPUT)/libmigtrace.a -lcmocka $(LDLIBS) -o $@

$(OUTPUT)/tests/unit/san/%: tests/unit/%.c $(OUTPUT)/libmigtrace-san.a | $(OUTPUT)/tests/unit/san
	$(call msg,CC-SAN,$@)
	$(Q)$(CC) $(CFLAGS) $(INC_ALL) $(SAN_FLAGS) -MMD -MP $< $(OUTPUT)/libmigtrace-san.a -lcmocka \
		$(LDLIBS) -o $@

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

$(OUTPUT)/fuzz/obj/%.o: %.c $(SKELS)
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

fuzzers: $(FUZZ_BINS)

fuzz: fuzzers
	$(Q)bash tests/fuzz/run.sh --keep $(FUZZ_SECONDS)

# The README's two commands.
test: deps
	$(Q)$(MAKE) --no-print-directory all unit san fuzzers
	$(Q)bash tests/run.sh

# The kernel matrix: Debian's kernels booted under qemu (TCG), and the host's own kernel,
# each running the real BPF cases (tests/kernels/matrix.sh; also run by `make test`).
.PHONY: test-kernels
test-kernels: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)bash tests/kernels/matrix.sh

run:
	$(Q)$(MAKE) --no-print-directory deps DEB_PKGS="$(RUN_PKGS)"
	$(Q)$(MAKE) --no-print-directory migtrace $(WORKLOADS)
	./migtrace validate

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)python3 bench/bench.py

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUTPUT) migtrace

# Dependency files only: a directory whose name ends in .d is not one.
-include $(shell find $(OUTPUT) -name '*.d' -type f 2>/dev/null)
