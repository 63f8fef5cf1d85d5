#!/usr/bin/env bash
# The kernel matrix: Debian's own kernels booted under qemu (TCG, no KVM needed): bookworm's
# 6.1, 6.12 and 6.1 PREEMPT_RT, bullseye's 5.10, sid's 7.2 and experimental's 7.3-rc; and
# the host's own kernel, each running migtrace's real BPF cases (doctor, exact migration
# counts and causes with both backends, the tunable; validate, a capture and the sweep on
# 6.12 and 6.1-rt).  Every check is a
# PASS/FAIL line in $MT_RESULTS named by its kernel: k6.1_selfmig_sleeping_23, k6.12_...,
# k6.1rt_..., khost_...; each kernel also prints "kernel K: N passed, N failed".
# Kernels are downloaded once into /var/cache/migtrace-kernels (MT_KERNEL_CACHE); one that
# cannot be fetched is a skip, and a failure under CI=true.  See tests/kernels/matrix.sh.
set -u
. "$(dirname "$0")/../lib.sh"

bash "$MT_ROOT/tests/kernels/matrix.sh"
