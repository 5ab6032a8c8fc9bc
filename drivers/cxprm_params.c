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

/*
 * The unsigned parameter 'name' (0644) in cxprm_<name>, initially def,
 * accepted from lo to hi, and 0 too when zero_ok.
 */
#define CXPRM_UINT_PARAM(name, def, lo, hi, zero_ok_, desc)			\
	unsigned int cxprm_##name = (def);					\
	static struct cxprm_uint_param cxprm_##name##_arg = {			\
		.val = &cxprm_##name, .min = (lo), .max = (hi),			\
		.zero_ok = (zero_ok_),						\
	};									\
	module_param_cb(name, &cxprm_uint_ops, &cxprm_##name##_arg, 0644);	\
	MODULE_PARM_DESC(name, desc)

/* The bool parameter 'name' (0644) in cxprm_<name>, initially def. */
#define CXPRM_BOOL_PARAM(name, def, desc)					\
	bool cxprm_##name = (def);						\
	module_param_named(name, cxprm_##name, bool, 0644);			\
	MODULE_PARM_DESC(name, desc)

CXPRM_UINT_PARAM(poll_interval_ms, 10, 1, 1000, false,
		 "event queue polling interval in ms, 1..1000 (default 10); takes effect at once");

CXPRM_UINT_PARAM(cmd_timeout_ms, 0, 100, 600000, true,
		 "firmware command timeout in ms, 100..600000, or 0 (default): the device's cmd_exec_to, else 60000; read at probe");

CXPRM_BOOL_PARAM(cmd_checksum, false,
		 "command checksums: SET_HCA_CAP cmdif_checksum on when the device offers it, then signatures are written and verified (default 0, as Linux); read at probe");

CXPRM_UINT_PARAM(health_poll_ms, 2000, 0, 60000, false,
		 "health poller interval in ms, 0 (off) or 1..60000 (default 2000, as Linux); read at probe");

CXPRM_UINT_PARAM(health_stall_polls, 3, 1, 1000, false,
		 "health counter unchanged for this many polls = a warning (not fatal), 1..1000 (default 3, as Linux); read at probe");

CXPRM_BOOL_PARAM(allow_raw_write, false,
		 "allow CXPRM_IOC_RAW commands that may change device state, and NVMF backend controllers (firmware DMA to given addresses); also needs CAP_SYS_RAWIO; default 0");

CXPRM_BOOL_PARAM(use_msix, true,
		 "interrupt (MSI-X vector 0) for the async EQ, besides polling, where the device has MSI-X (default 1); read at probe");

CXPRM_BOOL_PARAM(recovery, true,
		 "recover the function by itself after a fatal firmware error, as mlx5_core does (default 1); read when the device comes up");

CXPRM_UINT_PARAM(recovery_attempts, 3, 1, 10, false,
		 "attempts per fatal error before the device stays failed, 1..10 (default 3); read when the device comes up");

CXPRM_UINT_PARAM(recovery_grace_ms, 0, 1, 3600000, true,
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
