/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cxprm's module parameters, defined in cxprm_params.c.  Each is read with
 * READ_ONCE(); "read at probe" ones take effect for devices bound later.
 */
#ifndef CXPRM_PARAMS_H
#define CXPRM_PARAMS_H

#include <linux/types.h>

/* Command completion: by polling the ownership bit, or by CMD events. */
enum cxprm_cmd_mode {
	CXPRM_CMD_MODE_POLL,
	CXPRM_CMD_MODE_EVENTS,
};

extern int cxprm_cmd_mode;			/* enum cxprm_cmd_mode */
extern unsigned int cxprm_poll_interval_ms;	/* takes effect at once */
extern unsigned int cxprm_cmd_timeout_ms;	/* 0: the device's */
extern bool cxprm_cmd_checksum;
extern unsigned int cxprm_health_poll_ms;	/* 0: no health poller */
extern unsigned int cxprm_health_stall_polls;
extern bool cxprm_allow_raw_write;
extern bool cxprm_use_msix;
extern bool cxprm_recovery;
extern unsigned int cxprm_recovery_attempts;
extern unsigned int cxprm_recovery_grace_ms;	/* 0: mlx5_core's */

#endif /* CXPRM_PARAMS_H */
