// SPDX-License-Identifier: GPL-2.0
/*
 * protoc-c's encoder of perfetto_trace.proto (the Makefile generates it into .output/gen from
 * the .proto beside this file), compiled here as a source of this layer, with its flags.
 */
#include "perfetto_trace.pb-c.c"
