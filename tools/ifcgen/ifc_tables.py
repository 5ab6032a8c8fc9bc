#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Field tables of every mlx5_ifc.h layout, generated at build time.

Reads the mlx5_ifc.h of the kernel headers the build uses and writes a C++
source of prm::LayoutDesc / prm::FieldDesc tables (names, bit offsets, bit
widths: facts, no text of the header) plus the MLX5_CMD_OP_* opcodes, for
the CLI's generic decoder (tools/ifcgen/README.md says how they are used).
Nothing generated is committed: the tables always follow the header the
build found.

Naming (why): a field of a nested struct or union is flattened under a
dotted name (capability.cmd_hca_cap.log_max_qp), so the decoder, find_field
and raw --set need no recursion.  The nested member itself is also listed,
as a region of its whole size, just before its fields, so a hand layout that
declares it as one region (query_hca_cap_out.capability) can be checked
against it; the decoder skips such containers.  Array elements of a nested
array are name[i]; big arrays and flexible arrays ([0], []) are not
expanded (a flexible array has no size; it is listed nowhere).
reserved_* members count in the offsets but are not listed.

A field the decoder cannot read (a field of up to 32 bits crossing a
dword, 33..64 bits not in aligned dwords, a wider one not whole bytes) is
left out and counted: the decoder's reads assume the layout layer's rules.
"""
import argparse
import os
import re
import sys

# Expand a nested array element by element only up to this many fields in
# all (beyond, the array stays one region): keeps the tables small.
MAX_ARRAY_FIELDS = 256


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


class Header:
    """The parts of mlx5_ifc.h the tables need: layouts, constants, opcodes."""

    def __init__(self, text):
        text = strip_comments(text).replace("\\\n", " ")
        self.consts = {}
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+([^\n]+)$", text, re.M):
            self.consts[m.group(1)] = m.group(2).strip()
        self.opcodes = {}
        for body in re.findall(r"\benum\s*\w*\s*\{(.*?)\}", text, re.S):
            for m in re.finditer(r"(\w+)\s*=\s*([^,]+)", body):
                self.consts.setdefault(m.group(1), m.group(2).strip())
                if m.group(1).startswith("MLX5_CMD_OP_"):
                    self.opcodes[m.group(1)[len("MLX5_CMD_OP_"):]] = self.value(m.group(2))
        # name -> (kind, members); a member is (kind, type name or None,
        # name, dims).  Inline "union { ... } name;" members get a hidden
        # definition ("owner/name") that is not listed as a layout.
        self.defs = {}
        self.skipped = []
        pat = re.compile(r"\b(struct|union)\s+mlx5_ifc_(\w+?)(?:_bits)?\s*\{")
        pos = 0
        while True:
            m = pat.search(text, pos)
            if not m:
                break
            end = self.close(text, m.end())
            pos = end
            try:
                self.define(m.group(1), m.group(2), text[m.end():end - 1])
            except ValueError as e:
                # Not a PRM layout (a plain C struct such as the FPGA IPsec
                # command of older headers' mlx5_ifc_fpga.h): no table.
                self.skipped.append(str(e))
        self.sizes = {}

    @staticmethod
    def close(text, i):
        """The index just past the brace that closes the one before i."""
        depth = 1
        while depth:
            c = text[i]
            depth += (c == "{") - (c == "}")
            i += 1
        return i

    def define(self, kind, name, body):
        members = []
        i = 0
        while True:
            j = body.find(";", i)
            k = body.find("{", i)
            if j < 0:
                break
            if 0 <= k < j:  # an inline struct/union: "union { ... } name"
                end = self.close(body, k + 1)
                semi = body.index(";", end)
                inner_kind = body[i:k].split()[-1]
                mname = body[end:semi].strip()
                hidden = "%s/%s" % (name, mname)
                self.define(inner_kind, hidden, body[k + 1:end - 1])
                members.append((inner_kind, hidden, mname, []))
                i = semi + 1
                continue
            decl = " ".join(body[i:j].split())
            if decl:
                members.append(self.member(decl, name))
            i = j + 1
        self.defs[name] = (kind, members)

    def value(self, expr, depth=0):
        """An integer constant expression of literals and known names."""
        expr = expr.strip()
        if depth > 16:
            raise ValueError("constant too deep: " + expr)

        def name(m):
            return "(%d)" % self.value(self.consts[m.group(0)], depth + 1)
        expr = re.sub(r"\b[A-Za-z_]\w*\b", name, expr)
        expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", expr)
        if not re.fullmatch(r"[0-9a-fA-FxX()+\-*/<> |&\s]*", expr):
            raise ValueError("not a constant: " + expr)
        return int(eval(expr.replace("/", "//"), {"__builtins__": {}}))

    def member(self, decl, owner):
        m = re.fullmatch(r"DECLARE_FLEX_ARRAY\((struct|union) mlx5_ifc_(\w+?)(?:_bits)?, (\w+)\)", decl)
        if m:  # newer headers' spelling of a flexible array member
            return (m.group(1), m.group(2), m.group(3), [0])
        m = re.fullmatch(r"u8 (\w+)((?:\[[^]]*\])+)", decl)
        if m:
            dims = [d for d in re.findall(r"\[([^]]*)\]", m.group(2))]
            return ("u8", None, m.group(1), [self.dim(d) for d in dims])
        m = re.fullmatch(r"(struct|union) mlx5_ifc_(\w+?)(?:_bits)? (\w+)((?:\[[^]]*\])*)", decl)
        if m:
            dims = [self.dim(d) for d in re.findall(r"\[([^]]*)\]", m.group(4))]
            return (m.group(1), m.group(2), m.group(3), dims)
        raise ValueError("%s: cannot parse member '%s'" % (owner, decl))

    def dim(self, d):
        return 0 if not d.strip() else self.value(d)

    def size(self, name):
        """Bits of a layout: members summed (struct) or the widest (union)."""
        if name not in self.sizes:
            kind, members = self.defs[name]
            sizes = [self.member_bits(mb) for mb in members]
            self.sizes[name] = max(sizes, default=0) if kind == "union" else sum(sizes)
        return self.sizes[name]

    def member_bits(self, mb):
        kind, typ, _, dims = mb
        n = 1
        for d in dims:
            n *= d
        return n if kind == "u8" else n * self.size(typ)


def regular(off, w):
    """Whether the CLI's field_get/field_set can read it (layout.h's rules)."""
    if w <= 32:
        return off // 32 == (off + w - 1) // 32
    if w <= 64:
        return off % 32 == 0 and w % 32 == 0
    return off % 8 == 0 and w % 8 == 0


class Flattener:
    def __init__(self, hdr):
        self.hdr = hdr
        self.irregular = 0

    def fields(self, name, base=0, prefix=""):
        kind, members = self.hdr.defs[name]
        out = []
        off = base
        for mb in members:
            bits = self.hdr.member_bits(mb)
            at = base if kind == "union" else off
            self.member(mb, at, bits, prefix, out)
            if kind != "union":
                off += bits
        return out

    def add(self, out, name, off, w):
        if w == 0:
            return
        if not regular(off, w):
            self.irregular += 1
            return
        out.append((name, off, w))

    def member(self, mb, at, bits, prefix, out):
        kind, typ, name, dims = mb
        if name.startswith("reserved_") or bits == 0:
            return
        if not name:  # an anonymous union: its members belong to the owner
            out.extend(self.fields(typ, at, prefix))
            return
        full = prefix + name
        if kind == "u8":
            self.add(out, full, at, bits)
            return
        self.add(out, full, at, bits)
        if not dims:
            out.extend(self.fields(typ, at, full + "."))
            return
        count = bits // self.hdr.size(typ) if self.hdr.size(typ) else 0
        one = self.fields(typ, 0, "")
        if len(dims) != 1 or count * len(one) > MAX_ARRAY_FIELDS:
            return
        step = self.hdr.size(typ)
        for i in range(count):
            out.extend(self.fields(typ, at + i * step, "%s[%d]." % (full, i)))


def read_header(path):
    """The header and the mlx5_ifc_*.h it includes (mlx5_ifc_fpga.h has the
    FPGA capability layouts that hca_cap_union holds)."""
    text = open(path).read()
    for inc in re.findall(r'#\s*include\s*[<"](?:linux/mlx5/)?(mlx5_ifc_\w+\.h)[>"]', text):
        sib = os.path.join(os.path.dirname(path), inc)
        if os.path.exists(sib):
            text += "\n" + open(sib).read()
    return text


def linux_version(path):
    m = re.search(r"linux-headers-(\d[^/]*?)-common", path or "")
    return m.group(1) if m else ""


def selection_names(path):
    """The core's layouts: those of its selection (prm/layouts.sel), the
    list its layouts_gen.h is generated from (core_layouts.py); and which of
    them the selection places itself (size=: no upstream header has them)."""
    import core_layouts  # here: it imports this module's parser
    layouts = core_layouts.read_selection(path)
    return [lay.name for lay in layouts], [lay.name for lay in layouts if lay.size is not None]


def core_opcodes(path):
    """The PRM names of the rows of CXPRM_OPCODES (the metadata table)."""
    with open(path) as f:
        text = f.read()
    m = re.search(r"#define CXPRM_OPCODES\(X, N\)(.*?)\n\n", text, re.S)
    text = m.group(1) if m else ""
    return set(re.findall(r"\bX\((\w+), 0x[0-9a-fA-F]+", text)) | set(
        re.findall(r"\bN\(\w+, \"(\w+)\"", text))


# Names in the header's opcode enum that are no commands: GENERAL_START/
# GENERAL_END bound the general-command range (GENERAL_START shares 0xb00
# with SYNC_STEERING), and MOD_UPDATE_HEADER_MODIFY_ARGUMENT (6.12 on) is an
# op_mod value.  The tables mark them (Opcode::command), the coverage line
# leaves them out.
NOT_COMMANDS = ("GENERAL_START", "GENERAL_END", "MOD_UPDATE_HEADER_MODIFY_ARGUMENT")


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def emit(out, hdr, flat, header_path, layouts, opcodes):
    w = out.write
    w("// Generated by tools/ifcgen/ifc_tables.py from %s: do not edit or commit.\n" % header_path)
    w('#include "ifc_tables.h"\n\nnamespace cxprm::ifc {\n\nnamespace {\n\n')
    for i, (name, size, fields) in enumerate(layouts):
        if fields:
            w("const prm::FieldDesc f%d[] = {\n" % i)
            for fn, off, fw in fields:
                w("\t{%s, %d, %d},\n" % (cstr(fn), off, fw))
            w("};\n")
    w("\n// Sorted by name, for the binary search of find_layout().\n")
    w("const prm::LayoutDesc kLayouts[] = {\n")
    for i, (name, size, fields) in enumerate(layouts):
        w("\t{%s, %d, %s, %d},\n" % (cstr(name), size, "f%d" % i if fields else "nullptr",
                                      len(fields)))
    w("\t{nullptr, 0, nullptr, 0},\n};\n")
    w("const Opcode kOpcodes[] = {\n")
    for name, value in opcodes:
        w("\t{%s, 0x%x, %s},\n" % (cstr(name), value, "false" if name in NOT_COMMANDS else "true"))
    w("\t{nullptr, 0, false},\n};\n\n} // namespace\n\n")
    # extern: a namespace-scope const is internal otherwise.
    w("extern const Source kSource = {%s, %s, %d, %d};\n" % (
        cstr(header_path), cstr(linux_version(header_path)), len(layouts), len(opcodes)))
    w("extern const prm::LayoutDesc *const kLayoutTable = kLayouts;\n")
    w("extern const Opcode *const kOpcodeTable = kOpcodes;\n\n} // namespace cxprm::ifc\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--header", help="mlx5_ifc.h (none: empty tables)")
    ap.add_argument("--out", required=True, help="the C++ source to write")
    ap.add_argument("--select", help="core prm/layouts.sel, for the coverage line")
    ap.add_argument("--opcodes", help="core prm/opcodes.h, for the coverage line")
    a = ap.parse_args()

    hdr = Header(read_header(a.header) if a.header else "")
    flat = Flattener(hdr)
    layouts = []
    odd = []
    for name in sorted(n for n in hdr.defs if "/" not in n):
        try:
            size = hdr.size(name)
            fields = flat.fields(name)
        except KeyError as e:  # holds a layout that could not be parsed
            hdr.skipped.append("%s: uses %s" % (name, e))
            continue
        layouts.append((name, size, fields))
        if size % 32:
            odd.append(name)
    opcodes = sorted(((n, v) for n, v in hdr.opcodes.items() if n != "MAX"),
                     key=lambda x: (x[1], x[0]))
    tmp = a.out + ".tmp"
    with open(tmp, "w") as out:
        emit(out, hdr, flat, a.header or "", layouts, opcodes)
    os.replace(tmp, a.out)

    names = {n for n, _, _ in layouts}
    with_io = sum(1 for n, _ in opcodes if n.lower() + "_in" in names and n.lower() + "_out" in names)
    parsed = len(layouts) + sum(1 for s in hdr.skipped if ": uses " in s)
    line = "ifc tables: %d layouts (%d%% of the header's), %d opcodes (%d with _in and _out layouts) from %s" % (
        len(layouts), 100 * len(layouts) // max(parsed, 1), len(opcodes), with_io,
        a.header or "(no mlx5_ifc.h found)")
    if linux_version(a.header):
        line += " (Linux %s)" % linux_version(a.header)
    if a.select:
        core, placed = selection_names(a.select)
        vendor = [n for n in core if n not in names]
        line += "; the core's selection names %d layouts (%d not in the header, %d placed by the selection)" % (
            len(core), len(vendor), len(placed))
    if a.opcodes:
        known = core_opcodes(a.opcodes)
        commands = [n for n, _ in opcodes if n not in NOT_COMMANDS]
        have = sum(1 for n in commands if n in known)
        line += "; the core's metadata table names %d opcodes, %d of the header's %d commands (%d%%)" % (
            len(known), have, len(commands), 100 * have // max(len(commands), 1))
    print(line)
    print("ifc tables: %d fields; %d layouts not a multiple of 32 bits (%s); %d irregular fields "
          "left out; %d definitions not PRM layouts" % (
              sum(len(f) for _, _, f in layouts), len(odd), " ".join(odd) or "-", flat.irregular,
              len(hdr.skipped)))


if __name__ == "__main__":
    main()
