#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""ifc_tables.py on synthetic_ifc.h: offsets, nesting, unions, arrays,
reserved members, constants and the emitted C++ (run by CTest)."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ifc_tables  # noqa: E402

SYN = os.path.join(HERE, "synthetic_ifc.h")


class Synthetic(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.hdr = ifc_tables.Header(ifc_tables.read_header(SYN))
        cls.flat = ifc_tables.Flattener(cls.hdr)

    def fields(self, name):
        return {n: (o, w) for n, o, w in self.flat.fields(name)}

    def test_sizes(self):
        self.assertEqual(self.hdr.size("syn_pair"), 32)
        self.assertEqual(self.hdr.size("syn_short"), 32)   # a struct without _bits
        self.assertEqual(self.hdr.size("syn_choice"), 64)  # union: its widest member
        # 0x20 + 0x20 + pair 0x20 + choice 0x40 + small 0x20 + table 0x20
        # + items 3 * 0x20 + inline_u 0x20 + odd 0x30 + 0x10 + tail 0
        self.assertEqual(self.hdr.size("syn_query_in"), 0x1a0)
        self.assertEqual(self.hdr.size("syn_query_out"), 0x20)

    def test_scalars_and_reserved(self):
        f = self.fields("syn_query_in")
        self.assertEqual(f["opcode"], (0, 16))
        self.assertEqual(f["straddle"], (0x28, 16))
        self.assertFalse([n for n in f if "reserved" in n])

    def test_nested_struct_and_union(self):
        f = self.fields("syn_query_in")
        self.assertEqual(f["pair"], (0x40, 32))          # the container
        self.assertEqual(f["pair.hi"], (0x40, 16))
        self.assertEqual(f["pair.lo"], (0x50, 16))
        self.assertEqual(f["choice"], (0x60, 64))
        self.assertEqual(f["choice.pair.lo"], (0x70, 16))  # alternatives overlap
        self.assertEqual(f["choice.wide"], (0x60, 64))
        self.assertEqual(f["small.nibble"], (0xbc, 4))
        self.assertEqual(f["inline_u.a.hi"], (0x140, 16))
        self.assertEqual(f["inline_u.b"], (0x140, 32))

    def test_arrays(self):
        f = self.fields("syn_query_in")
        self.assertEqual(f["table"], (0xc0, 32))          # u8 [4][0x8]: one region
        self.assertEqual(f["items"], (0xe0, 96))          # count from a #define
        self.assertEqual(f["items[2].lo"], (0x130, 16))
        self.assertNotIn("tail", f)                       # flexible: no size
        self.assertNotIn("odd", f)                        # irregular: left out
        self.assertEqual(self.fields("syn_query_out"), {"status": (0, 8)})

    def test_opcodes(self):
        self.assertEqual(self.hdr.opcodes["SYN_QUERY"], 0x901)
        self.assertEqual(self.hdr.opcodes["SYN_SET"], 0x902)

    def test_emitted_source(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "t.cpp")
            r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "ifc_tables.py"),
                                "--header", SYN, "--out", out], capture_output=True, text=True,
                               check=True)
            self.assertIn("ifc tables: 5 layouts (100% of the header's), 2 opcodes (1 with _in and _out "
                          "layouts)", r.stdout)
            text = open(out).read()
            # The coverage of the core's metadata table: its rows against the
            # header's commands (range markers left out).
            opc = os.path.join(d, "opcodes.h")
            with open(opc, "w") as f:
                f.write("#define CXPRM_OPCODES(X, N) \\\n"
                        "\tX(SYN_QUERY, 0x901, R, syn_query_in, syn_query_out, LAYOUT) \\\n"
                        "\tX(OTHER, 0x903, W, none, none, LAYOUT)\n\n"
                        "#define CXPRM_EVENTS(X) \\\n\tX(SYN_SET, 0x01)\n\n")
            r = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "ifc_tables.py"),
                                "--header", SYN, "--out", out, "--opcodes", opc], capture_output=True,
                               text=True, check=True)
            self.assertIn("the core's metadata table names 2 opcodes, 1 of the header's 2 commands (50%)",
                          r.stdout)
        self.assertIn('{"pair.lo", 80, 16},', text)
        self.assertLess(text.index('{"syn_choice", 64'), text.index('{"syn_query_in", 416'))
        self.assertIn('{"SYN_QUERY", 0x901, true},', text)  # a command, not a range marker
        self.assertNotIn("MAX", text)


if __name__ == "__main__":
    unittest.main()
