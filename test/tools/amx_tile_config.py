#!/usr/bin/env python3
"""Checks x86 assembly: every AMX tile register a function uses after an
ldtilecfg is one that configuration gives rows (its palette's row count at
byte 48 + i, as LLVM's tile configuration writes it with movb before the
ldtilecfg: a constant above 0, or a register - a row count computed at run
time). Prints each function that breaks this and exits 1: such code
dies of SIGILL on the hardware.

usage: amx_tile_config.py FILE.s [...]"""
import re
import sys

LABEL = re.compile(r'^([\w.$]+):')
ROW_STORE = re.compile(r'movb\s+(\$\d+|%\w+), (-?\d*)\((%rsp|%rbp)\)')
LDTILECFG = re.compile(r'ldtilecfg\s+(-?\d*)\((%rsp|%rbp)\)')
TILE = re.compile(r'%tmm(\d)')


def check_function(name, body):
    """The problems of one function's lines, as strings."""
    stores, configs, used = {}, [], set()
    for line in body:
        if m := ROW_STORE.search(line):
            rows = m.group(1)
            stores[(m.group(3), int(m.group(2) or 0))] = (
                rows.startswith('%') or int(rows[1:]) > 0)
        if m := LDTILECFG.search(line):
            base, reg = int(m.group(1) or 0), m.group(2)
            configs.append({t for t in range(8)
                            if stores.get((reg, base + 48 + t), False)})
        used.update(int(t) for t in TILE.findall(line))
    problems = []
    for configured in configs:
        missing = sorted(used - configured)
        if missing:
            problems.append('%s: uses tmm%s, which its ldtilecfg does not '
                            'configure (configured: %s)' %
                            (name, ', tmm'.join(map(str, missing)),
                             ', '.join('tmm%d' % t for t in sorted(configured))))
    return problems


def main(paths):
    problems, checked = [], 0
    for path in paths:
        name, body = None, []
        for line in open(path).read().split('\n') + ['END:']:
            m = LABEL.match(line)
            if m and not line.startswith('.'):
                if name and any('ldtilecfg' in l for l in body):
                    checked += 1
                    problems += check_function(name, body)
                name, body = m.group(1), []
            else:
                body.append(line)
    for p in problems:
        print(p)
    print('%d functions with ldtilecfg checked, %d problems' %
          (checked, len(problems)))
    return 1 if problems or not checked else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
