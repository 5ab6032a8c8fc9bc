// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Firmware status and syndrome text (fwstatus.h).
#include "fwstatus.h"

#include <uapi/linux/cxprm.h>

#include "errors.h"
#include "hex.h"
#include "names.h"

#include "cxprm/copy_fields.h"
#include "cxprm/status.h"
#include "cxprm_emu/syndromes.h"

namespace cxprm::tool {

namespace {

struct EmuSynd {
	uint32_t value;
	const char *name;
	const char *text;
};

#define CXPRM_TOOL_SYND_(n, v, s, t) {v, #n, t},
const EmuSynd kEmuSyndromes[] = {CXPRM_EMU_SYNDROMES(CXPRM_TOOL_SYND_)};
#undef CXPRM_TOOL_SYND_

const EmuSynd *find_emu(uint32_t s) { return find_row<&EmuSynd::value>(kEmuSyndromes, s); }

std::string code_hex(uint8_t v)
{
	static const char d[] = "0123456789abcdef";
	return std::string("0x") + d[v >> 4] + d[v & 15];
}

} // namespace

FwResult FwResult::from(const cxprm_cmd_status &st)
{
	FwResult r;
	CXPRM_COPY_FIELDS(r, st, delivery, status, opcode, syndrome, latency_ns);
	return r;
}

const char *emulator_syndrome_name(uint32_t s)
{
	const EmuSynd *e = find_emu(s);
	return e ? e->name : nullptr;
}

const char *emulator_syndrome_text(uint32_t s)
{
	const EmuSynd *e = find_emu(s);
	return e ? e->text : nullptr;
}

std::string describe(const FwResult &r)
{
	if (r.delivery)
		return std::string("not delivered: ") + delivery_status_name(r.delivery) + " (" +
		       code_hex(r.delivery) + "): " + delivery_status_text(r.delivery);
	if (!r.status)
		return "OK";
	std::string s = std::string(cmd_status_name(r.status)) + " (" + code_hex(r.status) + "): " +
			cmd_status_text(r.status) + "; syndrome " + hex_num(r.syndrome);
	if (const EmuSynd *e = find_emu(r.syndrome))
		s += std::string(" (emulator ") + e->name + ": " + e->text + ")";
	return s;
}

Json status_json(const FwResult &r, bool with_latency)
{
	Json j = Json::object();
	j.set("delivery", delivery_status_name(r.delivery));
	j.set("delivery_code", r.delivery);
	j.set("status", cmd_status_name(r.status));
	j.set("status_code", r.status);
	j.set("syndrome", r.syndrome);
	if (const EmuSynd *e = find_emu(r.syndrome); e && r.status)
		j.set("syndrome_name", std::string("emulator:") + e->name);
	j.set("message", describe(r));
	if (with_latency)
		j.set("latency_ns", r.latency_ns);
	return j;
}

void check_fw(const FwResult &r, const std::string &what)
{
	if (!r.ok())
		throw FwError(what + (r.delivery ? ": command " : ": firmware answered ") + describe(r));
}

} // namespace cxprm::tool
