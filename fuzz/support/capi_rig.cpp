// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "capi_rig.h"

#include <cstring>

#include "fuzz_input.h"

#include "uapi/linux/cxprm.h"

namespace cxprm::fuzz {

Rig::Rig()
{
	FUZZ_CHECK(cxprm_core_create(dev.host(), &core) == 0);
	cxprm_core_config cfg{};
	cfg.cmd_timeout_ns = 20ull * 1000 * 1000;
	FUZZ_CHECK(cxprm_core_bringup(core, &cfg) == 0);
	cxprm_core_events_config ec{}; // the EQ and UAR CQs and QPs need
	FUZZ_CHECK(cxprm_core_events_start(core, &ec) == 0);
	// What stays until events stop or the teardown, made here while the
	// emulator answers, so that each input's memory balances and the
	// zeroed answers below never describe it: the completion EQ (the
	// first CQ makes it) and RoCE (roce_cap read, roce_en, the default
	// GIDs: the first DCT sets them up).
	cxprm_core_objs *t = nullptr;
	FUZZ_CHECK(cxprm_core_objs_create(core, &t) == 0);
	cxprm_obj o[3] = {};
	o[0].type = CXPRM_OBJ_PD;
	o[1].type = CXPRM_OBJ_CQ;
	o[1].u.cq.log_size = 2;
	o[2].type = CXPRM_OBJ_SRQ;
	o[2].u.srq.log_size = 2;
	o[2].u.srq.log_stride = 2;
	for (int i = 0; i < 3; i++) {
		if (i == 2)
			o[2].u.srq.pd = o[0].id;
		FUZZ_CHECK(cxprm_core_ioc_obj(core, CXPRM_IOC_OBJ_CREATE, t, &o[i]) == 0 &&
			   !o[i].st.status);
	}
	cxprm_dctc k{};
	k.pd = o[0].id;
	k.cqn = o[1].id;
	k.srqn_xrqn = o[2].id;
	k.port = 1;
	k.mtu = 5;
	cxprm_u32 dctn = 0;
	cxprm_core_result res;
	FUZZ_CHECK(cxprm_core_dct_create(core, &k, &dctn, &res) == 0 && !res.st.status);
	FUZZ_CHECK(cxprm_core_dct_destroy(core, dctn, &res) == 0);
	FUZZ_CHECK(cxprm_core_objs_destroy(core, t, nullptr) == 0);
	// Brought up by the emulator; then the minimal firmware these checks
	// assume: every command succeeds with a zeroed output.
	dev.handler = FakeHost::answer_ok_zeroed;
	dev.model = false;
}

Rig &rig()
{
	static Rig *r = new Rig;
	return *r;
}

namespace {

int user_in(void *ctx, void *dst, cxprm_u64 ua, cxprm_size n)
{
	uint8_t *p = ((UserCall *)ctx)->at(ua, n);
	if (!p)
		return -14;
	std::memcpy(dst, p, n);
	return 0;
}

int user_out(void *ctx, cxprm_u64 ua, const void *src, cxprm_size n)
{
	uint8_t *p = ((UserCall *)ctx)->at(ua, n);
	if (!p)
		return -14;
	std::memcpy(p, src, n);
	return 0;
}

int user_allowed(void *ctx, int priv)
{
	const UserCall *u = (const UserCall *)ctx;
	return priv == CXPRM_CORE_PRIV_ADMIN ? u->admin : priv == CXPRM_CORE_PRIV_RAW_WRITE && u->raw_write;
}

} // namespace

const cxprm_core_caller_ops UserCall::ops = {user_in, user_out, user_allowed, nullptr};

cxprm_core_file &rig_file()
{
	static cxprm_core_file file = [] {
		cxprm_core_file f{};
		const cxprm_host *h = rig().dev.host();
		f.obj_lock = h->ops->lock_create(h->ctx);
		return f;
	}();
	return file;
}

} // namespace cxprm::fuzz
