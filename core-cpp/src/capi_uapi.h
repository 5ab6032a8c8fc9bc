// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Between the core's own types and the structs of the C facade (capi.h)
 * and the UAPI (cxprm/uapi.h), for capi.cpp and ioctl.cpp only.  Every copy
 * is generated from one field list:
 *   - the layout's X-list where the UAPI took the PRM's names (dctc,
 *     host_params_context): a field the UAPI struct lacks is skipped, and a
 *     static_assert proves that every byte of the UAPI struct is a field of
 *     the list, a rename below, or reserved;
 *   - else a list of the names both structs share (a name missing on
 *     either side does not compile).
 * The few fields the UAPI names differently are the explicit lines after
 * each list (the rename map).
 */
#pragma once

#include "cxprm/capi.h"
#include "cxprm/cmd_stats.h"
#include "cxprm/cmdq.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/events.h"
#include "cxprm/prm/esw.h"

namespace cxprm::uapi {

/* d->name = s.name, both must have it. */
#define CXPRM_COPY_(name, ...) d->name = (decltype(d->name))s.name;
/* The same for the names of a layout's X-list that D and S both have. */
#define CXPRM_COPY_SHARED_(name, ...)                 \
	if constexpr (requires { d->name = s.name; }) \
		d->name = (decltype(d->name))s.name;
/* Bytes of U that are fields of the X-list. */
#define CXPRM_SIZE_SHARED_(name, ...)             \
	if constexpr (requires { U::name; })      \
		n += sizeof(U::name);

/* Names the facade's and the UAPI's structs share with the core's. */
#define CXPRM_UAPI_NVMF_NS(X)                                                   \
	X(read_cmds) X(read_blocks) X(write_cmds) X(write_blocks) X(write_inline_cmds) \
	X(flush_cmds) X(error_cmds) X(backend_error_cmds) X(current_q_depth)        \
	X(last_read_latency) X(last_write_latency)
#define CXPRM_UAPI_OPSTATS(X)                                                   \
	X(opcode) X(last_status) X(last_delivery) X(last_syndrome) X(count) X(errors) \
	X(lat_max_ns)
#define CXPRM_CORE_CMD_RECORD(X)                                                   \
	X(seq) X(time_ns) X(latency_ns) X(opcode) X(op_mod) X(slot) X(token) X(delivery) \
	X(status) X(syndrome) X(err) X(inlen) X(outlen)
#define CXPRM_CORE_EVENT_STATS(X)                                         \
	X(total) X(page_requests) X(pages_requested) X(page_request_errors) \
	X(cmd_completions)

template <class D, class S> void nvmf_fields(D *d, const S &s) { CXPRM_UAPI_NVMF_NS(CXPRM_COPY_) }
template <class D, class S> void opstats_fields(D *d, const S &s) { CXPRM_UAPI_OPSTATS(CXPRM_COPY_) }
template <class D, class S> void record_fields(D *d, const S &s) { CXPRM_CORE_CMD_RECORD(CXPRM_COPY_) }
template <class D, class S> void event_stats_fields(D *d, const S &s) { CXPRM_CORE_EVENT_STATS(CXPRM_COPY_) }
template <class D, class S> void esw_fields(D *d, const S &s) { CXPRM_HOST_PARAMS_CONTEXT(CXPRM_COPY_SHARED_) }
template <class D, class S> void dctc_fields(D *d, const S &s) { CXPRM_DCTC(CXPRM_COPY_SHARED_) }
template <class U> constexpr usize esw_bytes() { usize n = 0; CXPRM_HOST_PARAMS_CONTEXT(CXPRM_SIZE_SHARED_) return n; }
template <class U> constexpr usize dctc_bytes() { usize n = 0; CXPRM_DCTC(CXPRM_SIZE_SHARED_) return n; }

#undef CXPRM_COPY_
#undef CXPRM_COPY_SHARED_
#undef CXPRM_SIZE_SHARED_

/* No UAPI field is left out of the generated copies. */
static_assert(dctc_bytes<cxprm_dctc>() + sizeof(cxprm_dctc::key_violations) +
			      sizeof(cxprm_dctc::reserved0) + sizeof(cxprm_dctc::reserved1) ==
		      sizeof(cxprm_dctc),
	      "a struct cxprm_dctc field is neither in CXPRM_DCTC nor renamed");
static_assert(esw_bytes<cxprm_esw_functions>() + sizeof(cxprm_esw_functions::st) +
			      sizeof(cxprm_esw_functions::sf_enable) +
			      sizeof(cxprm_esw_functions::reserved0) +
			      sizeof(cxprm_esw_functions::reserved1) ==
		      sizeof(cxprm_esw_functions),
	      "a struct cxprm_esw_functions field is not in CXPRM_HOST_PARAMS_CONTEXT");

/*
 * A command's status as an ioctl reports it: the engine's, with the opcode
 * the ioctl stands for (also when nothing was sent and r is empty).
 */
inline void copy_status(cxprm_cmd_status *st, const CmdResult &r, u16 opcode)
{
	*st = r.st;
	st->opcode = opcode;
}

inline void copy_nvmf_ns(cxprm_nvmf_ns *n, const cmd::NvmfNsCounters &k)
{
	nvmf_fields(n, k);
}

inline void copy_esw(cxprm_esw_functions *e, const cmd::EswFunctions &f, const u64 *sf)
{
	esw_fields(e, f);
	mem_copy(e->sf_enable, sf, sizeof(e->sf_enable));
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

inline void copy_record(cxprm_core_cmd_record *o, const CmdRecord &r)
{
	*o = {};
	record_fields(o, r);
	mem_copy(o->in, r.in, sizeof(o->in));
	mem_copy(o->out, r.out, sizeof(o->out));
}

inline void copy_event_stats(cxprm_core_event_stats *st, const EventStats &s)
{
	event_stats_fields(st, s);
	mem_copy(st->by_type, s.by_type, sizeof(st->by_type));
}

} // namespace cxprm::uapi
