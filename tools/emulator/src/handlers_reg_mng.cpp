// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ACCESS_REG management registers (handlers_reg.cpp dispatches here after
// the length, argument, read-only and reserved-bit checks):
//
//   MGIR 0x9020      read-only: hardware (the profile's PCI device id,
//                    hw revision, ports) and firmware identity (the init
//                    segment's fw_rev in extended_*, the PSID); prm/reg.h's
//                    layout is provisional (mstflint's)
//   MTRC_CAP 0x9040  tracer capabilities; trace_owner written (1 takes,
//                    0 releases the tracer), read back
//   MCIA 0x9014      module EEPROM reads of the emulated QSFP28 (SFF-8636)
//                    in the cage of port module + 1: i2c address 0x50,
//                    page 0 (lower 0..127, upper 128..255), 1..48 bytes not
//                    past byte 255, l 0 (REG_MCIA_BAD_ACCESS); writes
//                    REG_READ_ONLY
#include <cstring>

#include "emu_device.h"

#include "cxprm/prm/reg.h"

namespace cxprm::emu {

using prm::CRef;
using prm::Ref;
namespace rid = prm::reg_id;

namespace {

// ASCII s in [p, p + n), space padded (SFF-8636 vendor strings).
void put_ascii(uint8_t *p, uint32_t n, const std::string &s)
{
	std::memset(p, ' ', n);
	std::memcpy(p, s.data(), s.size() < n ? s.size() : n);
}

uint8_t sum8(const uint8_t *p, uint32_t a, uint32_t b)
{
	uint32_t s = 0;
	for (uint32_t i = a; i <= b; i++)
		s += p[i];
	return (uint8_t)s;
}

// Page 0 (lower and upper page 00h) of a passive 100G QSFP28 copper cable,
// SFF-8636 rev 2.10a offsets.
void qsfp28_page0(const RegisterProfile &rp, uint8_t (&e)[256])
{
	std::memset(e, 0, sizeof(e));
	e[0] = 0x11;   // identifier: QSFP28
	e[1] = 0x08;   // revision compliance: SFF-8636 rev 2.10a
	e[2] = 0x04;   // status: flat memory (upper page 00h only)
	e[128] = 0x11; // identifier
	e[130] = 0x23; // connector: no separable connector (DAC)
	e[131] = 0x80; // 10/40G compliance: extended (byte 192)
	e[146] = 3;    // cable length 3 m
	e[147] = 0xa0; // transmitter technology: copper, unequalized
	put_ascii(e + 148, 16, rp.module_vendor);
	put_ascii(e + 168, 16, rp.module_pn);
	e[184] = 'A';
	e[185] = '0';
	e[191] = sum8(e, 128, 190); // CC_BASE
	e[192] = 0x0b;              // extended compliance: 100GBASE-CR4
	put_ascii(e + 196, 16, rp.module_sn);
	std::memcpy(e + 212, "260101  ", 8); // date code YYMMDD + lot
	e[223] = sum8(e, 192, 222);          // CC_EXT
}

} // namespace

Result Device::reg_mng(uint16_t id, bool write, const uint8_t *in, uint8_t *o)
{
	const RegisterProfile &rp = prof_.regs;
	switch (id) {
	case rid::MGIR: {
		using mg = prm::mgir_reg;
		Ref<mg> a(o);
		prm::set<mg::device_id>(a, prof_.device_id);
		prm::set<mg::device_hw_revision>(a, rp.hw_revision);
		prm::set<mg::num_ports>(a, cap_cur<prm::cmd_hca_cap::num_ports>());
		prm::set<mg::technology>(a, rp.technology);
		prm::set<mg::hw_dev_id>(a, rp.hw_dev_id);
		prm::set<mg::fw_signed_fw>(a, 1);
		prm::set<mg::fw_secured>(a, 1);
		// major/minor/sub_minor are deprecated (0); extended_* carry it.
		prm::set<mg::extended_major>(a, prof_.fw_rev.major);
		prm::set<mg::extended_minor>(a, prof_.fw_rev.minor);
		prm::set<mg::extended_sub_minor>(a, prof_.fw_rev.subminor);
		constexpr uint32_t psid_len = mg::psid::width / 8; // NUL padded
		std::memset(prm::bytes<mg::psid>(a), 0, psid_len);
		std::memcpy(prm::bytes<mg::psid>(a), prof_.psid.data(),
			    prof_.psid.size() < psid_len ? prof_.psid.size() : psid_len);
		return Result::ok();
	}
	case rid::MTRC_CAP: {
		using mt = prm::mtrc_cap;
		if (write) {
			if (prof_.functions.vf)
				return fail(synd::REG_VF_PORT_WRITE);
			tracer_owner = prm::get<mt::trace_owner>(CRef<mt>(in));
		}
		Ref<mt> a(o);
		prm::set<mt::trace_owner>(a, tracer_owner);
		prm::set<mt::trace_to_memory>(a, 1);
		prm::set<mt::trc_ver>(a, 1);
		prm::set<mt::num_string_db>(a, 2);
		prm::set<mt::first_string_trace>(a, 8);
		prm::set<mt::num_string_trace>(a, 120);
		prm::set<mt::log_max_trace_buffer_size>(a, 20);
		// string_db_param[0..1]: {base address, size}, back to back.
		uint8_t *db = prm::bytes<mt::string_db_param>(a);
		store_be32(db + 0, 0);
		store_be32(db + 4, 0x40000);
		store_be32(db + 8, 0x40000);
		store_be32(db + 12, 0x20000);
		return Result::ok();
	}
	case rid::MCIA: {
		using mc = prm::mcia_reg;
		if (write)
			return fail(synd::REG_READ_ONLY);
		CRef<mc> q(in);
		const uint32_t module = (uint32_t)prm::get<mc::module>(q);
		if (module >= cap_cur<prm::cmd_hca_cap::num_ports>())
			return fail(synd::REG_BAD_PORT);
		const uint32_t addr = (uint32_t)prm::get<mc::device_address>(q);
		const uint32_t size = (uint32_t)prm::get<mc::size>(q);
		if (prm::get<mc::l>(q) || prm::get<mc::i2c_device_address>(q) != 0x50 ||
		    prm::get<mc::page_number>(q) != 0 || size == 0 || size > rp.mcia_max_bytes || addr + size > 256)
			return fail(synd::REG_MCIA_BAD_ACCESS);
		uint8_t eeprom[256];
		qsfp28_page0(rp, eeprom);
		Ref<mc> a(o);
		prm::set<mc::module>(a, module);
		prm::set<mc::status>(a, 0);
		prm::set<mc::i2c_device_address>(a, 0x50);
		prm::set<mc::device_address>(a, addr);
		prm::set<mc::size>(a, size);
		std::memcpy(prm::bytes<mc::dwords>(a), eeprom + addr, size);
		return Result::ok();
	}
	}
	return fail(synd::REG_UNKNOWN);
}

} // namespace cxprm::emu
