// SPDX-License-Identifier: GPL-2.0
/*
 * cxprm's module parameters (declared in cxprm_params.h): their values,
 * ranges and descriptions.  A value out of range fails the load or the
 * write to /sys/module/cxprm/parameters/.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "cxprm.h"
#include "cxprm_params.h"

static const char * const cxprm_cmd_mode_names[] = {
	[CXPRM_CMD_MODE_POLL] = "poll",
	[CXPRM_CMD_MODE_EVENTS] = "events",
};

int cxprm_cmd_mode = CXPRM_CMD_MODE_POLL;

static int cxprm_param_set_cmd_mode(const char *val,
				    const struct kernel_param *kp)
{
	int i = sysfs_match_string(cxprm_cmd_mode_names, val);

	if (i < 0) {
		pr_err("cmd_mode=%s: must be 'poll' or 'events'\n", val);
		return -EINVAL;
	}
	WRITE_ONCE(*(int *)kp->arg, i);
	return 0;
}

static int cxprm_param_get_cmd_mode(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n",
			 cxprm_cmd_mode_names[READ_ONCE(*(int *)kp->arg)]);
}

static const struct kernel_param_ops cxprm_cmd_mode_ops = {
	.set = cxprm_param_set_cmd_mode,
	.get = cxprm_param_get_cmd_mode,
};

module_param_cb(cmd_mode, &cxprm_cmd_mode_ops, &cxprm_cmd_mode, 0644);
MODULE_PARM_DESC(cmd_mode,
		 "command completion: poll (ownership bit, default) or events (CMD events on the async EQ); read at probe");

/* An unsigned parameter with a range; a value outside it fails the load. */
struct cxprm_uint_param {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
	bool zero_ok;		/* 0 is also accepted (means "the default") */
};

static int cxprm_param_set_uint(const char *val, const struct kernel_param *kp)
{
	const struct cxprm_uint_param *p = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 0, &v) ||
	    ((v < p->min || v > p->max) && !(v == 0 && p->zero_ok))) {
		pr_err("%s=%s: must be an integer from %u to %u%s\n",
		       kp->name, val, p->min, p->max,
		       p->zero_ok ? ", or 0" : "");
		return -EINVAL;
	}
	WRITE_ONCE(*p->val, v);
	return 0;
}

static int cxprm_param_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct cxprm_uint_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%u\n", READ_ONCE(*p->val));
}

static const struct kernel_param_ops cxprm_uint_ops = {
	.set = cxprm_param_set_uint,
	.get = cxprm_param_get_uint,
};

unsigned int cxprm_poll_interval_ms = 10;
static struct cxprm_uint_param cxprm_poll_interval_arg = {
	.val = &cxprm_poll_interval_ms, .min = 1, .max = 1000,
};
module_param_cb(poll_interval_ms, &cxprm_uint_ops, &cxprm_poll_interval_arg,
		0644);
MODULE_PARM_DESC(poll_interval_ms,
		 "event queue polling interval in ms, 1..1000 (default 10); takes effect at once");

unsigned int cxprm_cmd_timeout_ms;
static struct cxprm_uint_param cxprm_cmd_timeout_arg = {
	.val = &cxprm_cmd_timeout_ms, .min = 100, .max = 600000, .zero_ok = true,
};
module_param_cb(cmd_timeout_ms, &cxprm_uint_ops, &cxprm_cmd_timeout_arg,
		0644);
MODULE_PARM_DESC(cmd_timeout_ms,
		 "firmware command timeout in ms, 100..600000, or 0 (default): the device's cmd_exec_to, else 60000; read at probe");

bool cxprm_cmd_checksum;
module_param_named(cmd_checksum, cxprm_cmd_checksum, bool, 0644);
MODULE_PARM_DESC(cmd_checksum,
		 "command checksums: SET_HCA_CAP cmdif_checksum on when the device offers it, then signatures are written and verified (default 0, as Linux); read at probe");

unsigned int cxprm_health_poll_ms = 2000;
static struct cxprm_uint_param cxprm_health_poll_arg = {
	.val = &cxprm_health_poll_ms, .min = 0, .max = 60000,
};
module_param_cb(health_poll_ms, &cxprm_uint_ops, &cxprm_health_poll_arg,
		0644);
MODULE_PARM_DESC(health_poll_ms,
		 "health poller interval in ms, 0 (off) or 1..60000 (default 2000, as Linux); read at probe");

unsigned int cxprm_health_stall_polls = 3;
static struct cxprm_uint_param cxprm_health_stall_arg = {
	.val = &cxprm_health_stall_polls, .min = 1, .max = 1000,
};
module_param_cb(health_stall_polls, &cxprm_uint_ops, &cxprm_health_stall_arg,
		0644);
MODULE_PARM_DESC(health_stall_polls,
		 "health counter unchanged for this many polls = a warning (not fatal), 1..1000 (default 3, as Linux); read at probe");

bool cxprm_allow_raw_write;
module_param_named(allow_raw_write, cxprm_allow_raw_write, bool, 0644);
MODULE_PARM_DESC(allow_raw_write,
		 "allow CXPRM_IOC_RAW commands that may change device state, and NVMF backend controllers (firmware DMA to given addresses); also needs CAP_SYS_RAWIO; default 0");

bool cxprm_use_msix = true;
module_param_named(use_msix, cxprm_use_msix, bool, 0644);
MODULE_PARM_DESC(use_msix,
		 "interrupt (MSI-X vector 0) for the async EQ, besides polling, where the device has MSI-X (default 1); read at probe");


bool cxprm_recovery = true;
module_param_named(recovery, cxprm_recovery, bool, 0644);
MODULE_PARM_DESC(recovery,
		 "recover the function by itself after a fatal firmware error, as mlx5_core does (default 1); read when the device comes up");

unsigned int cxprm_recovery_attempts = 3;
static struct cxprm_uint_param cxprm_recovery_attempts_arg = {
	.val = &cxprm_recovery_attempts, .min = 1, .max = 10,
};
module_param_cb(recovery_attempts, &cxprm_uint_ops,
		&cxprm_recovery_attempts_arg, 0644);
MODULE_PARM_DESC(recovery_attempts,
		 "attempts per fatal error before the device stays failed, 1..10 (default 3); read when the device comes up");

unsigned int cxprm_recovery_grace_ms;
static struct cxprm_uint_param cxprm_recovery_grace_arg = {
	.val = &cxprm_recovery_grace_ms, .min = 1, .max = 3600000,
	.zero_ok = true,
};
module_param_cb(recovery_grace_ms, &cxprm_uint_ops, &cxprm_recovery_grace_arg,
		0644);
MODULE_PARM_DESC(recovery_grace_ms,
		 "a fatal error this soon after a recovery is not recovered, 1..3600000 ms; 0 (default): mlx5_core's fw_fatal grace period, 180000 for an ECPF, 60000 for a PF, 30000 for a VF; read when the device comes up");

/* The bring-up's configuration (probe, a recovery, a resume). */
void cxprm_bringup_config(struct cxprm_dev *cx, struct cxprm_core_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->cmd_timeout_ns = (u64)READ_ONCE(cxprm_cmd_timeout_ms) *
			      NSEC_PER_MSEC;
	cfg->health_stall_polls = READ_ONCE(cxprm_health_stall_polls);
	/* Linux set_hca_ctrl: HOST_ENDIANNESS is written by a PF only. */
	if (cx->is_vf)
		cfg->flags |= CXPRM_CORE_CFG_VF;
	/* Linux handle_hca_cap: cache_line_128byte from the host's line. */
	if (cache_line_size() >= 128)
		cfg->flags |= CXPRM_CORE_CFG_CACHE_LINE_128;
	if (READ_ONCE(cxprm_cmd_checksum))
		cfg->flags |= CXPRM_CORE_CFG_CHECKSUM;
}
