// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The eswitch as an ECPF eswitch manager sees it (served only to an ECPF,
// FunctionsProfile::embedded_cpu, unless EswProfile::ecpf_only is off): QUERY_ESW_FUNCTIONS
// reports the host PF's situation (host_params_context) and
// ESW_FUNCTIONS_CHANGED (0x0e, no payload) tells it to look again.  Only
// offered when the profile has eswitch support and the capabilities say so
// (general eswitch_manager and e_switch_cap esw_functions_changed);
// otherwise the opcode answers BAD_OP.
#include "emu_device.h"

#include "cxprm/prm/esw.h"

namespace cxprm::emu {

using prm::host_params_context;
using prm::Ref;

Result Device::query_esw_functions(Cmd &c)
{
	if (!prof_.esw.supported || !cap_cur<prm::cmd_hca_cap::eswitch_manager>() ||
	    !cap_cur<prm::e_switch_cap::esw_functions_changed>())
		return fail(synd::ESW_NOT_MANAGER);
	if (prof_.esw.ecpf_only && !prof_.functions.embedded_cpu)
		return fail(synd::ESW_NOT_ECPF);
	Ref<host_params_context> h =
		prm::sub<prm::query_esw_functions_out::host_params_context, host_params_context>(
			Ref<prm::query_esw_functions_out>(c.out));
	prm::set<host_params_context::host_number>(h, prof_.esw.host_number);
	prm::set<host_params_context::host_pf_disabled>(h, prof_.esw.pf_disabled);
	prm::set<host_params_context::host_num_of_vfs>(h, num_vfs);
	prm::set<host_params_context::host_total_vfs>(h, prof_.esw.total_vfs);
	prm::set<host_params_context::host_pci_bus>(h, prof_.esw.pci_bus);
	prm::set<host_params_context::host_pci_device>(h, prof_.esw.pci_device);
	prm::set<host_params_context::host_pci_function>(h, prof_.esw.pci_function);
	return Result::ok();
}

bool Device::set_num_vfs(uint16_t n)
{
	if (!prof_.esw.supported || n > prof_.esw.total_vfs)
		return false;
	// The external host's VFs exist only behind an ECPF eswitch manager.
	if (prof_.esw.ecpf_only && !prof_.functions.embedded_cpu)
		return false;
	num_vfs = n;
	post_event(prm::event::ESW_FUNCTIONS_CHANGED, 0, nullptr);
	return true;
}

} // namespace cxprm::emu
