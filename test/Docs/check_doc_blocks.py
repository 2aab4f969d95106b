#!/usr/bin/env python3
"""Compiles the C and C++ code blocks of Markdown files, as printed.

Every fenced block whose language is c, cpp or c++ is compiled with the TLX
plugin; a block with a main function is also linked with the runtime and
run (exit status 0). A Markdown comment on the line before the fence
changes what is expected:

  <!-- doc-test: skip (why) -->        not compiled (an excerpt)
  <!-- doc-test: error "text" -->      the compile fails and prints "text"
  <!-- doc-test: warning "text" -->    it compiles and prints "text"
  <!-- doc-test: output "text" -->     the program prints "text"
  <!-- doc-test: plain -->             compiled without the plugin
  <!-- doc-test: flags "-O2 ..." -->   extra compiler flags

Several directives may share one comment. Usage:

  check_doc_blocks.py --cc "clang -fplugin=... -I..." --cxx "clang++ ..."
      --plain-cc "clang -I..." --rt "libtlxrt.a -lm" --out DIR FILE.md...
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

FENCE = re.compile(r"^(\s*)```+\s*([A-Za-z+]*)\s*$")
DIRECTIVE = re.compile(r"<!--\s*doc-test:(.*?)-->")
LANGS = {"c": "c", "cpp": "c++", "c++": "c++"}


def parse_directives(text):
    """'error "x" plain' -> {'error': 'x', 'plain': True}."""
    result = {}
    for match in re.finditer(r'(\w[\w-]*)(?:\s+"([^"]*)")?', text):
        key, value = match.group(1), match.group(2)
        if key == "skip":
            result["skip"] = True
            break  # the rest is the reason
        result[key] = value if value is not None else True
    return result


def blocks(path):
    """Yields (line, language, code, directives) for each C/C++ block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2).lower()
        start = i
        i += 1
        body = []
        while i < len(lines) and not FENCE.match(lines[i]):
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line)
            i += 1
        i += 1  # the closing fence
        if lang not in LANGS:
            continue
        prev = lines[start - 1] if start > 0 else ""
        d = DIRECTIVE.search(prev)
        yield start + 1, LANGS[lang], "\n".join(body) + "\n", (
            parse_directives(d.group(1)) if d else {})


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


def check(args, path, line, lang, code, d, index):
    name = "%s:%d" % (os.path.relpath(path, args.root), line)
    if d.get("skip"):
        return name, None, "skipped"
    ext = "c" if lang == "c" else "cpp"
    stem = "%s-%d" % (re.sub(r"\W", "_", os.path.basename(path)), line)
    src = os.path.join(args.out, stem + "." + ext)
    with open(src, "w", encoding="utf-8") as f:
        f.write(code)
    if d.get("plain"):
        cc = args.plain_cc
    else:
        cc = args.cc if lang == "c" else args.cxx
    cmd = shlex.split(cc) + shlex.split(d.get("flags") or "")
    if lang == "c++" and d.get("plain"):
        cmd += ["-x", "c++"]
    is_program = re.search(r"\bint\s+main\s*\(", code) is not None
    exe = os.path.join(args.out, stem)
    expect_error = d.get("error")
    if is_program and not expect_error:
        cmd += [src] + shlex.split(args.rt) + ["-o", exe]
    else:
        cmd += ["-c", src, "-o", os.path.join(args.out, stem + ".o")]
    r = run(cmd)
    out = r.stdout
    if expect_error:
        if r.returncode == 0:
            return name, False, "compiled, but an error was expected"
        if expect_error is not True and expect_error not in out:
            return name, False, "the error does not say %r:\n%s" % (
                expect_error, out)
        return name, True, "fails as documented"
    if r.returncode != 0:
        return name, False, "does not compile:\n%s\n%s" % (" ".join(cmd), out)
    warning = d.get("warning")
    if warning and warning is not True and warning not in out:
        return name, False, "no warning %r:\n%s" % (warning, out)
    if not is_program:
        return name, True, "compiles"
    r = run([exe])
    if r.returncode != 0:
        return name, False, "the program exits %d:\n%s" % (r.returncode,
                                                          r.stdout)
    expected = d.get("output")
    if expected and expected is not True and expected not in r.stdout:
        return name, False, "the program does not print %r:\n%s" % (
            expected, r.stdout)
    return name, True, "compiles and runs"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cc", required=True)
    p.add_argument("--cxx", required=True)
    p.add_argument("--plain-cc", required=True)
    p.add_argument("--rt", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--root", default=".")
    p.add_argument("files", nargs="+")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    counts = {True: 0, None: 0}
    for path in args.files:
        for index, (line, lang, code, d) in enumerate(blocks(path)):
            name, ok, why = check(args, path, line, lang, code, d, index)
            print("%s: %s" % (name, why if ok is not False else "FAILED: " + why))
            if ok is False:
                failed += 1
            else:
                counts[ok] += 1
    print("%d blocks checked, %d skipped, %d failed" % (counts[True],
                                                       counts[None], failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
