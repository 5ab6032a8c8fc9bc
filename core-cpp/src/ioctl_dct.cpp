// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The DCT ioctls (CXPRM_IOC_DCT_CREATE/QUERY/DRAIN/DESTROY, capi_ioctl.h)
 * on a file's DCT table: which DCTs the file made, which are busy, which
 * the firmware lost.  CREATE, QUERY and DRAIN are one command each, in
 * the three steps of ioctl_posted.h, so a batch can post them
 * (ioctl_batch_posted.cpp); DESTROY is three (cmd::destroy_dct_drained).
 */
#include "cxprm/capi.h"

#include "cxprm/commands/dct.h"
#include "cxprm/errors.h"
#include "cxprm/types.h"

#include "capi_core.h"
#include "capi_uapi.h"
#include "ioctl_posted.h"

using namespace cxprm;

namespace {

void lock(cxprm_core_dcts *t)
{
	if (t->lock)
		t->lock(t);
}

void unlock(cxprm_core_dcts *t)
{
	if (t->unlock)
		t->unlock(t);
}

/* Index of dctn in the table, or -1 (t locked; claimed: capi::table_find). */
int dcts_find(const cxprm_core_dcts *t, u32 dctn, bool claimed = false)
{
	return capi::table_find(
		t->n, [&](u32 i) { return t->dctn[i] == dctn; }, [&](u32 i) { return t->busy[i] != 0; },
		claimed);
}

/* Whether dctn is a DCT of t the firmware lost; take: and forget it (t locked). */
bool dcts_lost(cxprm_core_dcts *t, u32 dctn, bool take)
{
	for (u32 i = 0; i < t->lost_n; i++) {
		if (t->lost[i] != dctn)
			continue;
		if (take)
			t->lost[i] = t->lost[--t->lost_n];
		return true;
	}
	return false;
}

/*
 * Before a DCT ioctl's command, under t's lock: a lost DCT is -ESTALE
 * (DESTROY forgets it); CREATE keeps room for its DCT; DRAIN and DESTROY
 * need the DCT in t (only the file that created a DCT may drain or
 * destroy it) and mark it busy.
 */
int dct_claim(cxprm_core_dcts *t, unsigned int cmd, u32 dctn)
{
	if (cmd == CXPRM_IOC_DCT_CREATE) {
		if (t->n + t->pending >= CXPRM_CORE_FILE_MAX_DCTS)
			return E_NOSPC;
		t->pending++;
		return OK;
	}
	int idx = dcts_find(t, dctn);
	if (idx < 0 && dcts_lost(t, dctn, cmd == CXPRM_IOC_DCT_DESTROY))
		return E_STALE;
	if (cmd == CXPRM_IOC_DCT_QUERY)
		return OK;
	if (idx < 0)
		return E_NOENT;
	if (t->busy[idx])
		return E_BUSY;
	t->busy[idx] = 1;
	return OK;
}

/* After the command (err: its result), under t's lock. */
void dct_release(cxprm_core_dcts *t, unsigned int cmd, u32 dctn, int err)
{
	if (cmd == CXPRM_IOC_DCT_CREATE) {
		t->pending--;
		if (err)
			return;
		dcts_lost(t, dctn, true); /* the number is the new DCT's now */
		t->busy[t->n] = 0;
		t->dctn[t->n++] = dctn;
		return;
	}
	int idx = dcts_find(t, dctn, true);
	if (cmd == CXPRM_IOC_DCT_QUERY || idx < 0)
		return;
	t->busy[idx] = 0;
	if (cmd == CXPRM_IOC_DCT_DESTROY && !err) {
		t->n--;
		t->dctn[idx] = t->dctn[t->n];
		t->busy[idx] = t->busy[t->n];
	}
}

/* The command of a claimed CREATE, QUERY or DRAIN into m; E_INVAL when it cannot be built. */
int dct_build(cxprm_core *c, unsigned int cmd, cxprm_dct *d, capi::PostedCmd *m)
{
	switch (cmd) {
	case CXPRM_IOC_DCT_CREATE:
		d->dctn = 0;
		m->inlen = prm::create_dct_in::size_bytes;
		m->outlen = cmd::out_size<prm::create_dct_out>();
		return capi::dct_create_prepare(c, &d->ctx, m->in, &m->r, &m->op);
	case CXPRM_IOC_DCT_QUERY:
		m->op = prm::op::QUERY_DCT;
		m->inlen = prm::query_dct_in::size_bytes;
		m->outlen = cmd::out_size<prm::query_dct_out>();
		return cmd::encode_query_dct(m->in, d->dctn);
	case CXPRM_IOC_DCT_DRAIN:
		m->op = prm::op::DRAIN_DCT;
		m->inlen = prm::drain_dct_in::size_bytes;
		m->outlen = cmd::out_size<prm::drain_dct_out>();
		return cmd::encode_drain_dct(m->in, d->dctn);
	default: /* DESTROY: three commands, run by cxprm_core_ioc_dct */
		m->inlen = 0;
		return OK;
	}
}

} // namespace

namespace cxprm::capi {

bool dct_postable(unsigned int cmd)
{
	return cmd == CXPRM_IOC_DCT_CREATE || cmd == CXPRM_IOC_DCT_QUERY || cmd == CXPRM_IOC_DCT_DRAIN;
}

int dct_begin(cxprm_core *c, unsigned int cmd, cxprm_core_dcts *t, cxprm_dct *d, PostedCmd *m)
{
	m->op = 0;
	m->r = {};
	m->claimed = false;
	if (!t)
		return E_INVAL;
	int err = cxprm_core_typed_check(cmd, d);
	if (err)
		return err;
	if (!cxprm_core_ioc_is_dct(cmd))
		return E_NOTTY;
	lock(t);
	err = dct_claim(t, cmd, d->dctn);
	unlock(t);
	if (err) {
		if (err == E_STALE)
			d->ctx = {}, d->st = {};
		return err;
	}
	m->claimed = true;
	return dct_build(c, cmd, d, m);
}

int dct_end(unsigned int cmd, cxprm_core_dcts *t, cxprm_dct *d, PostedCmd *m, int err)
{
	if (!m->claimed)
		return err;
	if (cmd == CXPRM_IOC_DCT_CREATE && !err)
		err = cmd::decode_create_dct(m->out, m->outlen, &d->dctn, nullptr);
	cmd::DctContext k{};
	if (cmd == CXPRM_IOC_DCT_QUERY && !err)
		err = cmd::decode_query_dct(m->out, m->outlen, &k);
	if (cmd == CXPRM_IOC_DCT_QUERY && !err)
		uapi::dctc_to_uapi(k, &d->ctx);
	else
		d->ctx = {}; /* a query that failed decoded nothing; the others return none */
	lock(t);
	dct_release(t, cmd, d->dctn, err);
	unlock(t);
	/* m->r stays zero while m->op is 0 (nothing sent): st all zeros. */
	uapi::copy_status(&d->st, m->r, m->op);
	return ioc_ret(err);
}

} // namespace cxprm::capi

extern "C" {

int cxprm_core_ioc_dct(cxprm_core *c, unsigned int cmd, cxprm_core_dcts *t, cxprm_dct *d)
{
	capi::PostedCmd m;
	int err = capi::dct_begin(c, cmd, t, d, &m);
	if (!err && m.inlen)
		err = c->dev.cmdq().exec(m.in, m.inlen, m.out, m.outlen, &m.r);
	else if (!err) {
		err = cxprm_core_dct_destroy(c, d->dctn, &m.r);
		m.op = m.r.st.opcode;
	}
	return capi::dct_end(cmd, t, d, &m, err);
}

int cxprm_core_ioc_is_dct(unsigned int cmd)
{
	return cmd == CXPRM_IOC_DCT_CREATE || cmd == CXPRM_IOC_DCT_QUERY ||
	       cmd == CXPRM_IOC_DCT_DRAIN || cmd == CXPRM_IOC_DCT_DESTROY;
}

int cxprm_core_dcts_pop(cxprm_core_dcts *t, cxprm_u32 *dctn)
{
	int found = 0;
	lock(t);
	if (t->n) {
		*dctn = t->dctn[--t->n];
		found = 1;
	}
	unlock(t);
	return found;
}

} // extern "C"
