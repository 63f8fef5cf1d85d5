#!/usr/bin/env python3
"""rst2man's output made as the hand-written pages were: a literal block (an example) at the
text's indent, not 3.5 ens in, so that its 80 columns stay 80; every character beyond ASCII
as groff's \\[uXXXX], which groff reads without preconv and man without a warning.
Filters stdin to stdout (the Makefile's man rule)."""
import re
import sys

text = sys.stdin.read()
text = re.sub(r'\.INDENT 3\.5\n\.sp\n\.nf\n', '.INDENT 0.0\n.sp\n.nf\n',
              text)
text = ''.join(c if ord(c) < 128 else '\\[u%04X]' % ord(c) for c in text)
text = '\n'.join(l.rstrip() for l in text.split('\n'))
sys.stdout.write(text)
