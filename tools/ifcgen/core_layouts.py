#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The core's PRM layouts, generated from a selection and mlx5_ifc.h.

PROTOTYPE (tools/ifcgen/CORE-LAYOUTS-PLAN.md): the core names in a
selection file (data: which layouts, which fields, the core's name for a
field the header names otherwise, explicit places only where a header
lacks one) and this writes the CXPRM_LAYOUT() header the prm/*.h files
hold by hand today: one X-list per layout (CXPRM_<LAYOUT>, the names the
core's sources use), the registry list CXPRM_LAYOUTS(X) and the
flexible-array tails (Tail<>), offsets and widths taken from the header.
The header is parsed by ifc_tables.py's parser (Header, Flattener).

Selection file, one entry per layout (a line; an indented line continues
it; '#' starts a comment):

  LAYOUT [ATTR ...]: FIELD ...

  FIELD
    name                 the header's field of that name
    name=a.b|c           the core's name for the header's (dotted) field a.b,
                         or c where the header has no a.b (renames)
    name@0x10:0x10       explicit bit offset and width: a vendor field, a bit
                         the header leaves reserved, or one an older header
                         lacks or places otherwise.  With a header field of
                         the name (or =path), the place is compared: the
                         explicit one wins, and --report says so.
  ATTR
    size=0x800           explicit size in bits (a layout the header lacks)
    tail:NAME=path       using NAME = Tail<LAYOUT, bits of one entry of the
                         flexible array path, e.g. pas or ctx.wq.pas>
    tail:NAME@0x40       the same with the entry size given

Every field is resolved against the header (or its explicit place); a
field neither the header has nor an explicit place gives is an error, as
is a layout the header lacks without size=.  The output is sorted by
offset, as CXPRM_LAYOUT's checks want.

  core_layouts.py --select SEL --header mlx5_ifc.h --out layouts_gen.h
  core_layouts.py --select SEL --report H1 [H2 ...]   (what each header lacks)
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ifc_tables  # noqa: E402  (the parser; no second one)


class SelError(Exception):
    pass


def num(s):
    return int(s, 0)


class Field:
    def __init__(self, tok):
        m = re.fullmatch(r"(\w+)(?:=([\w.\[\]|]+))?(?:@(0x[0-9a-fA-F]+|\d+):(0x[0-9a-fA-F]+|\d+))?", tok)
        if not m:
            raise SelError("bad field spec '%s'" % tok)
        self.name = m.group(1)
        self.paths = m.group(2).split("|") if m.group(2) else [self.name]
        self.pin = (num(m.group(3)), num(m.group(4))) if m.group(3) else None


class Layout:
    def __init__(self, name, attrs, fields, line):
        self.name, self.fields, self.line = name, fields, line
        self.size = None
        self.tails = []  # (name, path or None, bits or None)
        for a in attrs:
            if a.startswith("size="):
                self.size = num(a[5:])
                continue
            m = re.fullmatch(r"tail:(\w+)(?:=([\w.]+))?(?:@(0x[0-9a-fA-F]+|\d+))?", a)
            if not m or not (m.group(2) or m.group(3)):
                raise SelError("line %d: bad attribute '%s'" % (line, a))
            self.tails.append((m.group(1), m.group(2), num(m.group(3)) if m.group(3) else None))


def read_selection(path):
    entries = []
    text = ""
    starts = []
    for no, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line[0].isspace():
            if not starts:
                raise SelError("line %d: continuation without a layout" % no)
            text += " " + line.strip()
        else:
            if starts:
                entries.append((starts[-1], text))
            starts.append(no)
            text = line.strip()
    if starts:
        entries.append((starts[-1], text))
    layouts = []
    seen = set()
    for no, t in entries:
        # The layout's ':' is the first one followed by a blank or the end.
        m = re.match(r"(.*?):(?:\s|$)(.*)", t)
        head, body = (m.group(1), m.group(2)) if m else ("", "")
        if not m:
            raise SelError("line %d: no ':' after the layout" % no)
        words = head.split()
        if not words or words[0] in seen:
            raise SelError("line %d: no or duplicate layout name" % no)
        seen.add(words[0])
        try:
            fields = [Field(tok) for tok in body.split()]
        except SelError as e:
            raise SelError("line %d: %s" % (no, e))
        layouts.append(Layout(words[0], words[1:], fields, no))
    return layouts


class Source:
    """A parsed mlx5_ifc.h: sizes and flattened fields of every layout."""

    def __init__(self, path):
        self.path = path
        self.hdr = ifc_tables.Header(ifc_tables.read_header(path))
        self.flat = ifc_tables.Flattener(self.hdr)
        self.cache = {}

    def layout(self, name):
        if name not in self.cache:
            if name not in self.hdr.defs:
                self.cache[name] = None
            else:
                try:
                    fields = self.flat.fields(name)
                    self.cache[name] = (self.hdr.size(name), {n: (o, w) for n, o, w in fields})
                except KeyError:
                    self.cache[name] = None
        return self.cache[name]

    def flex_entry_bits(self, layout, path):
        """(offset, entry bits) of the flexible array member at dotted path."""
        name, off = layout, 0
        parts = path.split(".")
        for i, part in enumerate(parts):
            kind, members = self.hdr.defs[name]
            at = 0
            for mb in members:
                mkind, typ, mname, dims = mb
                bits = self.hdr.member_bits(mb)
                if mname == part:
                    if i == len(parts) - 1:
                        if not dims or dims[0] != 0:
                            return None
                        inner = 1
                        for d in dims[1:]:
                            inner *= d
                        return off + at, inner if mkind == "u8" else inner * self.hdr.size(typ)
                    if dims:
                        return None
                    name, off = typ, off + at
                    break
                if kind != "union":
                    at += bits
            else:
                return None
        return None


def resolve(lay, src, notes):
    """[(name, off, width)] sorted, the size and the tails of one layout."""
    have = src.layout(lay.name) if src else None
    if have is None and lay.size is None:
        raise SelError("%s: not in %s and no size=" % (lay.name, src.path if src else "(no header)"))
    size = lay.size if lay.size is not None else have[0]
    if have is not None and lay.size is not None and have[0] != lay.size:
        notes.append(("size", lay.name, "", "explicit 0x%x, header 0x%x" % (lay.size, have[0])))
    hf = have[1] if have else {}
    out = []
    for f in lay.fields:
        got = next(((p, hf[p]) for p in f.paths if p in hf), None)
        if f.pin:
            if got is None:
                notes.append(("pinned", lay.name, f.name, "not in header"))
            elif got[1] != f.pin:
                notes.append(("differs", lay.name, f.name, "explicit 0x%x %d, header %s 0x%x %d" % (
                    f.pin[0], f.pin[1], got[0], got[1][0], got[1][1])))
            elif got[0] != f.name:
                notes.append(("renamed", lay.name, f.name, "header " + got[0]))
            out.append((f.name,) + f.pin)
            continue
        if got is None:
            raise SelError("%s.%s: not in %s (give name=path or name@off:width)" % (
                lay.name, f.name, src.path if src else "(no header)"))
        if got[0] != f.name:
            notes.append(("renamed", lay.name, f.name, "header " + got[0]))
        out.append((f.name,) + got[1])
    out.sort(key=lambda x: x[1])
    for a, b in zip(out, out[1:]):
        if a[1] + a[2] > b[1]:
            raise SelError("%s: %s and %s overlap" % (lay.name, a[0], b[0]))
    tails = []
    for tname, path, bits in lay.tails:
        got = src.flex_entry_bits(lay.name, path) if (src and have and path) else None
        if got is not None and got[0] != size:
            raise SelError("%s: tail %s at bit 0x%x, not at the end (0x%x)" % (lay.name, path, got[0], size))
        if bits is None and got is None:
            raise SelError("%s: tail %s: no flexible array %s in the header" % (lay.name, tname, path))
        if bits is not None and got is not None and got[1] != bits:
            notes.append(("differs", lay.name, tname, "explicit %d, header %d" % (bits, got[1])))
        if bits is None:
            bits = got[1]
        elif got is None:
            notes.append(("pinned", lay.name, tname, "tail not in header"))
        tails.append((tname, bits))
    return out, size, tails


def macro(name):
    return "CXPRM_" + name.upper()


def emit(w, sel_path, src, resolved, namespace):
    w("/* Generated by tools/ifcgen/core_layouts.py from %s and %s: do not edit or commit. */\n" % (
        sel_path, src.path if src else "(no header)"))
    w("#pragma once\n\n#include <cxprm/layout.h>\n#include <cxprm/prm/tail.h>\n\n")
    w("namespace %s {\n\n" % namespace)
    for name, fields, size, tails in resolved:
        m = macro(name)
        if fields:
            w("#define %s(F) \\\n" % m)
            w(" \\\n".join("\tF(%s, 0x%x, 0x%x)" % f for f in fields) + "\n")
        else:
            w("#define %s(F)\n" % m)
        w("CXPRM_LAYOUT(%s, 0x%x, %s)\n" % (name, size, m))
        for tname, bits in tails:
            w("using %s = Tail<%s, 0x%x>;\n" % (tname, name, bits))
        w("\n")
    w("/* X(layout, field X-list) for every layout, in the selection's order. */\n")
    w("#define CXPRM_LAYOUTS(X) \\\n")
    w(" \\\n".join("\tX(%s, %s)" % (n, macro(n)) for n, _, _, _ in resolved) + "\n\n")
    w("/* X(layout, tail) for every flexible-array tail. */\n#define CXPRM_TAILS(X)")
    tl = [(n, t) for n, _, _, tails in resolved for t, _ in tails]
    w(" \\\n" + " \\\n".join("\tX(%s, %s)" % x for x in tl) + "\n" if tl else "\n")
    w("\n} // namespace %s\n" % namespace)


def generate(a):
    layouts = read_selection(a.select)
    src = Source(a.header) if a.header else None
    notes = []
    resolved = []
    for lay in layouts:
        fields, size, tails = resolve(lay, src, notes)
        resolved.append((lay.name, fields, size, tails))
    tmp = a.out + ".tmp"
    with open(tmp, "w") as out:
        emit(out.write, a.select, src, resolved, a.namespace)
    os.replace(tmp, a.out)
    kinds = {}
    for k, *_ in notes:
        kinds[k] = kinds.get(k, 0) + 1
    print("core layouts: %d layouts, %d fields, %d tails from %s%s" % (
        len(resolved), sum(len(f) for _, f, _, _ in resolved), sum(len(t) for *_, t in resolved),
        a.header, "".join("; %d %s" % (v, k) for k, v in sorted(kinds.items()))))
    for k, lay, f, why in notes:
        if k == "differs":
            print("core layouts: %s.%s: %s" % (lay, f, why))


def report(a):
    """What each header lacks or places otherwise, per selected field; a
    field without an explicit place is compared with the reference header
    (--reference, default the first one)."""
    layouts = read_selection(a.select)
    ref = Source(a.reference or a.report[0])
    for path in a.report:
        src = Source(path)
        print("== %s (Linux %s)" % (path, ifc_tables.linux_version(path)))
        absent = [lay.name for lay in layouts if src.layout(lay.name) is None]
        print("layouts not in the header (%d): %s" % (len(absent), " ".join(absent) or "-"))
        for lay in layouts:
            have = src.layout(lay.name)
            if have is None:
                continue
            hf = have[1]
            rf = (ref.layout(lay.name) or (0, {}))[1]
            for f in lay.fields:
                got = next(((p, hf[p]) for p in f.paths if p in hf), None)
                want = f.pin or next((rf[p] for p in f.paths if p in rf), None)
                if got is not None and not f.pin and want is not None and got[1] != want:
                    print("  moved    %s.%s: reference 0x%x %d, header %s 0x%x %d" % (
                        lay.name, f.name, want[0], want[1], got[0], got[1][0], got[1][1]))
                    continue
                if got is None:
                    print("  absent   %s.%s%s" % (lay.name, f.name, " (explicit @0x%x:%d)" % f.pin if f.pin else ""))
                elif f.pin and got[1] != f.pin:
                    print("  differs  %s.%s: explicit 0x%x %d, header %s 0x%x %d" % (
                        lay.name, f.name, f.pin[0], f.pin[1], got[0], got[1][0], got[1][1]))
                elif got[0] != f.name:
                    print("  renamed  %s.%s = %s" % (lay.name, f.name, got[0]))
            if lay.size is not None and have[0] != lay.size:
                print("  size     %s: explicit 0x%x, header 0x%x" % (lay.name, lay.size, have[0]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--select", required=True, help="the selection file")
    ap.add_argument("--header", help="mlx5_ifc.h")
    ap.add_argument("--out", help="the header to write")
    ap.add_argument("--namespace", default="cxprm::prm")
    ap.add_argument("--report", nargs="+", metavar="HEADER", help="list what each header lacks")
    ap.add_argument("--reference", metavar="HEADER", help="--report: the header whose places count")
    a = ap.parse_args()
    try:
        if a.report:
            report(a)
        elif a.out:
            generate(a)
        else:
            ap.error("--out or --report")
    except SelError as e:
        sys.exit("core_layouts: " + str(e))


if __name__ == "__main__":
    main()
