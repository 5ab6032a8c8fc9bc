// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Protection domains, completion queues and shared receive queues: ALLOC /
// DEALLOC_PD, CREATE / DESTROY / QUERY_CQ, _SRQ and _RMP, and the reference
// checks every object that names another one goes through (B7/B8).  With
// ObjectProfile::check_refs (strict, the default) a named PD, CQ, SRQ or
// XRQ must exist; lenient, any nonzero number does.  Destroying an object
// that another one names is refused in both (Linux destroys in dependency
// order, so nothing shows firmware allowing it).
#include "emu_device.h"

#include "cxprm/prm/dct.h"
#include "cxprm/prm/pd_cq.h"
#include "cxprm/prm/rmp.h"
#include "cxprm/prm/srq.h"
#include "cxprm/prm/transport.h"

namespace cxprm::emu {

namespace op = prm::op;
using prm::CRef;
using prm::Ref;

namespace {

constexpr uint32_t CQE_BYTES = 64;

// 4 KiB pages a queue of 'bytes' needs (at least one).
uint64_t pages_for(uint64_t bytes)
{
	uint64_t n = (bytes + prm::ADAPTER_PAGE_SIZE - 1) / prm::ADAPTER_PAGE_SIZE;
	return n ? n : 1;
}

bool dbr_ok(uint64_t a) { return a && !(a & 7); }

// A completion EQ takes no async events: event_bitmask all zero.
bool is_completion_eq(const Eq &eq)
{
	for (uint64_t w : eq.mask)
		if (w)
			return false;
	return true;
}

// Whether SRQ number n is one the _SRQ (rmp false) or the _RMP commands
// (rmp true) act on: RMPs share the SRQs' numbers.
bool is_srq(const std::map<uint32_t, Srq> &srqs, uint32_t n, bool rmp)
{
	auto it = srqs.find(n);
	return it != srqs.end() && it->second.rmp == rmp;
}

// Whether an object of the map (number -> object) satisfies pred.
template <class Map, class Pred> bool any_object(const Map &objects, Pred pred)
{
	for (const auto &[n, o] : objects)
		if (pred(o))
			return true;
	return false;
}

template <class F> uint32_t dct_ref(const Dct &d)
{
	return (uint32_t)prm::get<F>(CRef<prm::dctc>(d.ctx.data()));
}

// The context fields a CREATE keeps and its QUERY answers back, each as
// X(context field, member of the kept object).
#define CXPRM_EMU_CQC_FIELDS(X)                                                                    \
	X(log_cq_size, log_size) X(uar_page, uar) X(c_eqn_or_apu_element, eqn) X(dbr_addr, dbr)
#define CXPRM_EMU_SRQC_FIELDS(X)                                                                   \
	X(log_srq_size, log_size) X(log_rq_stride, log_stride) X(pd, pd) X(cqn, cqn) X(lwm, lwm) X(dbr_addr, dbr)
// from_ctx() reads object o (of type O) from a CREATE's context ctx (of
// layout Layout), to_ctx() writes it into a QUERY's: one pair a kind.
#define CXPRM_EMU_GET_(f, m) o.m = (decltype(o.m))prm::get<L::f>(ctx);
#define CXPRM_EMU_SET_(f, m) prm::set<L::f>(ctx, o.m);
#define CXPRM_EMU_CTX_IO_(O, Layout, FIELDS)                                                       \
	void from_ctx(CRef<Layout> ctx, O &o)                                                      \
	{                                                                                          \
		using L = Layout;                                                                  \
		FIELDS(CXPRM_EMU_GET_)                                                             \
	}                                                                                          \
	void to_ctx(Ref<Layout> ctx, const O &o)                                                   \
	{                                                                                          \
		using L = Layout;                                                                  \
		FIELDS(CXPRM_EMU_SET_)                                                             \
	}
CXPRM_EMU_CTX_IO_(Cq, prm::cqc, CXPRM_EMU_CQC_FIELDS)
CXPRM_EMU_CTX_IO_(Srq, prm::srqc, CXPRM_EMU_SRQC_FIELDS)
#undef CXPRM_EMU_CTX_IO_
#undef CXPRM_EMU_GET_
#undef CXPRM_EMU_SET_
#undef CXPRM_EMU_CQC_FIELDS
#undef CXPRM_EMU_SRQC_FIELDS

} // namespace

bool Device::read_pas(const Cmd &c, uint32_t fixed, uint64_t n, std::vector<uint64_t> *pas)
{
	if (c.inlen < fixed || (c.inlen - fixed) / 8 < n)
		return false;
	pas->clear();
	for (uint64_t i = 0; i < n; i++)
		pas->push_back(load_be64(c.in + fixed + 8 * i) & ~0xfffull);
	return true;
}

bool Device::have_pd(uint32_t pd) const { return prof_.objects.check_refs ? pds.count(pd) != 0 : pd != 0; }

bool Device::have_cq(uint32_t cqn) const { return prof_.objects.check_refs ? cqs.count(cqn) != 0 : cqn != 0; }

bool Device::have_srq_or_xrq(uint32_t n) const
{
	if (!prof_.objects.check_refs)
		return n != 0;
	return srqs.count(n) || xrqs.count(n);
}

bool Device::pd_in_use(uint32_t pd) const
{
	return any_object(srqs, [pd](const Srq &s) { return s.pd == pd; }) ||
	       any_object(xrqs, [pd](const Xrq &x) { return x.pd == pd; }) ||
	       any_object(qps, [pd](const Qp &q) { return q.pd == pd; }) ||
	       any_object(dcts, [pd](const Dct &d) { return dct_ref<prm::dctc::pd>(d) == pd; });
}

bool Device::cq_in_use(uint32_t cqn) const
{
	return any_object(srqs, [cqn](const Srq &s) { return s.cqn == cqn; }) ||
	       any_object(xrqs, [cqn](const Xrq &x) { return x.cqn == cqn; }) ||
	       any_object(qps, [cqn](const Qp &q) { return q.cqn_snd == cqn || q.cqn_rcv == cqn; }) ||
	       any_object(dcts, [cqn](const Dct &d) { return dct_ref<prm::dctc::cqn>(d) == cqn; });
}

bool Device::srq_in_use(uint32_t srqn) const
{
	return any_object(qps, [srqn](const Qp &q) { return q.srqn == srqn; }) ||
	       any_object(dcts, [srqn](const Dct &d) { return dct_ref<prm::dctc::srqn_xrqn>(d) == srqn; });
}

// --- PD ---

Result Device::alloc_pd(Cmd &c)
{
	uint32_t pd = free_number(1, prof_.objects.max_pds, pds);
	if (!pd)
		return fail(synd::PD_EXHAUSTED);
	pds.insert(pd);
	own(Obj::PD, pd, c.uid);
	prm::set<prm::alloc_pd_out::pd>(Ref<prm::alloc_pd_out>(c.out), pd);
	return Result::ok();
}

Result Device::dealloc_pd(Cmd &c)
{
	uint32_t pd = (uint32_t)prm::get<prm::dealloc_pd_in::pd>(CRef<prm::dealloc_pd_in>(c.in));
	return destroy_object(c, pds, Obj::PD, pd, pds.count(pd), synd::PD_UNKNOWN, pd_in_use(pd), synd::PD_IN_USE);
}

// --- CQ ---

Result Device::create_cq(Cmd &c)
{
	using in_t = prm::create_cq_in;
	Cq cq;
	from_ctx(prm::sub<in_t::cq_context, prm::cqc>(CRef<in_t>(c.in)), cq);
	if (cq.log_size > cap_cur<prm::cmd_hca_cap::log_max_cq_sz>())
		return fail(synd::CQ_BAD_LOG_SIZE);
	if (!uars.count(cq.uar))
		return fail(synd::CQ_BAD_UAR);
	if (cq.eqn > 0xff || !eqs.count((uint8_t)cq.eqn))
		return fail(synd::CQ_NO_EQ);
	if (prof_.objects.cq_needs_completion_eq && !is_completion_eq(eqs.at((uint8_t)cq.eqn)))
		return fail(synd::CQ_ON_ASYNC_EQ);
	if (!dbr_ok(cq.dbr))
		return fail(synd::QUEUE_BAD_DBR);
	if (!read_pas(c, in_t::size_bytes, pages_for((uint64_t)CQE_BYTES << cq.log_size), &cq.pas))
		return fail(synd::CQ_PAS_INLEN);
	uint32_t cqn = free_number(prof_.objects.first_cqn, prof_.objects.max_cqs, cqs);
	if (!cqn)
		return fail(synd::CQ_EXHAUSTED);
	cqs[cqn] = std::move(cq);
	own(Obj::CQ, cqn, c.uid);
	prm::set<prm::create_cq_out::cqn>(Ref<prm::create_cq_out>(c.out), cqn);
	return Result::ok();
}

Result Device::destroy_cq(Cmd &c)
{
	uint32_t cqn = (uint32_t)prm::get<prm::destroy_cq_in::cqn>(CRef<prm::destroy_cq_in>(c.in));
	return destroy_object(c, cqs, Obj::CQ, cqn, cqs.count(cqn), synd::CQ_UNKNOWN_DESTROY, cq_in_use(cqn),
			      synd::CQ_IN_USE);
}

Result Device::query_cq(Cmd &c)
{
	uint32_t cqn = (uint32_t)prm::get<prm::query_cq_in::cqn>(CRef<prm::query_cq_in>(c.in));
	auto it = cqs.find(cqn);
	if (Result r = known_owned(c, it != cqs.end(), synd::CQ_UNKNOWN_QUERY, Obj::CQ, cqn, true); r.status)
		return r;
	to_ctx(prm::sub<prm::query_cq_out::cq_context, prm::cqc>(Ref<prm::query_cq_out>(c.out)), it->second);
	return Result::ok();
}

// --- SRQ ---

template <class Num> Result Device::add_srq(const Cmd &c, uint32_t fixed, uint64_t npages, const Srq &s)
{
	std::vector<uint64_t> pas;
	if (!read_pas(c, fixed, npages, &pas))
		return fail(synd::SRQ_PAS_INLEN);
	uint32_t srqn = free_number(prof_.objects.first_srqn, prof_.objects.max_srqs, srqs);
	if (!srqn)
		return fail(synd::SRQ_EXHAUSTED);
	srqs[srqn] = s;
	own(Obj::SRQ, srqn, c.uid);
	prm::set<Num>(Ref<typename Num::layout>(c.out), srqn);
	return Result::ok();
}

Result Device::create_srq(Cmd &c)
{
	using in_t = prm::create_srq_in;
	Srq s;
	from_ctx(prm::sub<in_t::srq_context_entry, prm::srqc>(CRef<in_t>(c.in)), s);
	if (!have_pd(s.pd))
		return fail(synd::SRQ_NO_PD);
	if (s.cqn && !have_cq(s.cqn))
		return fail(synd::SRQ_NO_CQ);
	if (!dbr_ok(s.dbr))
		return fail(synd::QUEUE_BAD_DBR);
	return add_srq<prm::create_srq_out::srqn>(c, in_t::size_bytes,
						  pages_for((16ull << s.log_stride) << s.log_size), s);
}

// DESTROY_SRQ and DESTROY_RMP: each acts on its own kind's numbers only.
Result Device::destroy_srq(Cmd &c)
{
	bool rmp = c.opcode == op::DESTROY_RMP;
	uint32_t n = rmp ? (uint32_t)prm::get<prm::destroy_rmp_in::rmpn>(CRef<prm::destroy_rmp_in>(c.in))
			 : (uint32_t)prm::get<prm::destroy_srq_in::srqn>(CRef<prm::destroy_srq_in>(c.in));
	return destroy_object(c, srqs, Obj::SRQ, n, is_srq(srqs, n, rmp),
			      rmp ? synd::RMP_UNKNOWN : synd::SRQ_UNKNOWN_DESTROY, srq_in_use(n),
			      synd::SRQ_IN_USE);
}

// QUERY_SRQ and QUERY_RMP: each acts on its own kind's numbers only, and
// answers in its own context (srqc; rmpc with its wq).
Result Device::query_srq(Cmd &c)
{
	bool rmp = c.opcode == op::QUERY_RMP;
	uint32_t n = rmp ? (uint32_t)prm::get<prm::query_rmp_in::rmpn>(CRef<prm::query_rmp_in>(c.in))
			 : (uint32_t)prm::get<prm::query_srq_in::srqn>(CRef<prm::query_srq_in>(c.in));
	if (Result r = known_owned(c, is_srq(srqs, n, rmp), rmp ? synd::RMP_UNKNOWN : synd::SRQ_UNKNOWN_QUERY,
				   Obj::SRQ, n, true);
	    r.status)
		return r;
	const Srq &s = srqs.at(n);
	if (rmp) {
		Ref<prm::rmpc> ctx =
			prm::sub<prm::query_rmp_out::rmp_context, prm::rmpc>(Ref<prm::query_rmp_out>(c.out));
		prm::set<prm::rmpc::state>(ctx, prm::RMP_STATE_RDY);
		Ref<prm::wq> wq = prm::sub<prm::rmpc::wq, prm::wq>(ctx);
		prm::set<prm::wq::log_wq_stride>(wq, s.log_stride + 4u);
		prm::set<prm::wq::log_wq_sz>(wq, s.log_size);
		prm::set<prm::wq::pd>(wq, s.pd);
		prm::set<prm::wq::lwm>(wq, s.lwm);
		prm::set<prm::wq::dbr_addr>(wq, s.dbr);
		return Result::ok();
	}
	to_ctx(prm::sub<prm::query_srq_out::srq_context_entry, prm::srqc>(Ref<prm::query_srq_out>(c.out)), s);
	return Result::ok();
}

// --- RMP: an SRQ at ISSI 1 (Linux mlx5_ib create_rmp_cmd) ---
//
// Strict, as nothing shows firmware taking otherwise: only at ISSI 1,
// rmpc.state RDY (Linux always sends it), wq_type linked list (Linux never
// sets it: SRQ WQEs are a linked list), a stride of at least 16 bytes
// (log_wq_stride is log2 bytes).  RMPs share the SRQs' numbers, so a qpc's
// srqn_rmpn_xrqn or a dctc's srqn_xrqn names either.

Result Device::create_rmp(Cmd &c)
{
	using in_t = prm::create_rmp_in;
	if (issi < 1)
		return fail(synd::RMP_ISSI_0);
	CRef<prm::rmpc> ctx = prm::sub<in_t::ctx, prm::rmpc>(CRef<in_t>(c.in));
	CRef<prm::wq> wq = prm::sub<prm::rmpc::wq, prm::wq>(ctx);
	if (prm::get<prm::rmpc::state>(ctx) != prm::RMP_STATE_RDY)
		return fail(synd::RMP_BAD_STATE);
	if (prm::get<prm::wq::wq_type>(wq) != 0)
		return fail(synd::RMP_BAD_WQ_TYPE);
	uint32_t stride = (uint32_t)prm::get<prm::wq::log_wq_stride>(wq);
	if (stride < 4)
		return fail(synd::RMP_BAD_STRIDE);
	Srq s;
	s.rmp = true;
	s.log_size = (uint8_t)prm::get<prm::wq::log_wq_sz>(wq);
	s.log_stride = (uint8_t)(stride - 4);
	s.pd = (uint32_t)prm::get<prm::wq::pd>(wq);
	s.lwm = (uint16_t)prm::get<prm::wq::lwm>(wq);
	s.dbr = prm::get<prm::wq::dbr_addr>(wq);
	if (!have_pd(s.pd))
		return fail(synd::SRQ_NO_PD);
	if (!dbr_ok(s.dbr))
		return fail(synd::QUEUE_BAD_DBR);
	// pas[] entries are pages of 4 KiB << log_wq_pg_sz.
	uint64_t page = prm::ADAPTER_PAGE_SIZE << prm::get<prm::wq::log_wq_pg_sz>(wq);
	uint64_t bytes = (1ull << stride) << s.log_size;
	return add_srq<prm::create_rmp_out::rmpn>(c, in_t::size_bytes, (bytes + page - 1) / page, s);
}

} // namespace cxprm::emu
