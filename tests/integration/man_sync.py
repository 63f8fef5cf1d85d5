#!/usr/bin/env python3
"""Keeps the man pages' sources (docs/man/*.rst) and the bash completion in step with the binary.

usage: man_sync.py MIGTRACE ROOT CHECK, CHECK one of:
  pages       a page for every command `migtrace --help` lists, and no other
  commands    migtrace(8)'s COMMANDS lists the same commands
  options     each page's OPTIONS has every option of `migtrace CMD --help`, with its short
              spelling and argument name, and no option --help does not print
  mentions    every --option named anywhere in a page is an option of migtrace or of a
              built-in workload (a renamed option leaves no stale mention)
  sections    every page has the sections a man page needs, and SEE ALSO names the others
  vocabulary  every short option has one meaning (one long name) in every command's --help,
              and migtrace(8)'s OPTION VOCABULARY table lists each with that name and the
              commands that have it
  completion  the completion's static lists (fallback commands, built-in workloads, option
              values) agree with the binary and the built workloads
Prints one line per problem; exit status 1 when there is any.
"""
import glob
import os
import re
import subprocess
import sys

HELP_OPT = re.compile(r'^  (?:-(\S), |    )--([A-Za-z0-9][-A-Za-z0-9]*)(?:=(\S+))?(?:\s|$)')
SECTIONS = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO']
SEE_ALSO_OTHERS = ['perf-sched(1)', 'bpftool(8)', 'sched(7)']
# options of other programs the pages run: `migtrace run -- ./server --port 8080`, setpriv's,
# bench.py's
FOREIGN_OPTIONS = {'port', 'bounding-set', 'report-only'}


def run_help(mt, *args):
    p = subprocess.run([mt, *args, '--help'], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit('%s %s --help: exit %d' % (mt, ' '.join(args), p.returncode))
    return p.stdout


def commands(mt):
    """The commands `migtrace --help` lists, in its order."""
    out, found = [], False
    for line in run_help(mt).splitlines():
        if line.startswith('Commands:'):
            found = True
        elif found:
            m = re.match(r'^  ([a-z][a-z-]*) ', line)
            if not m:
                break
            out.append(m.group(1))
    if not out:
        sys.exit('migtrace --help lists no commands')
    return out


def help_options(mt, cmd):
    """{long: (short or None, argument name or None, help text)} of `migtrace CMD --help`."""
    opts, last = {}, None
    for line in run_help(mt, cmd).splitlines():
        m = HELP_OPT.match(line)
        if m:
            last = m.group(2)
            opts[last] = (m.group(1), m.group(3), line[m.end():].strip())
        elif last and line.startswith(' ' * 20) and line.strip():
            s, a, text = opts[last]
            opts[last] = (s, a, text + ' ' + line.strip())
        else:
            last = None
    return opts


def unrst(s):
    """Text of reStructuredText inline markup: no **, *, escaped spaces or backslashes."""
    s = s.replace('\\ ', '').replace('**', '')
    s = re.sub(r'(?<!\\)\*', '', s)
    return s.replace('\\', '')


def page_lines(root, name):
    """The page source's lines; None when there is no such page (check_pages says so)."""
    try:
        with open(os.path.join(root, 'docs', 'man', name + '.rst'), encoding='utf-8') as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return None


def is_title(lines, i, bar='='):
    """Whether lines[i] is a section title: underlined with BAR, not overlined."""
    return bool(lines[i].strip()) and i + 1 < len(lines) and \
        re.fullmatch(re.escape(bar) + '+', lines[i + 1]) is not None and \
        len(lines[i + 1]) >= len(lines[i]) and \
        not (i > 0 and re.fullmatch(re.escape(bar) + '+', lines[i - 1]))


def titles(lines):
    return [lines[i] for i in range(len(lines)) if is_title(lines, i)]


def section(lines, title):
    """The lines of section TITLE (its title underlined with '=', up to the next)."""
    out, inside, i = [], False, 0
    while i < len(lines):
        if is_title(lines, i):
            inside = lines[i] == title
            i += 2
            continue
        if inside:
            out.append(lines[i])
        i += 1
    return out


def terms(body):
    """The terms of the definition lists in body: an unindented line over an indented one."""
    return [l for i, l in enumerate(body[:-1])
            if l and not l[0].isspace() and body[i + 1].startswith('    ')]


def man_options(lines):
    """{long: (short or None, argument or None)} of the terms in OPTIONS."""
    opts, problems = {}, []
    for tag in terms(section(lines, 'OPTIONS')):
        longs = re.findall(r'\*\*--([A-Za-z0-9][-A-Za-z0-9]*)\*\*', tag)
        if len(longs) != 1:
            problems.append('OPTIONS: a term that is not one option: %s' % tag)
            continue
        m = re.match(r'^\*\*-(\?|[A-Za-z0-9])\*\*, ', tag)
        a = re.search(r'\*\*\\ =\\ \*(.+?)\*$', tag)
        name = longs[0]
        if name in opts:
            problems.append('OPTIONS: --%s listed twice' % name)
        opts[name] = (m.group(1) if m else None, unrst(a.group(1)) if a else None)
    return opts, problems


def check_pages(mt, root):
    want = {'migtrace'} | {'migtrace-' + c for c in commands(mt)}
    have = {os.path.basename(p)[:-4] for p in glob.glob(os.path.join(root, 'docs/man/*.rst'))}
    return ['no page for %s' % n for n in sorted(want - have)] + \
        ['a page for no command: %s.rst' % n for n in sorted(have - want)]


def check_commands(mt, root):
    body = section(page_lines(root, 'migtrace') or [], 'COMMANDS')
    listed = [unrst(t) for t in terms(body)]
    want = commands(mt)
    problems = ['migtrace(8) COMMANDS lacks %s' % c for c in want if c not in listed]
    problems += ['migtrace(8) COMMANDS lists %s, which migtrace --help does not' % c
                 for c in listed if c not in want]
    if not problems and listed != want:
        problems.append('migtrace(8) COMMANDS is not in --help\'s order: %s' % ' '.join(listed))
    return problems


def check_options(mt, root):
    problems = []
    for cmd in commands(mt):
        page = 'migtrace-' + cmd
        helped = help_options(mt, cmd)
        lines = page_lines(root, page)
        if lines is None:
            problems.append('no page %s.rst' % page)
            continue
        documented, bad = man_options(lines)
        problems += ['%s: %s' % (page, b) for b in bad]
        for name, (short, arg, _) in helped.items():
            if name not in documented:
                problems.append('%s: --%s (migtrace %s --help) is not in OPTIONS' %
                                (page, name, cmd))
                continue
            mshort, marg = documented[name]
            if mshort != short:
                problems.append('%s: --%s: short option %s in the page, %s in --help' %
                                (page, name, mshort and '-' + mshort, short and '-' + short))
            if marg != arg:
                problems.append('%s: --%s: argument %s in the page, %s in --help' %
                                (page, name, marg, arg))
        for name in documented:
            if name not in helped:
                problems.append('%s: --%s is in OPTIONS but not in migtrace %s --help '
                                '(stale)' % (page, name, cmd))
    # migtrace(8): the options main() takes, each of which must work
    documented, bad = man_options(page_lines(root, 'migtrace') or [])
    problems += ['migtrace: %s' % b for b in bad]
    for name in documented:
        p = subprocess.run([mt, '--' + name], stdin=subprocess.DEVNULL, capture_output=True)
        if p.returncode != 0:
            problems.append('migtrace: --%s is in OPTIONS, but migtrace --%s exits %d' %
                            (name, name, p.returncode))
    return problems


def workload_options(root):
    """The long options the built-in workloads' usage names."""
    out = set()
    for wl in built_workloads(root):
        p = subprocess.run([os.path.join(root, '.output', 'workloads', wl), '--help'],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True)
        out |= set(re.findall(r'--([a-z][-a-z0-9]*)', p.stdout + p.stderr))
    return out


def built_workloads(root):
    d = os.path.join(root, '.output', 'workloads')
    names = sorted(n for n in os.listdir(d) if '.' not in n and
                   os.access(os.path.join(d, n), os.X_OK)) if os.path.isdir(d) else []
    if not names:
        sys.exit('no built workloads in %s: build first (make all)' % d)
    return names


def check_mentions(mt, root):
    known = {'help', 'version'} | workload_options(root) | FOREIGN_OPTIONS
    # the spellings kept one release, which migtrace(8) lists
    known |= set(re.findall(r'--([A-Za-z0-9][-A-Za-z0-9]*)', ' '.join(
        section(page_lines(root, 'migtrace') or [], 'DEPRECATED SPELLINGS'))))
    for cmd in commands(mt):
        known |= set(help_options(mt, cmd))
    problems = []
    for path in sorted(glob.glob(os.path.join(root, 'docs/man/*.rst'))):
        for n, line in enumerate(open(path, encoding='utf-8'), 1):
            for m in re.finditer(r'(?<![-\w])--([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9]))*)', line):
                if line[m.end():].startswith('\u2026'):
                    continue	# cut short in an excerpt
                name = m.group(1)
                if name not in known:
                    problems.append('%s:%d: --%s is an option of no migtrace command nor '
                                    'built-in workload' % (os.path.basename(path), n, name))
    return problems


def check_sections(mt, root):
    problems = []
    pages = ['migtrace'] + ['migtrace-' + c for c in commands(mt)]
    for page in pages:
        lines = page_lines(root, page)
        if lines is None:
            problems.append('no page %s.rst' % page)
            continue
        have = titles(lines)
        # NAME is rst2man's, from the title and the subtitle
        problems += ['%s: no %s section' % (page, s) for s in SECTIONS
                     if s != 'NAME' and s not in have]
        head = [l for l in lines if l.strip() and not l.startswith('..') and
                not l.startswith('   ')]
        if len(head) < 6 or head[1] != page or ':Manual section: 8' not in lines:
            problems.append('%s: the title is not %s, section 8' % (page, page))
        see = re.sub(r'\s+', '', unrst(' '.join(section(lines, 'SEE ALSO'))))
        for other in [p for p in pages if p != page] + SEE_ALSO_OTHERS:
            ref = other if '(' in other else other + '(8)'
            if ref not in see.replace(',', ''):
                problems.append('%s: SEE ALSO does not name %s' % (page, ref))
    return problems


def vocabulary_table(lines):
    """[(short, long, commands)] of the simple table in migtrace(8)'s OPTION VOCABULARY."""
    rows, borders = [], 0
    for line in section(lines, 'OPTION VOCABULARY'):
        if re.fullmatch(r'=+( +=+)+', line):
            borders += 1
            continue
        if borders == 2 and line.strip():
            cols = re.split(r'\s{2,}', line.strip())
            if len(cols) >= 3:
                rows.append((cols[0], cols[1], cols[-1].split()))
    return rows


def check_vocabulary(mt, root):
    problems, meaning = [], {}
    for cmd in commands(mt):
        for name, (short, _, _) in help_options(mt, cmd).items():
            if short:
                meaning.setdefault(short, {}).setdefault(name, []).append(cmd)
    for short, longs in sorted(meaning.items()):
        if len(longs) > 1:
            problems.append('-%s has %d meanings: %s' % (short, len(longs), '; '.join(
                '--%s in %s' % (n, ' '.join(c)) for n, c in sorted(longs.items()))))
    rows = vocabulary_table(page_lines(root, 'migtrace') or [])
    if not rows:
        return problems + ['migtrace(8): no OPTION VOCABULARY table']
    listed = {}
    for short, long_, cmds in rows:
        m = re.fullmatch(r'-(\S)', unrst(short))
        n = re.fullmatch(r'--([-A-Za-z0-9]+)(=\S+)?', unrst(long_))
        if not m or not n:
            problems.append('migtrace(8) OPTION VOCABULARY: not -X --NAME: %s %s' %
                            (short, long_))
            continue
        # "all": every command
        listed[m.group(1)] = (n.group(1), sorted(commands(mt) if cmds == ['all'] else cmds))
    for short, longs in sorted(meaning.items()):
        for name, cmds in longs.items():
            if short not in listed:
                problems.append('migtrace(8) OPTION VOCABULARY lacks -%s (--%s in %s)' %
                                (short, name, ' '.join(cmds)))
            elif listed[short] != (name, sorted(cmds)):
                problems.append('migtrace(8) OPTION VOCABULARY: -%s is --%s in %s there, '
                                '--%s in %s in --help' % (short, listed[short][0],
                                ' '.join(listed[short][1]), name, ' '.join(sorted(cmds))))
    problems += ['migtrace(8) OPTION VOCABULARY lists -%s, which no --help has' % s
                 for s in listed if s not in meaning]
    return problems


def check_completion(mt, root):
    text = open(os.path.join(root, 'contrib', 'bash-completion', 'migtrace')).read()
    problems = []

    def static(var):
        m = re.search(r'^%s="([^"]*)"$' % var, text, re.M)
        if not m:
            problems.append('completion: no %s' % var)
            return []
        return m.group(1).split()
    if static('_migtrace_commands_fallback') != commands(mt):
        problems.append('completion: _migtrace_commands_fallback is not migtrace --help\'s '
                        'list: %s' % ' '.join(commands(mt)))
    if static('_migtrace_workloads') != built_workloads(root):
        problems.append('completion: _migtrace_workloads is not the built-in workloads: %s'
                        % ' '.join(built_workloads(root)))
    helped = {}
    for cmd in commands(mt):
        for name, (short, arg, doc) in help_options(mt, cmd).items():
            helped.setdefault(name, []).append((short, arg, doc))
    # the options whose argument it completes in its own way, and their fixed values
    for m in re.finditer(r'^\t(--[-a-z]+)(?: \| (-\w))?\) ?(.*)$', text, re.M):
        name, short, body = m.group(1)[2:], m.group(2), m.group(3)
        if name not in helped:
            problems.append('completion: --%s is an option of no command' % name)
            continue
        if short and all(s != short[1:] for s, _, _ in helped[name]):
            problems.append('completion: --%s is not %s in any --help' % (name, short))
        v = re.match(r'_migtrace_reply "([^"$]*)"', body)
        for value in v.group(1).split() if v else []:
            if not any(re.search(r'\b%s\b' % re.escape(value), doc) for _, _, doc in
                       helped[name]):
                problems.append('completion: --%s %s: --help does not name that value' %
                                (name, value))
    return problems


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    mt, root, what = sys.argv[1:]
    checks = {'pages': check_pages, 'commands': check_commands, 'options': check_options,
              'mentions': check_mentions, 'sections': check_sections,
              'completion': check_completion, 'vocabulary': check_vocabulary}
    if what not in checks:
        sys.exit(__doc__)
    problems = checks[what](mt, root)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
