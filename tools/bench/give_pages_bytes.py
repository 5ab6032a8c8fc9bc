#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Bytes the driver side writes for one MANAGE_PAGES(GIVE) of 2^18 pages.

   give_pages_bytes.py [--check] DHAT_ONE DHAT_TWO PAGES

DHAT_ONE / DHAT_TWO: `valgrind --tool=dhat` output of `cxprm-bench --count
pages 1` and `... 2`.  DHAT counts, per heap allocation site, every byte
written into blocks allocated there; the difference between the two runs
is what one more (steady-state: mailbox chains already grown) GIVE writes.
Counted: every heap block the core or its host allocated (the command
input, the mailbox chains, the queue page, ...).  Not counted: blocks the
emulator allocated (a frame in cxprm::emu::), the benchmark's own list of
page addresses (count_mode: the caller's input), stack buffers (the
16-byte inline output).  The emulator's writes into driver blocks (the
64-byte queue entry, 16 bytes of inline output) are in, at most 80 bytes.
Prints the total, the floor and the ratio, and the sites.  The floor is
the mailbox format's: each 512 data bytes (64 entries of 8 bytes) travel
in a 576-byte block, 9.00 bytes a page, each byte stored once.  --check:
exit 1 unless the mailbox chain's bytes are exactly that (the CTest
page_mailbox_bytes).
"""
import json
import sys


def sites(path, calloc_sites=None):
    d = json.load(open(path))
    ft = d["ftbl"]
    out = {}
    for pp in d["pps"]:
        frames = [ft[i] for i in pp["fs"]]
        if any("cxprm::emu::" in f for f in frames):
            continue
        names = [f.split(": ", 1)[-1].split(" (in ")[0] for f in frames[1:]]
        # The caller's page list (allocated in count_mode, before any frame
        # of the core or its host), and the lock the emulator's DMA takes.
        caller = next((i for i, n in enumerate(names) if "count_mode" in n or n.startswith("main")), None)
        core = next((i for i, n in enumerate(names) if n.startswith("cxprm::")), None)
        if caller is not None and (core is None or caller < core):
            continue
        if any(n.startswith("cxprm::hosted::UserHost::UserHost") for n in names):
            continue
        # A site is named by its first frame outside the host's allocators.
        name = next((n for n in names if not n.startswith(("cxprm::hosted::UserHost::dma_alloc",
                                                            "cxprm::hosted::HostBase::mem_alloc",
                                                            "cxprm::hosted::", "std::", "operator new"))),
                    names[0] if names else frames[0])
        name = name.replace("(anonymous namespace)::", "").split("(")[0]
        if calloc_sites is not None and any("HostBase::mem_alloc" in n for n in names):
            calloc_sites[name] = calloc_sites.get(name, 0) + pp.get("tb", 0)
        out[name] = out.get(name, 0) + pp.get("wb", 0)
    return out


def main():
    args = sys.argv[1:]
    check = args[:1] == ["--check"]
    if check:
        args = args[1:]
    c1, c2 = {}, {}
    one, two, pages = sites(args[0], c1), sites(args[1], c2), int(args[2])
    diff = {k: two.get(k, 0) - one.get(k, 0) for k in set(one) | set(two)}
    diff = {k: v for k, v in diff.items() if v}
    total = sum(diff.values())
    blocks = (pages * 8 + 511) // 512
    floor = 576 * blocks
    for k, v in sorted(diff.items(), key=lambda kv: -kv[1]):
        print(f"  {v:>10}  {v / pages:6.2f} B/page  written into blocks allocated by {k}")
    # mem_alloc is calloc: DHAT does not see calloc's zeroing as writes.
    zeroed = sum(c2.values()) - sum(c1.values())
    print(f"  {zeroed:>10}  {zeroed / pages:6.2f} B/page  calloc'd by mem_alloc (zeroing not seen by DHAT;"
          " glibc skips it for fresh mmap'd blocks)")
    print(f"pages-bytes written {total} ({total / pages:.2f} B/page) floor {floor} ({floor / pages:.2f} B/page:"
          f" {blocks} blocks of 576 B) ratio {total / floor:.3f} (with calloc zeroing {(total + zeroed) / floor:.3f})")
    chain = diff.get("cxprm::MailboxChain::reserve", 0)
    if check and chain != floor:
        print(f"FAIL: the mailbox chain took {chain} bytes ({chain / pages:.2f} B/page), the floor is {floor}"
              f" ({floor / pages:.2f}): a byte stored twice, or one too few")
        sys.exit(1)


if __name__ == "__main__":
    main()
