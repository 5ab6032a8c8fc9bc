// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Between the core's types and the UAPI's ioctl payloads (cxprm/uapi.h),
 * for capi.cpp and ioctl.cpp only.  The copies are generated from one
 * field list each, by name: the layout's X-list where the UAPI took the
 * PRM's names (dctc, host_params_context), else the list below; a field
 * that one side lacks is skipped at compile time, and the few fields the
 * UAPI names differently are the explicit lines after each list.
 */
#pragma once

#include "cxprm/capi.h"
#include "cxprm/cmd_stats.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/prm/esw.h"

namespace cxprm::uapi {

/* d->name = s.name for every listed name both structs have. */
#define CXPRM_UAPI_COPY_(name, ...)                          \
	if constexpr (requires { d->name = s.name; })        \
		d->name = (decltype(d->name))s.name;

/* Names the UAPI shares with the core's own structs. */
#define CXPRM_UAPI_STATUS(X) X(delivery) X(status) X(opcode) X(syndrome) X(latency_ns)
#define CXPRM_UAPI_NVMF_NS(X)                                                   \
	X(read_cmds) X(read_blocks) X(write_cmds) X(write_blocks) X(write_inline_cmds) \
	X(flush_cmds) X(error_cmds) X(backend_error_cmds) X(current_q_depth)        \
	X(last_read_latency) X(last_write_latency)
#define CXPRM_UAPI_OPSTATS(X)                                                   \
	X(opcode) X(last_status) X(last_delivery) X(last_syndrome) X(count) X(errors) \
	X(lat_max_ns)

template <class D, class S> void status_fields(D *d, const S &s) { CXPRM_UAPI_STATUS(CXPRM_UAPI_COPY_) }
template <class D, class S> void nvmf_fields(D *d, const S &s) { CXPRM_UAPI_NVMF_NS(CXPRM_UAPI_COPY_) }
template <class D, class S> void esw_fields(D *d, const S &s) { CXPRM_HOST_PARAMS_CONTEXT(CXPRM_UAPI_COPY_) }
template <class D, class S> void dctc_fields(D *d, const S &s) { CXPRM_DCTC(CXPRM_UAPI_COPY_) }
template <class D, class S> void opstats_fields(D *d, const S &s) { CXPRM_UAPI_OPSTATS(CXPRM_UAPI_COPY_) }

#undef CXPRM_UAPI_COPY_

inline void copy_status(cxprm_cmd_status *st, const cxprm_core_result &r)
{
	*st = {};
	status_fields(st, r);
}

inline void copy_nvmf_ns(cxprm_nvmf_ns *n, const cmd::NvmfNsCounters &k)
{
	nvmf_fields(n, k);
}

inline void copy_esw(cxprm_esw_functions *e, const cmd::EswFunctions &f, const u64 *sf)
{
	esw_fields(e, f);
	for (u32 i = 0; i < CXPRM_ESW_MAX_SF_WORDS; i++)
		e->sf_enable[i] = sf[i];
}

inline void dctc_to_uapi(const cmd::DctContext &k, cxprm_dctc *u)
{
	*u = {};
	dctc_fields(u, k);
	u->key_violations = (u32)k.dc_access_key_violation_count; /* renamed */
}

/* The input fields only: state and key_violations are output. */
inline void uapi_to_dctc(const cxprm_dctc &u, cmd::DctContext *k)
{
	*k = {};
	dctc_fields(k, u);
	k->state = 0;
}

inline void copy_opstats(cxprm_opcode_stats *o, const OpcodeStats &s)
{
	*o = {};
	opstats_fields(o, s);
	o->last_errno = s.last_err; /* renamed */
	o->lat_min_ns = s.count ? s.lat_min_ns : 0;
	o->lat_avg_ns = s.count ? s.lat_sum_ns / s.count : 0;
}

} // namespace cxprm::uapi
