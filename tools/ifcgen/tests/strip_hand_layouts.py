#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Prototype check (../CORE-LAYOUTS-PLAN.md): a copy of prm/*.h with the
hand-written layouts taken out -- every X-list macro "#define NAME(F...)",
every CXPRM_LAYOUT(...) line, every "using ... = Tail<...>;", registry.h's
CXPRM_LAYOUTS -- and the generated header included in their place: what the
prm/ headers would hold once the layouts are generated.

  strip_hand_layouts.py SRC_PRM_DIR DST_PRM_DIR GENERATED_HEADER
"""
import os
import re
import shutil
import sys

src, dst, gen = sys.argv[1:4]
os.makedirs(dst, exist_ok=True)
shutil.copy(gen, os.path.join(dst, "layouts_gen.h"))
for name in sorted(os.listdir(src)):
    if not name.endswith(".h"):
        continue
    lines = open(os.path.join(src, name)).read().split("\n")
    out = []
    skip = False
    for ln in lines:
        if skip:
            skip = ln.rstrip().endswith("\\")
            continue
        if re.match(r"#define \w+\(F[,)]", ln) or ln.startswith("#define CXPRM_LAYOUTS(X)"):
            skip = ln.rstrip().endswith("\\")
            continue
        if re.match(r"CXPRM_LAYOUT\(", ln) or re.match(r"using \w+ = Tail<", ln):
            continue
        out.append(ln)
    text = "\n".join(out)
    if name not in ("tail.h", "layouts_gen.h"):
        text = text.replace("#pragma once\n", '#pragma once\n\n#include "layouts_gen.h"\n', 1)
    text = re.sub(r"\n{3,}", "\n\n", text)
    open(os.path.join(dst, name), "w").write(text)
