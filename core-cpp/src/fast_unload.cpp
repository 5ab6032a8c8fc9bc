// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The shutdown path (device.h, Device::fast_unload): Linux 6.1
 * mlx5_try_fast_unload / mlx5_cmd_fast_teardown_hca (fw.c).  Reboot,
 * poweroff and kexec must leave no firmware page with the device and no
 * device able to write into the next kernel's memory, quickly.
 */
#include "cxprm/device.h"

#include "cxprm/health.h"
#include "cxprm/prm/transport.h"

namespace cxprm {

namespace {

constexpr u32 NIC_POLL_US = 1000;

u8 nic_state(const cxprm_host *h)
{
	u32 l = h->ops->ioread32be(h->ctx, prm::iseg::CMDQ_ADDR_L_SZ);
	return (u8)((l >> prm::iseg::NIC_STATE_SHIFT) & prm::iseg::NIC_STATE_MASK);
}

} // namespace

int Device::fast_unload()
{
	if (state_ != DeviceState::UP || !cmdq_up_ || !hca_initialized_ || !caps_cur_.fast_teardown)
		return E_NOTSUP;
	/* Linux: internal error state -> -EAGAIN, then the normal unload. */
	if (fw_dead())
		return E_HOSTDOWN;

	CmdResult r{};
	u8 st = 0;
	int err = cmd::teardown_hca(cmdq_, cmd::TeardownProfile::PREPARE_FAST, &st, &r);
	if (!err && st != prm::teardown_state::SUCCESS)
		err = E_IO; /* "teardown with fast mode failed" */
	step(Step::TEARDOWN_FAST, err, &r, st);
	if (err) {
		/* A device that let a command time out gets no more of them. */
		if (err == E_TIMEDOUT)
			health_.mark_failed(E_HOSTDOWN, HealthSource::HOST);
		return err;
	}

	/* mlx5_set_nic_state: address bits kept, the low 12 replaced. */
	u32 l = host_->ops->ioread32be(host_->ctx, prm::iseg::CMDQ_ADDR_L_SZ);
	host_->ops->iowrite32be(host_->ctx, prm::iseg::CMDQ_ADDR_L_SZ,
				(l & 0xfffff000u) | ((u32)nic_ifc::DISABLED << prm::iseg::NIC_STATE_SHIFT));
	u64 t0 = host_->ops->now_ns(host_->ctx), waited = 0;
	while (nic_state(host_) != nic_ifc::DISABLED) {
		waited = host_->ops->now_ns(host_->ctx) - t0;
		if (device_gone() || waited > cfg_.fast_teardown_timeout_ns) {
			err = device_gone() ? E_NODEV : E_TIMEDOUT;
			break;
		}
		host_->ops->sleep_us(host_->ctx, NIC_POLL_US);
	}
	step(Step::WAIT_NIC_DISABLED, err, nullptr, (s64)waited);
	/*
	 * Either way the interface is now off or dying: nothing more is sent
	 * (teardown() then only frees what is safe and strands the pages).
	 */
	health_.mark_failed(err == E_NODEV ? E_NODEV : E_HOSTDOWN, HealthSource::HOST);
	if (err)
		return err;
	hca_initialized_ = false;
	hca_enabled_ = false;
	fast_unloaded_ = true;
	return OK;
}

} // namespace cxprm
