#!/usr/bin/env python3
"""A stand-in for the kernel's migration-cost file, for 55_sweep.sh: serves a FIFO.

Usage: fake_tunable.py FIFO INITIAL_NS REFUSED_NS LOG

Each time a reader opens the FIFO it is given the value held; each time a writer opens it,
what it writes is taken as the new value, except REFUSED_NS, which this "kernel" does not
take (it keeps the value it held), as a kernel that clamps or ignores a write would.  Every
write is logged to LOG ("took N" or "kept N, refused M").  Runs until killed.

Which side the other end opened is told without blocking: opening for writing with
O_NONBLOCK succeeds only while a reader has the FIFO open; opening for reading with
O_NONBLOCK always succeeds, and a read then sees data (or EAGAIN) only while a writer has it.
"""
import errno
import os
import sys
import time

path, value, refused, log = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def note(line):
    with open(log, "a") as f:
        f.write(line + "\n")


while True:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno != errno.ENXIO:
            raise
        fd = None
    if fd is not None:
        # a reader waits: give it the value, then let it finish before serving again
        try:
            os.set_blocking(fd, True)
            os.write(fd, b"%d\n" % value)
        except BrokenPipeError:
            pass
        os.close(fd)
        time.sleep(0.05)
        continue
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    data, writer = b"", False
    while True:
        try:
            chunk = os.read(fd, 4096)
        except BlockingIOError:
            writer = True       # a writer has it open and has not written yet
            time.sleep(0.001)
            continue
        if not chunk:
            break               # no writer (any more)
        writer = True
        data += chunk
    os.close(fd)
    if writer and data.strip():
        new = int(data.split()[0])
        if new == refused:
            note("kept %d, refused %d" % (value, new))
        else:
            value = new
            note("took %d" % value)
    else:
        time.sleep(0.01)
