// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Writes the seed corpus of every fuzz target (fuzz/corpus/<target>/):
// small valid inputs built with the core's layouts (prm::set on real
// command outputs, inputs, event payloads, ioctl requests), plus edge
// cases (boundary lengths, counts beyond the bytes, refused requests,
// faults).  Each file is the input format its target reads (see the
// comment at the top of fuzz/targets/<target>.cpp).
//
//   fuzz_make_seeds DIR     (tools/fuzz/run.sh --seeds: DIR = fuzz/corpus)
#include <cstdio>

#include "seed_bytes.h"

using namespace cxprm::seeds;

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 1;
	}
	g_root = argv[1];
	decoders();
	cmdq();
	eq();
	ioctl();
	cli();
	return 0;
}
