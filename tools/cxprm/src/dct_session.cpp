// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// DCT operations on one open file (dct_session.h).
#include "dct_session.h"

#include <algorithm>
#include <cstring>
#include <ostream>

#include "errors.h"
#include "fwstatus.h"
#include "hex.h"
#include "signals.h"
#include "views.h"

#include "cxprm/prm/eq.h"
#include "cxprm/prm/opcodes.h"

namespace cxprm::tool {

namespace {

cxprm_dct blank(uint32_t dctn)
{
	cxprm_dct d;
	std::memset(&d, 0, sizeof(d));
	d.dctn = dctn;
	return d;
}

Json head(const char *op, uint32_t dctn, const FwResult &r)
{
	Json j = Json::object();
	j.set("op", op);
	j.set("dctn", dctn);
	j.set_json("status", status_json(r, true));
	return j;
}

uint32_t event_dctn(const cxprm_event &e)
{
	return (uint32_t)prm::get<prm::dct_events::dct_number>(prm::CRef<prm::dct_events>(e.data));
}

} // namespace

void DctSession::emit(const Json &j)
{
	if (out_ != Output::TEXT)
		print_json(ctx_, j, out_ == Output::PRETTY);
}

uint32_t DctSession::create(const cxprm_dctc &c)
{
	cxprm_dct d = blank(0);
	d.ctx = c;
	f_.dct_create(d);
	FwResult r = FwResult::from(d.st);
	emit(head("create", r.ok() ? d.dctn : 0, r));
	std::string what = "CREATE_DCT (pd " + hex_num(c.pd) + ", cqn " + hex_num(c.cqn) + ", srqn " +
			   hex_num(c.srqn_xrqn) + ")";
	if (r.delivery == 0 && r.status == 0x05) // BAD_RES: an object it names does not exist
		what += " names an object that does not exist (give --pd/--cqn/--srqn of existing objects, "
			"or none of them: cxprm then creates its own)";
	check_fw(r, what);
	created_.push_back(d.dctn);
	alive_.push_back(d.dctn);
	if (out_ == Output::TEXT)
		ctx_.out << "created DCT " << hex_num(d.dctn) << "\n";
	ctx_.out.flush();
	return d.dctn;
}

cxprm_dct DctSession::run(void (DevFile::*call)(cxprm_dct &), const char *op, const char *fw_op, uint32_t dctn,
			  bool with_context)
{
	cxprm_dct d = blank(dctn);
	(f_.*call)(d);
	FwResult r = FwResult::from(d.st);
	Json j = head(op, dctn, r);
	if (with_context && r.ok())
		j.set_json("context", dctc_json(d.ctx));
	emit(j);
	check_fw(r, std::string(fw_op) + " " + hex_num(dctn));
	return d;
}

void DctSession::query(uint32_t dctn)
{
	cxprm_dct d = run(&DevFile::dct_query, "query", "QUERY_DCT", dctn, true);
	if (out_ == Output::TEXT) {
		ctx_.out << "DCT " << hex_num(dctn) << ":\n";
		print_kv(ctx_.out, dctc_kv(d.ctx), 2);
	}
}

void DctSession::drain(uint32_t dctn)
{
	run(&DevFile::dct_drain, "drain", "DRAIN_DCT", dctn);
	if (out_ == Output::TEXT)
		ctx_.out << "DCT " << hex_num(dctn) << ": draining (DCT_DRAINED follows)\n";
}

void DctSession::destroy(uint32_t dctn)
{
	run(&DevFile::dct_destroy, "destroy", "DESTROY_DCT", dctn);
	alive_.erase(std::remove(alive_.begin(), alive_.end(), dctn), alive_.end());
	if (out_ == Output::TEXT)
		ctx_.out << "destroyed DCT " << hex_num(dctn) << "\n";
}

void DctSession::wait_drained(uint32_t dctn, int timeout_ms)
{
	StopOnSignal stop;
	long long deadline = now_ms() + timeout_ms;
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			throw TimeoutError("DCT " + hex_num(dctn) + ": not drained after " +
					   std::to_string(timeout_ms / 1000.0).substr(0, 5) + " s (no DCT_DRAINED event, QUERY_DCT state not DRAINED)");
		std::vector<cxprm_event> got;
		f_.read_events(got, (int)std::min(left, 200LL));
		if (StopOnSignal::stopped())
			throw OsError("interrupted while waiting for DCT " + hex_num(dctn) + " to drain");
		for (const cxprm_event &e : got) {
			if (e.type != prm::event::DCT_DRAINED || event_dctn(e) != dctn)
				continue;
			Json j = Json::object();
			j.set("op", "wait");
			j.set("dctn", dctn);
			j.set("drained", true);
			j.set("via", "event");
			j.set_json("event", event_json(e));
			emit(j);
			if (out_ == Output::TEXT)
				ctx_.out << "DCT " << hex_num(dctn) << ": drained (" << event_line(e) << ")\n";
			return;
		}
		// No event (yet): the state says it too.
		cxprm_dct d = blank(dctn);
		f_.dct_query(d);
		FwResult r = FwResult::from(d.st);
		if (r.ok() && d.ctx.state == 2) {
			Json j = Json::object();
			j.set("op", "wait");
			j.set("dctn", dctn);
			j.set("drained", true);
			j.set("via", "query");
			emit(j);
			if (out_ == Output::TEXT)
				ctx_.out << "DCT " << hex_num(dctn) << ": drained (QUERY_DCT state DRAINED)\n";
			return;
		}
		check_fw(r, "QUERY_DCT " + hex_num(dctn) + " (waiting for the drain)");
	}
}

uint32_t DctSession::resolve(const std::string &ref) const
{
	if (ref == "last") {
		if (created_.empty())
			throw UsageError("'last': no DCT created yet");
		return created_.back();
	}
	if (!ref.empty() && ref[0] == '@') {
		uint64_t n = parse_num(ref.substr(1), "DCT reference " + ref, 1u << 20);
		if (n < 1 || n > created_.size())
			throw UsageError("DCT reference " + ref + ": only " + std::to_string(created_.size()) +
					 " DCT(s) created so far");
		return created_[n - 1];
	}
	return (uint32_t)parse_num(ref, "DCT number", 0xffffff);
}

} // namespace cxprm::tool
