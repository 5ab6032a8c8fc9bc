// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The C facade's view of the init segment for the shim (capi.h
 * cxprm_core_read_iseg_rev, cxprm_core_iseg_doorbell_offset): the offsets
 * and fields of prm::initial_seg, so the C side declares none of its own.
 */
#include "capi_core.h"

using namespace cxprm;
using capi::read_iseg;

extern "C" {

void cxprm_core_read_iseg_rev(const cxprm_host *host, cxprm_core_iseg_rev *rev)
{
	if (!rev)
		return;
	*rev = {};
	if (!host)
		return;
	using I = prm::initial_seg;
	/* fw_rev: minor then major; cmdif: cmd_interface_rev then subminor. */
	rev->fw_rev = read_iseg(host, prm::iseg::FW_REV);
	rev->cmdif_rev = read_iseg(host, prm::iseg::CMDIF_REV);
	rev->major = prm::from_dword<I::fw_rev_major>(rev->fw_rev);
	rev->minor = prm::from_dword<I::fw_rev_minor>(rev->fw_rev);
	rev->subminor = prm::from_dword<I::fw_rev_subminor>(rev->cmdif_rev);
	rev->cmd_interface_rev = prm::from_dword<I::cmd_interface_rev>(rev->cmdif_rev);
}

cxprm_u32 cxprm_core_iseg_doorbell_offset(void) { return prm::iseg::DOORBELL; }

} // extern "C"
