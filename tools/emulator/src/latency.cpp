// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The firmware latency model's defaults and its text form (latency.h).
#include <cerrno>
#include <cstdlib>

#include "cxprm/prm/opcodes.h"
#include "cxprm_emu/latency.h"

namespace cxprm::emu {

namespace op = prm::op;

// Every value is an assumption of the right order of magnitude for a
// ConnectX-7, not a measurement (Documentation/prm-notes.rst, "Firmware
// latency model"): queries answered from firmware memory take tens of
// microseconds, page moves and object creation more, the HCA life-cycle
// commands milliseconds.
LatencyModel LatencyModel::connectx7()
{
	LatencyModel m;
	m.engines = 4;
	m.default_us = 50;
	m.per_opcode_us = {
		{op::QUERY_PAGES, 20},   {op::QUERY_ISSI, 20},     {op::NOP, 10},
		{op::QUERY_HCA_CAP, 30}, {op::SET_HCA_CAP, 50},    {op::SET_ISSI, 20},
		{op::MANAGE_PAGES, 100}, {op::ENABLE_HCA, 1000},   {op::DISABLE_HCA, 1000},
		{op::INIT_HCA, 5000},    {op::TEARDOWN_HCA, 5000}, {op::CREATE_EQ, 100},
		{op::DESTROY_EQ, 100},
		// Connection setup, from the seed's adapter figures (its 5.2: the
		// RC path 12 us a connection over 4 commands, a DCT 4 us).
		{op::CREATE_QP, 5},      {op::RST2INIT_QP, 2},     {op::INIT2RTR_QP, 3},
		{op::RTR2RTS_QP, 2},     {op::CREATE_DCT, 4},
	};
	return m;
}

namespace {
bool parse_num(const std::string &s, unsigned long max, unsigned long *v)
{
	if (s.empty() || s[0] == '-')
		return false;
	char *end;
	errno = 0;
	unsigned long x = std::strtoul(s.c_str(), &end, 0);
	if (errno || *end || x > max)
		return false;
	*v = x;
	return true;
}

bool opcode_from_text(const std::string &s, uint16_t *op)
{
	unsigned long v;
	if (parse_num(s, 0xffff, &v)) {
		*op = (uint16_t)v;
		return true;
	}
	for (uint32_t o = 0; o <= 0xffff; o++) {
		const char *n = prm::opcode_name((uint16_t)o);
		if (n && s == n) {
			*op = (uint16_t)o;
			return true;
		}
	}
	return false;
}
} // namespace

bool LatencyModel::set_from_text(const std::string &spec)
{
	constexpr unsigned long MAX_US = 10ul * 1000 * 1000; // 10 s
	unsigned long us;
	size_t eq = spec.find('=');
	if (eq == std::string::npos) {
		if (!parse_num(spec, MAX_US, &us))
			return false;
		default_us = (uint32_t)us;
		return true;
	}
	uint16_t opcode;
	if (!opcode_from_text(spec.substr(0, eq), &opcode) || !parse_num(spec.substr(eq + 1), MAX_US, &us))
		return false;
	per_opcode_us[opcode] = (uint32_t)us;
	return true;
}

} // namespace cxprm::emu
