/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the engine's KUnit suites share (engine_kt.cpp, engine_faults_kt.cpp):
 * a command queue (cmdq.h) on the in-kernel loopback device (loopback.h),
 * the buffers its cases send and receive, and the steps every case takes
 * (bring up, run one command, check the answer, tear down with every DMA
 * buffer back).
 */
#pragma once

#include "kt.h"
#include "loopback.h"

#include "cxprm/cmdq.h"
#include "cxprm/prm/transport.h"

namespace cxprm::kt::eng {

constexpr u64 MS = 1000 * 1000;
constexpr u32 MAXLEN = 16 + 8 * 512;
constexpr u32 THREADS = 8;
constexpr u32 PER_THREAD = 100;
constexpr u32 TLEN = 16 + 2 * 300;
constexpr u16 OPCODE = 0x123;

struct EngEnv : Placement {
	kunit *t;
	Loopback lb;
	Health health;
	Cmdq q{health};
	u8 in[MAXLEN];
	u8 out[MAXLEN];
	u8 blocks[4 * prm::MAILBOX_SIZE];
	/* concurrent_commands */
	u8 tin[THREADS][TLEN];
	u8 tout[THREADS][TLEN];
	u32 tfail[THREADS];
	u32 tbad[THREADS];
};

/* Timeout as given, 100 ms slot wait, signatures verified (the loopback signs). */
CmdqConfig config(u64 timeout_ms);

/*
 * A zeroed, constructed EngEnv, nothing started.  Out of line, so that its
 * constructor (its Health, the Cmdq that refers to it) is emitted in one
 * object only: a COMDAT copy in two objects links with a .return_sites
 * entry into the discarded one.
 */
EngEnv *make_env(kunit *t);

/* A loopback and a queue on it; null (and a failed check) if not. */
EngEnv *start_with(kunit *t, const CmdqConfig &cfg, u32 log_size = 5, bool sign_inputs = true);
EngEnv *start(kunit *t, u64 timeout_ms = 50, u32 log_size = 5);

/* Frees the queue; every DMA buffer must be back. */
void stop(kunit *t, EngEnv *e);

/* One command of the loopback's pattern (seed) into e->out, pre-filled with 0xee. */
int run(EngEnv *e, u32 inlen, u32 outlen, CmdResult *res = nullptr, u32 seed = 1, u32 flags = 0,
	u16 opcode = OPCODE);

/* e->out is the loopback's answer to e->in. */
bool answered(EngEnv *e, u32 inlen, u32 outlen);

u64 elapsed_ms(u64 t0);

} // namespace cxprm::kt::eng
