#!/usr/bin/env python3
"""Where a hung guest's vCPUs are: asks qemu's monitor for every vCPU's registers, samples
them a few times, and names each RIP's function with the guest kernel's text symbols (guests
boot with nokaslr, so /proc/kallsyms of any boot of that kernel names them; Debian's
System.map is a stub).  Prints one line:
    CPU0 native_queued_spin_lock_slowpath (5/5), CPU1 ...

    vcpus.py MONITOR_SOCKET SYMBOLS [CHANNEL]

SYMBOLS is "ADDR NAME" or "ADDR TYPE NAME" lines; when it is missing, the kallsyms file the
guest shipped on CHANNEL (tests/kernels/guest.sh, case env) is used.
"""
import base64
import bisect
import collections
import gzip
import re
import socket
import sys
import time


def parse_symbols(lines):
    addrs, names = [], []
    for line in lines:
        w = line.split()
        if len(w) == 2:
            a, name = w
        elif len(w) >= 3 and w[1] in ("t", "T", "w", "W"):
            a, name = w[0], w[2]
        else:
            continue
        try:
            addrs.append(int(a, 16))
            names.append(name)
        except ValueError:
            pass
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def load_symbols(path, channel):
    try:
        return parse_symbols(open(path))
    except OSError:
        pass
    # from the channel: the block "MT-FILE env kallsyms" / base64 of gzip / "MT-EOF"
    chunks, inside = [], False
    try:
        for line in open(channel, errors="replace"):
            line = line.strip()
            if line == "MT-FILE env kallsyms":
                inside = True
            elif inside and line == "MT-EOF":
                return parse_symbols(gzip.decompress(base64.b64decode("".join(chunks))).decode().splitlines())
            elif inside:
                chunks.append(line)
    except (OSError, ValueError, EOFError):
        pass
    return [], []


def symbol(addrs, names, rip):
    i = bisect.bisect_right(addrs, rip) - 1
    if i < 0 or rip - addrs[i] > 0x100000:
        return "0x%x" % rip
    return "%s+0x%x" % (names[i], rip - addrs[i])


def sample(path):
    """{cpu: rip} from one `info registers -a`."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(3)
    s.connect(path)
    s.sendall(b"info registers -a\n")
    data, end = b"", time.time() + 3
    while time.time() < end:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
        if data.count(b"RIP=") >= 1 and data.rstrip().endswith(b"(qemu)"):
            break
    s.close()
    rips, cpu = {}, None
    for line in data.decode("ascii", "replace").splitlines():
        m = re.match(r"\s*CPU#(\d+)", line)
        if m:
            cpu = int(m.group(1))
        m = re.search(r"RIP=([0-9a-f]+)", line)
        if m and cpu is not None:
            rips[cpu] = int(m.group(1), 16)
    if not rips:  # one vCPU: no CPU# header
        m = re.search(r"RIP=([0-9a-f]+)", data.decode("ascii", "replace"))
        if m:
            rips[0] = int(m.group(1), 16)
    return rips


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: vcpus.py MONITOR_SOCKET SYMBOLS [CHANNEL]", file=sys.stderr)
        return 2
    addrs, names = load_symbols(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "")
    seen = collections.defaultdict(collections.Counter)
    n = 0
    for _ in range(5):
        try:
            for cpu, rip in sample(sys.argv[1]).items():
                # the function, not the offset: a spinning CPU moves within it
                seen[cpu][symbol(addrs, names, rip).split("+")[0]] += 1
            n += 1
        except OSError as e:
            print("vCPU state unavailable: monitor %s: %s" % (sys.argv[1], e))
            return 1
        time.sleep(0.3)
    print(", ".join("CPU%d %s" % (cpu, "/".join("%s (%d/%d)" % (f, c, n) for f, c in cnt.most_common(2)))
                    for cpu, cnt in sorted(seen.items())) or "vCPU state unavailable: no RIP in the monitor's answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
