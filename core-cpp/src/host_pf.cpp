// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The external host PF of a BlueField's Arm side (device.h,
 * Device::enable_host_pf).  Linux 6.1 eswitch.c host_pf_enable_hca: "Enabling
 * HCA clears the iser->initializing bit and host PF driver loading can
 * progress" -- without it the host's mlx5_core waits 120 s and fails.
 * Linux sends it from mlx5_eswitch_enable_pf_vf_vports (an ECPF eswitch
 * manager) or mlx5_ec_init (ecpf.c, any other ECPF), always after its EQs
 * exist, and DISABLE_HCA for it at unload.
 */
#include "cxprm/device.h"

#include "cxprm/commands/hca.h"

namespace cxprm {

namespace {
constexpr cmd::FunctionRef HOST_PF{0, false}; // function_id 0, embedded_cpu_function 0
}

int Device::enable_host_pf()
{
	if (!ecpf_ || state_ != DeviceState::UP || !hca_initialized_ || host_pf_enabled_)
		return OK;
	CmdResult r{};
	int err = cmd::enable_hca(cmdq_, HOST_PF, &r);
	step(Step::ENABLE_HOST_PF, err, &r);
	host_pf_enabled_ = err == OK;
	return err;
}

void Device::disable_host_pf()
{
	if (!host_pf_enabled_)
		return;
	host_pf_enabled_ = false;
	/* Dead firmware, or a queue closed by it or by a fast teardown (which
	 * let go of the host PF with the rest): nothing to send. */
	if (fw_dead())
		return;
	CmdResult r{};
	step(Step::DISABLE_HOST_PF, cmd::disable_hca(cmdq_, HOST_PF, &r), &r);
}

} // namespace cxprm
