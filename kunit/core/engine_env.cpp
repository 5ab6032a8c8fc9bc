// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The engine suites' shared steps (engine_env.h).
#include "engine_env.h"

#include "cxprm/errors.h"

namespace cxprm::kt::eng {

CmdqConfig config(u64 timeout_ms)
{
	CmdqConfig c;

	c.timeout_ns = timeout_ms * MS;
	c.slot_wait_ns = 100 * MS;
	/* The loopback signs like firmware with checksums on. */
	c.verify_signatures = true;
	return c;
}

EngEnv *make_env(kunit *t)
{
	return make<EngEnv>(t);
}

EngEnv *start_with(kunit *t, const CmdqConfig &cfg, u32 log_size, bool sign_inputs)
{
	EngEnv *e = make_env(t);

	if (!KT_EXPECT(t, e != nullptr))
		return nullptr;
	e->t = t;
	e->lb.init(t, log_size);
	e->lb.check_input_signatures = sign_inputs;
	if (!KT_EXPECT_EQ(t, e->q.init(e->lb.host(), cfg), OK)) {
		e->lb.fini();
		return nullptr;
	}
	return e;
}

EngEnv *start(kunit *t, u64 timeout_ms, u32 log_size)
{
	return start_with(t, config(timeout_ms), log_size);
}

void stop(kunit *t, EngEnv *e)
{
	e->lb.set_gone(false);
	e->q.fini();
	KT_EXPECT_EQ(t, e->lb.dma_live(), 0);
	e->lb.fini();
}

int run(EngEnv *e, u32 inlen, u32 outlen, CmdResult *res, u32 seed, u32 flags, u16 opcode)
{
	make_input(e->in, inlen, opcode, 0, seed);
	for (u32 i = 0; i < outlen; i++)
		e->out[i] = 0xee;
	return e->q.exec(e->in, inlen, e->out, outlen, res, flags);
}

bool answered(EngEnv *e, u32 inlen, u32 outlen)
{
	return answer_ok(e->in, inlen, e->out, outlen);
}

u64 elapsed_ms(u64 t0)
{
	return (cxprm_kt_now_ns() - t0) / MS;
}

} // namespace cxprm::kt::eng
