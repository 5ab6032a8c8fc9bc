// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Firmware health (health.h): the fatal sensors as Linux's health.c checks
// them, and the command engine's health poller (Cmdq::health_poll, with
// Cmdq::mark_failed and Cmdq::device_gone; the engine keeps failed_): fatal
// sensors fail the device; a syndrome without rfr and a stalled health
// counter are counted as reports for the host to pass on, the device keeps
// working.
#include "cxprm/health.h"

#include "cxprm/cmdq.h"
#include "cxprm/prm/transport.h"
#include "cxprm/status.h"
#include "cxprm/text.h"

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

int Cmdq::check_fatal()
{
	HealthRead r = health_read(host_);
	HealthSensor s = health_fatal_sensor(r);
	if (s == HealthSensor::NONE)
		return OK;
	int err = health_sensor_err(s);
	bool first = failed() == OK;
	mark_failed(err);
	if (first && failed() == err) {
		__atomic_store_n(&sensor_, (u8)s, __ATOMIC_RELAXED);
		char buf[160];
		Text t(buf, sizeof(buf));
		t.str("cmdq: fatal health sensor ").str(health_sensor_name(s)).str(": synd ").hex(r.synd, 2);
		t.str(" rfr ").dec(r.rfr).str(" nic_interface ").dec(r.nic_state);
		log(0, t.c_str());
	}
	return failed();
}

bool Cmdq::device_gone() const
{
	return host_->ops->ioread32be(host_->ctx, prm::iseg::FW_REV) == 0xffffffffu;
}

void Cmdq::mark_failed(int err)
{
	if (err != E_NODEV && err != E_HOSTDOWN)
		return;
	int cur = OK;
	/* The first failure sticks; only "gone" replaces "dead firmware". */
	if (!__atomic_compare_exchange_n(&failed_, &cur, err, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		if (cur != E_HOSTDOWN || err != E_NODEV ||
		    !__atomic_compare_exchange_n(&failed_, &cur, err, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return;
	}
	if (!page_.cpu)
		return;
	/* Wake every waiter; each sees failed_ and returns at once. */
	for (u32 i = 0; i < nent_; i++)
		if (slots_[i].waiter)
			host_->ops->waiter_signal(host_->ctx, slots_[i].waiter);
	if (cur == OK)
		log(0, err == E_NODEV ? "cmdq: device gone (fw_rev reads all ones): device failed, "
					"every command now fails with ENODEV"
				      : "cmdq: firmware dead (fatal health sensor): "
					"device failed, every command now fails with EHOSTDOWN");
}

int Cmdq::health_poll()
{
	if (!page_.cpu)
		return failed();
	health_polls_++;
	HealthRead r = health_read(host_);
	HealthSensor s = health_fatal_sensor(r);
	last_ = r;
	if (s == HealthSensor::PCI_COMM_ERR || (s != HealthSensor::NONE && !failed())) {
		if (failed() == OK || (failed() == E_HOSTDOWN && s == HealthSensor::PCI_COMM_ERR))
			__atomic_store_n(&sensor_, (u8)s, __ATOMIC_RELAXED);
		mark_failed(health_sensor_err(s));
		return failed();
	}
	if (failed())
		return failed();
	/*
	 * Linux poll_health(): a miss is a poll that finds the counter where
	 * the last one left it; the warning fires once, when the misses reach
	 * the limit, and again only after the counter moved.
	 */
	if (have_counter_ && r.counter == last_counter_) {
		stalled_polls_++;
		if (cfg_.health_stall_polls && stalled_polls_ == cfg_.health_stall_polls) {
			__atomic_add_fetch(&stall_reports_, 1, __ATOMIC_RELAXED);
			log(1, "cmdq: health counter stalled (firmware may be hung); the device is kept, "
			       "commands still go to it");
		}
	} else {
		stalled_polls_ = 0;
	}
	last_counter_ = r.counter;
	have_counter_ = true;
	/* A new syndrome without rfr: reported, not fatal (Linux: devlink report). */
	if (r.synd && r.synd != last_synd_) {
		__atomic_add_fetch(&synd_reports_, 1, __ATOMIC_RELAXED);
		char buf[160];
		Text t(buf, sizeof(buf));
		t.str("cmdq: health syndrome ").hex(r.synd, 2).chr(' ').str(health_syndrome_name(r.synd));
		t.str(" without rfr (ext_synd ").hex(r.ext_synd, 4).str("): reported, the device is kept");
		log(1, t.c_str());
	}
	last_synd_ = r.synd;
	return failed();
}

HealthStatus Cmdq::health() const
{
	HealthStatus s{};
	s.failed = failed();
	s.syndrome = last_.synd;
	s.rfr = last_.rfr;
	s.ext_synd = last_.ext_synd;
	s.nic_state = last_.nic_state;
	s.counter = last_counter_;
	s.stalled_polls = stalled_polls_;
	s.polls = health_polls_;
	s.refused = __atomic_load_n(&refused_, __ATOMIC_RELAXED);
	s.sensor = __atomic_load_n(&sensor_, __ATOMIC_RELAXED);
	s.stall_reports = __atomic_load_n(&stall_reports_, __ATOMIC_RELAXED);
	s.synd_reports = __atomic_load_n(&synd_reports_, __ATOMIC_RELAXED);
	return s;
}

} // namespace cxprm
