// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Firmware health (health.h): one read of the health words and the fatal
// sensors as Linux's health.c checks them.  What follows from them (the
// failed word, the poller, the reports) is the Health object's
// (health_monitor.cpp).
#include "cxprm/health.h"

#include "cxprm/errors.h"
#include "cxprm/prm/transport.h"

namespace cxprm {

namespace {
using H = prm::health_buffer;
using I = prm::initial_seg;

template <class F> u32 read_hb(const cxprm_host *h)
{
	u32 v = h->ops->ioread32be(h->ctx, prm::iseg::HEALTH + prm::dword_byte_offset<F>());
	return prm::from_dword<F>(v);
}
} // namespace

HealthRead health_read(const cxprm_host *h)
{
	HealthRead r{};
	r.fw_version = read_hb<H::fw_version>(h);
	u32 l = h->ops->ioread32be(h->ctx, prm::iseg::CMDQ_ADDR_L_SZ);
	r.nic_state = (u8)((l >> prm::iseg::NIC_STATE_SHIFT) & prm::iseg::NIC_STATE_MASK);
	if (l == 0xffffffffu)
		r.nic_state = 0; /* gone: the PCI sensor decides */
	u32 d = h->ops->ioread32be(h->ctx, prm::iseg::HEALTH + prm::dword_byte_offset<H::rfr>());
	r.rfr = (u8)prm::from_dword<H::rfr>(d);
	r.severity = (u8)prm::from_dword<H::severity>(d);
	static_assert(prm::dword_byte_offset<H::synd>() == prm::dword_byte_offset<H::ext_synd>());
	d = h->ops->ioread32be(h->ctx, prm::iseg::HEALTH + prm::dword_byte_offset<H::synd>());
	r.synd = (u8)prm::from_dword<H::synd>(d);
	r.ext_synd = (u16)prm::from_dword<H::ext_synd>(d);
	r.counter = prm::from_dword<I::health_counter>(h->ops->ioread32be(h->ctx, prm::iseg::HEALTH_COUNTER));
	/*
	 * fw_rev last: a device that went away during these reads returns
	 * all ones from here on, so health words read as all ones (syndrome
	 * 0xff with rfr) are classified as gone (PCI sensor), not as dead
	 * firmware.  (Read first, a removal between it and the health words
	 * looked like FW_SYND_RFR: EHOSTDOWN where ENODEV is right.)
	 */
	r.fw_rev = h->ops->ioread32be(h->ctx, prm::iseg::FW_REV);
	return r;
}

HealthSensor health_fatal_sensor(const HealthRead &r)
{
	if (r.fw_version == 0xffffffffu || r.fw_rev == 0xffffffffu)
		return HealthSensor::PCI_COMM_ERR;
	if (r.nic_state == nic_ifc::DISABLED)
		return HealthSensor::NIC_DISABLED;
	if (r.nic_state == nic_ifc::SW_RESET)
		return HealthSensor::NIC_SW_RESET;
	if (r.rfr && r.synd)
		return HealthSensor::FW_SYND_RFR;
	return HealthSensor::NONE;
}

int health_sensor_err(HealthSensor s)
{
	switch (s) {
	case HealthSensor::NONE: return OK;
	case HealthSensor::PCI_COMM_ERR: return E_NODEV;
	default: return E_HOSTDOWN;
	}
}

const char *health_sensor_name(HealthSensor s)
{
	switch (s) {
	case HealthSensor::NONE: return "none";
	case HealthSensor::PCI_COMM_ERR: return "PCI_COMM_ERR (reads all ones)";
	case HealthSensor::NIC_DISABLED: return "NIC_DISABLED (nic_interface 1)";
	case HealthSensor::NIC_SW_RESET: return "NIC_SW_RESET (nic_interface 7)";
	case HealthSensor::FW_SYND_RFR: return "FW_SYND_RFR (health syndrome with reset required)";
	}
	return "unknown";
}

const char *nic_state_name(u8 state)
{
	switch (state) {
	case nic_ifc::FULL: return "FULL_DRIVER";
	case nic_ifc::DISABLED: return "DISABLED";
	case nic_ifc::NO_DRAM_NIC: return "NO_DRAM_NIC";
	case nic_ifc::SW_RESET: return "SW_RESET";
	}
	return "unknown";
}

} // namespace cxprm
