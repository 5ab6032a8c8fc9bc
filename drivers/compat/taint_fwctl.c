// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: TAINT_FWCTL (7.x, with fwctl): the taint fwctl sets when a
 * debug write scope is used.  cxprm_compat.h: CXPRM_TAINT_RAW_WRITE.
 */
#include <linux/kernel.h>

int cxprm_probe_taint_fwctl(void);
int cxprm_probe_taint_fwctl(void)
{
	return TAINT_FWCTL;
}
