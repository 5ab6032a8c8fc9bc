/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Automatic recovery in the C facade (capi.h includes it; recover.cpp):
 * after a fatal firmware error the device is brought back as Linux's
 * mlx5_core does it (health.c mlx5_health_try_recover, main.c
 * mlx5_recover_device):
 *
 *   1. commands in flight have failed (the device's Health is failed);
 *      the host stops its poller and events, and every open file forgets
 *      its firmware objects (cxprm_core_file_forget);
 *   2. a firmware reset is asked for where the firmware offers it
 *      (mlx5_error_sw_reset: health buffer rfr, init segment
 *      fw_reset_supported, nic_interface SW_RESET), and nic_interface is
 *      waited for to read DISABLED (PCI_TOGGLE, 2 s);
 *   3. the teardown, which sends nothing to a failed device; bus
 *      mastering off, the pages and queues the firmware had freed, bus
 *      mastering on (mlx5_pci_disable_device, mlx5_pci_slot_reset);
 *   4. the device ready again: reads that are not all ones (FW_RESET,
 *      60 s) and a health counter that moves (wait_vital, 5 s);
 *   5. the bring-up, which waits for 'initializing' to clear (its
 *      init_timeout), and the fatal sensors read once more;
 *   6. the host starts its events and poller again.
 *
 * A bounded number of attempts; the device's Health says RECOVERING
 * meanwhile, then HEALTHY, or FAILED for good with the reason
 * (enum cxprm_recovery).  Documentation/faults.rst, "Recovery".
 */
#ifndef CXPRM_CAPI_RECOVER_H
#define CXPRM_CAPI_RECOVER_H

#ifndef CXPRM_CAPI_H
#error "include cxprm/capi.h"
#endif

struct cxprm_core_recovery_config {
	cxprm_u32 enabled;          /* 0: a fatal error leaves the device failed */
	cxprm_u32 max_attempts;     /* per fatal error (0: 1) */
	cxprm_u64 grace_ns;         /* an error this soon after a recovery is not recovered */
	cxprm_u64 ready_timeout_ns; /* reads not all ones again (0: 60 s, Linux FW_RESET) */
};

/* The rules, before the first bring-up (kept across bring-ups; no sleep). */
void cxprm_core_set_recovery(struct cxprm_core *core,
			     const struct cxprm_core_recovery_config *cfg);

/* What the host does for the recovery, called from cxprm_core_recover()'s context. */
struct cxprm_core_recover_ops {
	/* on: nothing else uses the core until off (the kernel: its rwsem for writing). */
	void (*exclusive)(void *ctx, int on);
	/*
	 * Under exclusive: the poller and events stopped (cxprm_core_events_stop
	 * and the interrupt), every open file's objects forgotten
	 * (cxprm_core_file_forget).
	 */
	void (*quiesce)(void *ctx);
	/* Bus mastering off (0) or on (1): while off the function writes no memory. */
	void (*bus_master)(void *ctx, int on);
	/* Under exclusive, the device up again: events and the poller started. */
	void (*restart)(void *ctx);
	/*
	 * A CXPRM_EVENT_HEALTH record for the files (sub_type
	 * CXPRM_HEALTH_RECOVERING/_RECOVERED/_RECOVERY_FAILED, data as the
	 * UAPI says).  Not under exclusive.
	 */
	void (*report)(void *ctx, cxprm_u8 sub_type, const cxprm_u8 *data);
};

/*
 * The recovery the core asked for (health_changed's 'recover'), from a
 * context that may sleep, with cfg the bring-up's configuration.  Returns
 * 0 once the device is up again, else the last attempt's errno (the device
 * stays failed); E_INVAL when no recovery is due.  Bounded: max_attempts
 * times (2 s + ready_timeout + 5 s + the bring-up's own bounds).
 */
int cxprm_core_recover(struct cxprm_core *core, const struct cxprm_core_config *cfg,
		       const struct cxprm_core_recover_ops *ops, void *ctx);

/*
 * The admin asks for a recovery now (Linux: devlink health recover of the
 * fw_fatal reporter): a device failed with dead firmware gets RUNNING
 * whatever the policy and the grace period say, and the caller then runs
 * cxprm_core_recover() itself.  0, -EBUSY (one runs), -ENODEV (gone) or
 * -EINVAL (the device has not failed).  No sleep.
 */
int cxprm_core_request_recovery(struct cxprm_core *core);

/*
 * A recovery that was due will not run: the host took the device out of
 * service first (remove, suspend, a PCI error); INFO says CANCELED.
 */
void cxprm_core_recovery_cancel(struct cxprm_core *core);

/*
 * The host found the device unusable (a PCI error): failed as for dead
 * firmware (commands fail at once, a waiting one is woken), never
 * recovered by the core: the host brings it back (no sleep).
 */
void cxprm_core_fail(struct cxprm_core *core);

/*
 * Step 4 alone (a PCI slot reset): reads that are not all ones within
 * timeout_ns (0: 60 s), then a moving health counter (5 s).  0, -ENODEV
 * or -ETIMEDOUT.
 */
int cxprm_core_wait_ready(struct cxprm_core *core, cxprm_u64 timeout_ns);

/* 1 while a recovery is due or runs (no lock, no sleep). */
int cxprm_core_recovering(struct cxprm_core *core);

/*
 * The firmware lost every object of file f (a recovery, a suspend): its
 * DCTs and objects are remembered as lost, so that an ioctl naming one
 * gets -ESTALE, and their queue memory waits for
 * cxprm_core_release_stranded().  No command; nothing else may use f's
 * tables meanwhile.
 */
void cxprm_core_file_forget(struct cxprm_core *core, struct cxprm_core_file *f);

#endif /* CXPRM_CAPI_RECOVER_H */
