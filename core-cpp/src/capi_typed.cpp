// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The typed query ioctls as the one PRM command each of them is (capi.h,
 * "typed queries as commands"): what a transport that carries PRM
 * commands but not cxprm's ioctls -- fwctl, in the tool -- needs to give
 * the same answers as the driver.  The argument checks are the ioctls'
 * own (ioctl.cpp calls cxprm_core_typed_check too), the inputs come from
 * the typed commands' encoders and the outputs go through their decoders
 * and the same UAPI copies (capi_uapi.h).
 */
#include "cxprm/capi.h"

#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/errors.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/transport.h"

#include "capi_uapi.h"

using namespace cxprm;

namespace {

bool dct_reserved(const cxprm_dct &d)
{
	return d.reserved || d.ctx.reserved0 || d.ctx.reserved1[0] || d.ctx.reserved1[1] ||
	       d.ctx.reserved1[2];
}

/* st of a command that was delivered: the output's status and syndrome. */
void set_status(cxprm_cmd_status *st, u16 opcode, const void *out)
{
	CmdResult r{};
	r.st.status = cmd::out_status(out);
	r.st.syndrome = cmd::out_syndrome(out);
	uapi::copy_status(st, r, opcode);
}

} // namespace

extern "C" {

int cxprm_core_typed_check(unsigned int cmd, const void *arg)
{
	if (!arg)
		return E_INVAL;
	switch (cmd) {
	case CXPRM_IOC_QUERY_CAPS: {
		auto *k = (const cxprm_caps *)arg;
		return k->reserved0 || k->reserved1 || k->max > 1 ? E_INVAL : OK;
	}
	case CXPRM_IOC_NVMF_NS:
		return ((const cxprm_nvmf_ns *)arg)->reserved ? E_INVAL : OK;
	case CXPRM_IOC_ESW_FUNCTIONS: {
		auto *e = (const cxprm_esw_functions *)arg;
		return e->reserved0 || e->reserved1 ? E_INVAL : OK;
	}
	case CXPRM_IOC_DCT_CREATE:
	case CXPRM_IOC_DCT_QUERY:
	case CXPRM_IOC_DCT_DRAIN:
	case CXPRM_IOC_DCT_DESTROY:
		return dct_reserved(*(const cxprm_dct *)arg) ? E_INVAL : OK;
	default:
		return E_NOTTY;
	}
}

int cxprm_core_typed_encode(unsigned int cmd, const void *arg, void *in, cxprm_u32 in_cap,
			    cxprm_u32 *inlen, cxprm_u32 *outlen)
{
	if (!in || !inlen || !outlen)
		return E_INVAL;
	int err = cxprm_core_typed_check(cmd, arg);
	if (err)
		return err;
	if (in_cap < CXPRM_CORE_TYPED_IN_MAX)
		return E_INVAL;
	u8 *b = (u8 *)in;
	switch (cmd) {
	case CXPRM_IOC_QUERY_CAPS: {
		auto *k = (const cxprm_caps *)arg;
		err = cmd::encode_query_hca_cap(b, k->cap_type, k->max ? prm::cap::MAX : prm::cap::CUR);
		*inlen = prm::query_hca_cap_in::size_bytes;
		*outlen = prm::query_hca_cap_out::size_bytes;
		break;
	}
	case CXPRM_IOC_NVMF_NS: {
		auto *n = (const cxprm_nvmf_ns *)arg;
		err = cmd::encode_query_nvmf_namespace(b, n->xrqn, n->nsid);
		*inlen = prm::query_nvmf_namespace_in::size_bytes;
		*outlen = cmd::out_size<prm::query_nvmf_namespace_out>();
		break;
	}
	case CXPRM_IOC_ESW_FUNCTIONS:
		*outlen = cmd::encode_query_esw_functions(b, CXPRM_ESW_MAX_SF_WORDS);
		*inlen = prm::query_esw_functions_in::size_bytes;
		break;
	case CXPRM_IOC_DCT_QUERY:
		err = cmd::encode_query_dct(b, ((const cxprm_dct *)arg)->dctn);
		*inlen = prm::query_dct_in::size_bytes;
		*outlen = cmd::out_size<prm::query_dct_out>();
		break;
	default: /* DCT create/drain/destroy make or change objects: not queries */
		return E_NOTTY;
	}
	return err == E_RANGE ? E_INVAL : err;
}

int cxprm_core_typed_decode(unsigned int cmd, void *arg, const void *out, cxprm_u32 outlen)
{
	if (!arg || !out || outlen < prm::INLINE_BYTES)
		return E_INVAL;
	bool ok = cmd::out_status(out) == 0;
	switch (cmd) {
	case CXPRM_IOC_QUERY_CAPS: {
		auto *k = (cxprm_caps *)arg;
		mem_zero(k->caps, sizeof(k->caps));
		const u8 *image = nullptr;
		if (ok && cmd::decode_query_hca_cap(out, outlen, &image) == OK)
			mem_copy(k->caps, image, sizeof(k->caps));
		else if (ok)
			return E_PROTO;
		set_status(&k->st, prm::op::QUERY_HCA_CAP, out);
		return OK;
	}
	case CXPRM_IOC_NVMF_NS: {
		auto *n = (cxprm_nvmf_ns *)arg;
		u32 xrqn = n->xrqn, nsid = n->nsid;
		cmd::NvmfNsCounters k{};
		if (ok && cmd::decode_query_nvmf_namespace(out, outlen, &k) != OK)
			return E_PROTO;
		*n = {};
		n->xrqn = xrqn;
		n->nsid = nsid;
		if (ok)
			uapi::copy_nvmf_ns(n, k);
		set_status(&n->st, prm::op::QUERY_NVMF_NAMESPACE_CONTEXT, out);
		return OK;
	}
	case CXPRM_IOC_ESW_FUNCTIONS: {
		auto *e = (cxprm_esw_functions *)arg;
		cmd::EswFunctions f{};
		u64 sf[CXPRM_ESW_MAX_SF_WORDS] = {};
		if (ok && cmd::decode_query_esw_functions(out, outlen, &f, sf, CXPRM_ESW_MAX_SF_WORDS) != OK)
			return E_PROTO;
		*e = {};
		if (ok)
			uapi::copy_esw(e, f, sf);
		set_status(&e->st, prm::op::QUERY_ESW_FUNCTIONS, out);
		return OK;
	}
	case CXPRM_IOC_DCT_QUERY: {
		auto *d = (cxprm_dct *)arg;
		cmd::DctContext k{};
		if (ok && cmd::decode_query_dct(out, outlen, &k) != OK)
			return E_PROTO;
		d->ctx = {};
		if (ok)
			uapi::dctc_to_uapi(k, &d->ctx);
		set_status(&d->st, prm::op::QUERY_DCT, out);
		return OK;
	}
	default:
		return E_NOTTY;
	}
}

} /* extern "C" */
