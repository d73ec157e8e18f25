#!/usr/bin/env python3
"""Writes po/wundercast.pot, the template of wundercastctl's messages, from the Swift sources.

xgettext cannot read Swift, so this finds the marked strings itself: in Sources/**/*.swift,
outside comments, the string literal (one, without interpolation) that is the first argument of
  .tr("…")            a message              (UserLocale.tr)
  .trn("…", "…", n)   singular and plural    (UserLocale.trn)
  .trp("ctx", "…")    a message in a context (UserLocale.trp; msgctxt)
  N_("…")             a message in a table   (WundercastSupport.N_)
  NP_("ctx", "…")     the same in a context  (WundercastSupport.NP_)
Messages are listed in the order first found (files sorted by path), each with the files it is
in; the output has no date, so it changes only when a message does.

  python3 po/extract.py            prints the template (make pot writes po/wundercast.pot)
  make po-update                   then merges it into every po/<lang>.po (msgmerge)

Tests/WundercastFormatsTests/CatalogTests.swift checks that the template is up to date.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LITERAL = r'"((?:[^"\\\n]|\\.)*)"'
PATTERNS = [
    ("single", re.compile(r"\.tr\(\s*" + LITERAL)),
    ("plural", re.compile(r"\.trn\(\s*" + LITERAL + r"\s*,\s*" + LITERAL)),
    ("context", re.compile(r"\.trp\(\s*" + LITERAL + r"\s*,\s*" + LITERAL)),
    ("single", re.compile(r"(?<![A-Za-z0-9_])N_\(\s*" + LITERAL)),
    ("context", re.compile(r"(?<![A-Za-z0-9_])NP_\(\s*" + LITERAL + r"\s*,\s*" + LITERAL)),
]


def without_comments(text):
    """The text with // and /* */ comments blanked (string literals kept; newlines kept)."""
    out, i, n = [], 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"' or c == "\n":
                in_string = False
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        else:
            if c == '"':
                in_string = True
            out.append(c)
            i += 1
    return "".join(out)


def unescape(literal, where):
    if "\\(" in literal:
        sys.exit(f"{where}: a message cannot interpolate: write {{name}} and pass the value ({literal})")
    out, i = [], 0
    while i < len(literal):
        c = literal[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = literal[i + 1]
        if e == "u":
            close = literal.index("}", i)
            out.append(chr(int(literal[i + 3:close], 16)))
            i = close + 1
            continue
        out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "0": "\0"}[e])
        i += 2
    return "".join(out)


def po_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def messages():
    """(context, msgid) → {"plural": str|None, "files": [path…]}, in order found."""
    found = {}
    paths = []
    for base, _, names in os.walk(os.path.join(ROOT, "Sources")):
        paths += [os.path.join(base, name) for name in names if name.endswith(".swift")]
    for path in sorted(paths):
        relative = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            code = without_comments(f.read())
        hits = []
        for kind, pattern in PATTERNS:
            for match in pattern.finditer(code):
                line = code.count("\n", 0, match.start()) + 1
                where = f"{relative}:{line}"
                groups = [unescape(g, where) for g in match.groups()]
                if kind == "single":
                    hits.append((match.start(), (None, groups[0]), None, where))
                elif kind == "plural":
                    hits.append((match.start(), (None, groups[0]), groups[1], where))
                else:
                    hits.append((match.start(), (groups[0], groups[1]), None, where))
        for _, key, plural, where in sorted(hits, key=lambda h: h[0]):
            entry = found.setdefault(key, {"plural": plural, "files": []})
            if entry["plural"] != plural:
                sys.exit(f"{where}: {key[1]!r} is used both with and without (or with another) plural")
            if relative not in entry["files"]:
                entry["files"].append(relative)
    return found


def main():
    out = [
        "# wundercastctl's messages: the template of po/<lang>.po, written by po/extract.py (make pot).",
        "# The msgids are the English texts; {name} is a value filled in after translation (keep it,",
        "# in any order); {n} is the count of a plural.",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: wundercast\\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"',
    ]
    for (context, msgid), entry in messages().items():
        out.append("")
        out += [f"#: {path}" for path in entry["files"]]
        if context is not None:
            out.append("msgctxt " + po_string(context))
        out.append("msgid " + po_string(msgid))
        if entry["plural"] is not None:
            out += ["msgid_plural " + po_string(entry["plural"]), 'msgstr[0] ""', 'msgstr[1] ""']
        else:
            out.append('msgstr ""')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
