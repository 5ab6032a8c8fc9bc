// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The automatic recovery (capi_recover.h): the steps of Linux's
 * mlx5_health_try_recover with the host's part behind its ops, and what
 * each open file forgets.  Timeouts are Linux's (lib/tout.c): PCI_TOGGLE
 * 2 s for the firmware reset to show, FW_RESET 60 s for reads to work
 * again, wait_vital 100 polls of 50 ms for the health counter.
 */
#include "cxprm/capi.h"

#include "cxprm/errors.h"
#include "cxprm/health.h"
#include "cxprm/prm/transport.h"
#include "cxprm/text.h"
#include "cxprm/types.h"

#include "capi_core.h"
#include "objects_table.h"

using namespace cxprm;

static_assert((int)Recovery::RUNNING == CXPRM_RECOVERY_RUNNING && (int)Recovery::DONE == CXPRM_RECOVERY_DONE &&
	      (int)Recovery::GONE == CXPRM_RECOVERY_GONE && (int)Recovery::AGAIN == CXPRM_RECOVERY_AGAIN &&
	      (int)Recovery::CANCELED == CXPRM_RECOVERY_CANCELED);

namespace {

constexpr u64 MS = 1000ull * 1000;
constexpr u64 PCI_TOGGLE_NS = 2000 * MS;   /* MLX5_TO_PCI_TOGGLE_MS */
constexpr u64 FW_RESET_NS = 60000 * MS;    /* MLX5_TO_FW_RESET_MS */
constexpr u32 VITAL_POLLS = 100;           /* main.c wait_vital: niter */
constexpr u32 VITAL_POLL_US = 50 * 1000;
constexpr u32 PCI_POLL_US = 100 * 1000;    /* mlx5_health_wait_pci_up */
constexpr u32 NIC_POLL_US = 20 * 1000;     /* mlx5_error_sw_reset */
constexpr u8 NIC_DISABLED = 1, NIC_SW_RESET = 7;

struct Run {
	cxprm_core *c;
	const cxprm_core_recover_ops *ops;
	void *ctx;

	const cxprm_host *h() const { return c->host; }
	u64 now() const { return h()->ops->now_ns(h()->ctx); }
	void sleep_us(u32 us) const { h()->ops->sleep_us(h()->ctx, us); }
	u32 rd(u32 off) const { return h()->ops->ioread32be(h()->ctx, off); }
	void log(int level, const char *msg) const
	{
		if (h()->ops->log)
			h()->ops->log(h()->ctx, level, msg);
	}
	void exclusive(bool on) const
	{
		if (ops->exclusive)
			ops->exclusive(ctx, on);
	}
	void report(u8 sub, const HealthStatus &s) const
	{
		if (!ops->report)
			return;
		u8 d[CXPRM_CORE_EQE_DATA] = {};
		store_be32(d + 0, s.recoveries);
		store_be32(d + 4, s.recovery);
		store_be32(d + 8, s.attempts);
		store_be32(d + 12, (u32)s.recovery_err);
		ops->report(ctx, sub, d);
	}
	u8 nic_state() const { return (rd(prm::iseg::CMDQ_ADDR_L_SZ) >> prm::iseg::NIC_STATE_SHIFT) & prm::iseg::NIC_STATE_MASK; }
};

/*
 * Linux mlx5_error_sw_reset: after a firmware error with rfr, a function
 * whose firmware offers it (fw_reset_supported) asks for the reset by
 * writing nic_interface SW_RESET, keeping the queue address bits of that
 * dword; a VF leaves it to its PF (lock_sem_sw_reset is the PF's).  Then
 * nic_interface is waited for to read DISABLED (the reset happened).
 */
void fw_reset(const Run &r, bool is_vf)
{
	HealthRead hr = health_read(r.h());
	u32 init = r.rd(prm::iseg::INITIALIZING);
	bool supported = prm::from_dword<prm::initial_seg::fw_reset_supported>(init);
	if (!is_vf && supported && health_fatal_sensor(hr) == HealthSensor::FW_SYND_RFR) {
		u32 v = r.rd(prm::iseg::CMDQ_ADDR_L_SZ);
		v &= ~((u32)prm::iseg::NIC_STATE_MASK << prm::iseg::NIC_STATE_SHIFT);
		v |= (u32)NIC_SW_RESET << prm::iseg::NIC_STATE_SHIFT;
		r.log(1, "recovery: asking the firmware for a reset (nic_interface SW_RESET)");
		r.h()->ops->iowrite32be(r.h()->ctx, prm::iseg::CMDQ_ADDR_L_SZ, v);
	}
	u64 end = r.now() + PCI_TOGGLE_NS;
	while (r.nic_state() != NIC_DISABLED && r.now() < end && r.rd(prm::iseg::FW_REV) != ~0u)
		r.sleep_us(NIC_POLL_US);
	if (r.nic_state() != NIC_DISABLED) {
		char buf[96];
		Text t(buf, sizeof(buf));
		t.str("recovery: nic_interface still ").dec(r.nic_state()).str(" after 2000 ms");
		r.log(1, t.c_str());
	}
}

/*
 * mlx5_health_wait_pci_up, then main.c wait_vital: reads that are not all
 * ones, then a health counter that is neither 0 nor all ones and moves.
 */
int wait_ready(const Run &r, u64 timeout_ns)
{
	u64 end = r.now() + (timeout_ns ? timeout_ns : FW_RESET_NS);
	while (r.rd(prm::iseg::FW_REV) == ~0u) {
		if (r.now() >= end)
			return E_NODEV;
		r.sleep_us(PCI_POLL_US);
	}
	u32 last = 0;
	for (u32 i = 0; i < VITAL_POLLS; i++) {
		u32 count = health_read(r.h()).counter;
		if (count && count != 0xffffffu) {
			if (last && last != count)
				return OK;
			last = count;
		}
		r.sleep_us(VITAL_POLL_US);
	}
	return E_TIMEDOUT;
}

/* One attempt: Recovery::DONE, or why not (err: the failing step's errno). */
Recovery attempt(const Run &r, const cxprm_core_config *cfg, const cxprm_core_recovery_config &rc,
		 int *err)
{
	bool is_vf = cfg && (cfg->flags & CXPRM_CORE_CFG_VF);
	r.exclusive(true);
	r.ops->quiesce(r.ctx);
	fw_reset(r, is_vf);
	/* The device is failed: the teardown sends nothing, the pages stay lent. */
	cxprm_core_teardown(r.c, nullptr);
	r.ops->bus_master(r.ctx, 0);
	cxprm_core_release_stranded(r.c);
	r.ops->bus_master(r.ctx, 1);
	r.exclusive(false);

	*err = wait_ready(r, rc.ready_timeout_ns);
	if (*err)
		return Recovery::NOT_READY;
	r.exclusive(true);
	*err = cxprm_core_bringup(r.c, cfg);
	Recovery out = *err ? Recovery::BRINGUP : Recovery::DONE;
	/* Linux: mlx5_recover_device || mlx5_health_check_fatal_sensors. */
	if (!*err && health_fatal_sensor(health_read(r.h())) != HealthSensor::NONE) {
		*err = E_HOSTDOWN;
		out = Recovery::AGAIN;
	}
	if (out == Recovery::DONE)
		r.ops->restart(r.ctx);
	r.exclusive(false);
	return out;
}

} // namespace

extern "C" {

void cxprm_core_set_recovery(cxprm_core *c, const cxprm_core_recovery_config *cfg)
{
	if (!c || !cfg)
		return;
	c->recovery = *cfg;
	RecoveryPolicy p;
	p.enabled = cfg->enabled != 0;
	p.max_attempts = cfg->max_attempts;
	p.grace_ns = cfg->grace_ns;
	c->dev.health().set_recovery(c->host, p);
}

void cxprm_core_fail(cxprm_core *c)
{
	if (c)
		c->dev.health().mark_failed(E_HOSTDOWN, HealthSource::HOST);
}

int cxprm_core_wait_ready(cxprm_core *c, cxprm_u64 timeout_ns)
{
	if (!c)
		return E_INVAL;
	static const cxprm_core_recover_ops none{};
	return wait_ready(Run{c, &none, nullptr}, timeout_ns);
}

int cxprm_core_recovering(cxprm_core *c)
{
	return c && c->dev.health().recovery() == Recovery::RUNNING;
}

int cxprm_core_request_recovery(cxprm_core *c)
{
	return c ? c->dev.health().request_recovery() : E_INVAL;
}

void cxprm_core_recovery_cancel(cxprm_core *c)
{
	if (c)
		c->dev.health().cancel_recovery();
}

int cxprm_core_recover(cxprm_core *c, const cxprm_core_config *cfg, const cxprm_core_recover_ops *ops,
		       void *ctx)
{
	if (!c || !ops || !ops->quiesce || !ops->bus_master || !ops->restart)
		return E_INVAL;
	Health &hl = c->dev.health();
	if (hl.recovery() != Recovery::RUNNING)
		return E_INVAL;
	const Run r{c, ops, ctx};
	u32 max = hl.recovery_policy().max_attempts;
	Recovery out = Recovery::NOT_READY;
	int err = E_HOSTDOWN;
	for (u32 n = 1; n <= max; n++) {
		hl.recovery_attempt(n);
		r.report(CXPRM_HEALTH_RECOVERING, hl.status());
		char buf[96];
		Text t(buf, sizeof(buf));
		t.str("recovery: attempt ").dec(n).str(" of ").dec(max);
		r.log(1, t.c_str());
		out = attempt(r, cfg, c->recovery, &err);
		if (out == Recovery::DONE)
			break;
	}
	hl.end_recovery(out, err);
	HealthStatus s = hl.status();
	r.report(out == Recovery::DONE ? CXPRM_HEALTH_RECOVERED : CXPRM_HEALTH_RECOVERY_FAILED, s);
	return out == Recovery::DONE ? OK : err;
}

void cxprm_core_file_forget(cxprm_core *c, cxprm_core_file *f)
{
	if (!c || !f)
		return;
	cxprm_core_dcts *t = &f->dcts;
	if (t->lock)
		t->lock(t);
	while (t->n)
		capi::lost_push(t->lost, t->lost_n, CXPRM_CORE_FILE_MAX_DCTS, t->dctn[--t->n]);
	if (t->unlock)
		t->unlock(t);
	if (f->objs)
		capi::objs_forget(c, f->objs);
}

} // extern "C"
