#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The core's PRM layouts, generated from a selection and mlx5_ifc.h.

The core names in a selection file (core-cpp/include/cxprm/prm/layouts.sel:
which layouts, which fields, the core's name for a field the header names
otherwise, explicit places only where a header lacks one) and this writes
the CXPRM_LAYOUT() header the prm/*.h files include (layouts_gen.h): one
X-list per layout (CXPRM_<LAYOUT>, the names the core's sources use), the
registry list CXPRM_LAYOUTS(X) and the flexible-array tails (Tail<>),
offsets and widths taken from the header.  The header is parsed by
ifc_tables.py's parser (Header, Flattener).  Nothing it writes is
committed (tools/ifcgen/README.md).

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

  core_layouts.py --select SEL [--header H] --out layouts_gen.h [--xcheck X.h]
  core_layouts.py --select SEL [--header H] --check   (resolve, write nothing)
  core_layouts.py --find-header                        (print the default header)
  core_layouts.py --select SEL --report H1 [H2 ...]   (what each header lacks)

The header: --header, else $CXPRM_IFC_HEADER, else the newest of the
host's /usr/src/linux-headers-*-common/include/linux/mlx5/mlx5_ifc.h
(version order: 6.12 after 6.1).  The one rule for every build: CMake
(cmake/ifc_header.cmake) and the module's helper (gen-core-layouts.sh)
both ask --find-header.  Linux 6.1 is the oldest header the selection
resolves against.
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ifc_tables  # noqa: E402  (the parser; no second one)


class SelError(Exception):
    pass


HEADER_GLOB = "/usr/src/linux-headers-*-common/include/linux/mlx5/mlx5_ifc.h"
# What to do when no header resolves the selection (configure, make module).
NEED = ("the core's layouts need mlx5_ifc.h of Linux 6.1 or newer on the building host: "
        "install linux-headers-amd64 (Debian bookworm or newer; make deps does), "
        "or point CXPRM_IFC_HEADER at one")


def version_key(path):
    """Natural order of the headers' versions: 6.12 after 6.1 and 6.9."""
    v = re.search(r"linux-headers-(\d[^/]*?)-common", path)
    return [(0, int(t), "") if t.isdigit() else (1, 0, t)
            for t in re.findall(r"\d+|[^\d]+", v.group(1) if v else "")] + [(2, 0, path)]


def find_header():
    """--header's default: $CXPRM_IFC_HEADER, else the newest host header."""
    env = os.environ.get("CXPRM_IFC_HEADER")
    if env:
        return env
    found = sorted(glob.glob(HEADER_GLOB), key=version_key)
    return found[-1] if found else None


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
    ver = ifc_tables.linux_version(src.path) if src else ""
    w("/* Generated by tools/ifcgen/core_layouts.py from %s and %s%s: do not edit or commit. */\n" % (
        os.path.basename(sel_path), src.path if src else "(no header)", " (Linux %s)" % ver if ver else ""))
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


def write_file(path, text, if_changed):
    """Write path through a temporary; with if_changed, leave an equal file
    (and its mtime: the module's objects depend on it) alone."""
    if if_changed and os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    # Its own temporary: one build runs the rule once (target
    # cxprm_layouts_gen), but `make layouts` and a build may still run
    # together, and a shared name would let one writer's replace take the
    # file from under the other's.
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as out:
        out.write(text)
    os.replace(tmp, path)


def cstr(s):
    return '"' + s + '"'


def emit_xcheck(w, layouts):
    """ifc_crosscheck's view of the selection (core-cpp/tests/ifc): what
    the selection places itself (the layout with size=, the field with
    @OFF:WIDTH, the tail with @BITS: a header may lack them or place them
    otherwise, deliberately), the header paths of the fields it names
    otherwise (name=path|path, first found wins) and the tails' flexible
    arrays."""
    w("/* Generated by tools/ifcgen/core_layouts.py --xcheck: do not edit or commit. */\n")
    w("#pragma once\n\n/* X(\"layout\" or \"layout.field\"): placed by the selection. */\n")
    w("#define CXPRM_XCHECK_EXPLICIT(X)")
    ex = [lay.name for lay in layouts if lay.size is not None]
    ex += ["%s.%s" % (lay.name, f.name) for lay in layouts if lay.size is None
           for f in lay.fields if f.pin]
    ex += ["%s.%s[]" % (lay.name, p) for lay in layouts if lay.size is None
           for _, p, b in lay.tails if b is not None and p]
    w("".join(" \\\n\tX(%s)" % cstr(e) for e in ex) + "\n\n")
    w("/* X(layout, field, header path): the header's names of a field named otherwise. */\n")
    w("#define CXPRM_XCHECK_PATHS(X)")
    w("".join(" \\\n\tX(%s, %s, %s)" % (lay.name, f.name, p) for lay in layouts
              for f in lay.fields if f.paths != [f.name] for p in f.paths) + "\n\n")
    w("/* X(layout, header path of the flexible array, tail). */\n#define CXPRM_XCHECK_TAILS(X)")
    w("".join(" \\\n\tX(%s, %s, %s)" % (lay.name, p, t) for lay in layouts
              for t, p, _ in lay.tails if p) + "\n")


def generate(a):
    layouts = read_selection(a.select)
    src = Source(a.header) if a.header else None
    notes = []
    resolved = []
    for lay in layouts:
        try:
            fields, size, tails = resolve(lay, src, notes)
        except SelError as e:
            raise SelError("%s\n%s" % (e, NEED))
        resolved.append((lay.name, fields, size, tails))
    if a.check:
        return
    text = []
    emit(text.append, a.select, src, resolved, a.namespace)
    write_file(a.out, "".join(text), a.if_changed)
    if a.xcheck:
        text = []
        emit_xcheck(text.append, layouts)
        write_file(a.xcheck, "".join(text), a.if_changed)
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
    ap.add_argument("--select", help="the selection file")
    ap.add_argument("--header", help="mlx5_ifc.h (default: --find-header's)")
    ap.add_argument("--find-header", action="store_true", help="print the default header")
    ap.add_argument("--out", help="the header to write")
    ap.add_argument("--xcheck", help="also write ifc_crosscheck's lists here")
    ap.add_argument("--check", action="store_true", help="resolve the selection, write nothing")
    ap.add_argument("--if-changed", action="store_true", help="leave equal outputs untouched")
    ap.add_argument("--namespace", default="cxprm::prm")
    ap.add_argument("--report", nargs="+", metavar="HEADER", help="list what each header lacks")
    ap.add_argument("--reference", metavar="HEADER", help="--report: the header whose places count")
    a = ap.parse_args()
    if a.find_header:
        h = find_header()
        if not h:
            sys.exit("core_layouts: no %s\n%s" % (HEADER_GLOB, NEED))
        print(h)
        return
    if not a.select:
        ap.error("--select is needed")
    if not a.report:
        a.header = a.header or find_header()
        if not a.header or not os.path.isfile(a.header):
            sys.exit("core_layouts: no mlx5_ifc.h (%s)\n%s" % (a.header or HEADER_GLOB, NEED))
    try:
        if a.report:
            report(a)
        elif a.out or a.check:
            generate(a)
        else:
            ap.error("--out, --check or --report")
    except SelError as e:
        sys.exit("core_layouts: " + str(e))


if __name__ == "__main__":
    main()
