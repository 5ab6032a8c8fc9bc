// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Adapter profiles.  Capability images are built field by field through the
// layout layer; the values are typical of the named adapters' published
// capability dumps, not copied from any one device.
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm_emu/emulator.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"

namespace cxprm::emu {

namespace {

using cap = prm::cmd_hca_cap;
namespace ct = prm::cap;

// Sets field F to v in both images.
template <class F> void both(CapImages &img, uint64_t v)
{
	using L = typename F::layout;
	prm::set<F>(prm::Ref<L>(img.max.data()), v);
	prm::set<F>(prm::Ref<L>(img.cur.data()), v);
}

template <class F> void split(CapImages &img, uint64_t max, uint64_t cur)
{
	using L = typename F::layout;
	prm::set<F>(prm::Ref<L>(img.max.data()), max);
	prm::set<F>(prm::Ref<L>(img.cur.data()), cur);
}

// What ConnectX-5 and -7 share.
void general_common(CapImages &g)
{
	both<cap::log_max_srq_sz>(g, 15);
	both<cap::log_max_qp_sz>(g, 15);
	split<cap::log_max_qp>(g, 18, 17);
	both<cap::log_max_srq>(g, 23);
	both<cap::log_max_cq_sz>(g, 22);
	both<cap::log_max_cq>(g, 24);
	both<cap::log_max_eq_sz>(g, 22);
	both<cap::log_max_mkey>(g, 24);
	both<cap::fast_teardown>(g, 1);
	both<cap::force_teardown>(g, 1);
	both<cap::max_indirection>(g, 4);
	both<cap::log_max_mrw_sz>(g, 64);
	both<cap::log_max_klm_list_size>(g, 16);
	both<cap::log_max_ra_req_dc>(g, 4);
	both<cap::log_max_ra_res_dc>(g, 4);
	both<cap::log_max_ra_req_qp>(g, 4);
	both<cap::log_max_ra_res_qp>(g, 4);
	split<cap::release_all_pages>(g, 1, 0);
	split<cap::cache_line_128byte>(g, 1, 0);
	both<cap::gid_table_size>(g, 0);
	both<cap::vport_counters>(g, 1);
	both<cap::max_qp_cnt>(g, 64);
	both<cap::pkey_table_size>(g, 0); // 128 entries
	both<cap::vport_group_manager>(g, 1);
	both<cap::vhca_group_manager>(g, 1);
	both<cap::eth_virt>(g, 1);
	both<cap::ets>(g, 1);
	both<cap::nic_flow_table>(g, 1);
	both<cap::eswitch_manager>(g, 1);
	both<cap::mcam_reg>(g, 1);
	both<cap::pcam_reg>(g, 1);
	both<cap::local_ca_ack_delay>(g, 16);
	both<cap::port_module_event>(g, 1);
	both<cap::port_type>(g, prm::port_type::ETH);
	both<cap::num_ports>(g, 1);
	both<cap::pps>(g, 1);
	both<cap::log_max_msg>(g, 30);
	both<cap::max_tc>(g, 8);
	both<cap::temp_warn_event>(g, 1);
	both<cap::dcbx>(g, 1);
	both<cap::general_notification_event>(g, 1);
	both<cap::cqe_version>(g, 1);
	both<cap::striding_rq>(g, 1);
	split<cap::cmdif_checksum>(g, 3, 0); // firmware default: off
	both<cap::sigerr_cqe>(g, 1);
	both<cap::dct>(g, 1);
	both<cap::qos>(g, 1);
	both<cap::eth_net_offloads>(g, 1);
	both<cap::roce>(g, 1);
	both<cap::atomic>(g, 1);
	both<cap::cq_oi>(g, 1);
	both<cap::cq_resize>(g, 1);
	both<cap::cq_moderation>(g, 1);
	both<cap::cq_eq_remap>(g, 1);
	both<cap::pg>(g, 1);
	both<cap::cd>(g, 1);
	both<cap::xrc>(g, 1);
	both<cap::ud>(g, 1);
	both<cap::uc>(g, 1);
	both<cap::rc>(g, 1);
	split<cap::uar_4k>(g, 1, 0);
	both<cap::uar_sz>(g, 6);
	both<cap::log_pg_sz>(g, 12);
	both<cap::bf>(g, 1);
	both<cap::driver_version>(g, 1);
	both<cap::log_bf_reg_size>(g, 9);
	both<cap::max_wqe_sz_sq>(g, 1024);
	both<cap::max_wqe_sz_rq>(g, 512);
	both<cap::max_wqe_sz_sq_dc>(g, 512);
	both<cap::max_qp_mcg>(g, 240);
	both<cap::log_max_mcg>(g, 21);
	both<cap::log_max_transport_domain>(g, 20);
	both<cap::log_max_pd>(g, 23);
	both<cap::log_max_xrcd>(g, 24);
	both<cap::log_max_rq>(g, 23);
	both<cap::log_max_sq>(g, 23);
	both<cap::log_max_tir>(g, 23);
	both<cap::log_max_tis>(g, 23);
	both<cap::log_max_rmp>(g, 23);
	both<cap::log_max_rqt>(g, 20);
	both<cap::log_max_wq_sz>(g, 16);
	both<cap::nic_vport_change_event>(g, 1);
	both<cap::log_max_current_mc_list>(g, 12);
	both<cap::log_max_current_uc_list>(g, 12);
	both<cap::log_max_uctx>(g, 7);
	both<cap::log_max_umem>(g, 16);
	both<cap::log_max_l2_table>(g, 15);
	both<cap::log_uar_page_sz>(g, 0); // 4 KiB UAR pages (the emulator's BAR map)
	both<cap::nvmf_target_offload>(g, 1);
	both<cap::num_of_uars_per_page>(g, 1);
	both<cap::log_max_xrq>(g, 16);
	both<cap::native_port_num>(g, 1);
	split<cap::num_vhca_ports>(g, 1, 1);
	both<cap::sw_owner_id>(g, 1);
	split<cap::event_cap>(g, 1, 0);
	both<cap::uctx_cap>(g, 0x7); // RAW_TX | INTERNAL_DEV_RES | TOOLS_RESOURCES
}

void other_caps(Profile &p, bool esw_changed)
{
	// Zero images for types a driver queries when the general caps point
	// there (supported, no features modelled).
	for (uint16_t t : {ct::ETHERNET_OFFLOADS, ct::ODP, ct::ATOMIC, ct::ROCE, ct::FLOW_TABLE,
			   ct::ESWITCH_FLOW_TABLE, ct::QOS})
		p.cap(t);
	CapImages &e = p.cap(ct::ESWITCH);
	both<prm::e_switch_cap::esw_functions_changed>(e, esw_changed);
	both<prm::e_switch_cap::ecpf_vport_exists>(e, 0);
	CapImages &n = p.cap(ct::NVMF);
	both<prm::nvmf_cap::frontend_namespace_context>(n, 1);
	both<prm::nvmf_cap::last_req_latency>(n, 1);
}

} // namespace

Profile Profile::connectx5()
{
	Profile p;
	p.name = "ConnectX-5";
	p.device_id = 0x1017;
	p.fw_rev = {16, 35, 2000};
	p.init_delay_ms = 5;
	p.boot_pages = 24;
	p.init_pages = 1024;
	p.regular_pages = 0;
	p.psid = "MT_0000000008";
	p.vsd = "ConnectX-5 EN 100GbE (cxprm emulator)";
	CapImages &g = p.cap(ct::GENERAL);
	general_common(g);
	both<cap::log_max_eq>(g, 7); // 128 EQs
	both<cap::max_num_eqs>(g, 0);
	both<cap::device_frequency_khz>(g, 156250);
	both<cap::device_frequency_mhz>(g, 156);
	both<cap::ece_support>(g, 0);
	both<cap::hca_cap_2>(g, 0);
	p.esw = {};
	p.esw.total_vfs = 8;
	p.esw.pci_bus = 0x03;
	other_caps(p, p.esw.supported);
	p.dct.first_dctn = 0x100;
	p.dct.max_dcts = 64;
	p.nvmf.first_xrqn = 0x40;
	p.nvmf.num_xrqs = 16;
	p.max_uars = 16;
	p.num_irq_vectors = 64;
	return p;
}

Profile Profile::connectx7()
{
	Profile p;
	p.name = "ConnectX-7";
	p.device_id = 0x1021;
	p.fw_rev = {28, 39, 1002};
	p.init_delay_ms = 5;
	p.boot_pages = 32;
	p.init_pages = 4096;
	p.regular_pages = 0;
	p.psid = "MT_0000000834";
	p.vsd = "ConnectX-7 VPI 400Gb/s (cxprm emulator)";
	CapImages &g = p.cap(ct::GENERAL);
	general_common(g);
	both<cap::log_max_eq>(g, 8); // 256 (eq_number is 8 bits; 0xff is kept back)
	both<cap::max_num_eqs>(g, 0);
	both<cap::device_frequency_khz>(g, 1000000);
	both<cap::device_frequency_mhz>(g, 1000);
	both<cap::ece_support>(g, 1);
	both<cap::hca_cap_2>(g, 1);
	both<cap::relaxed_ordering_write>(g, 1);
	both<cap::relaxed_ordering_read>(g, 1);
	both<cap::log_max_qp>(g, 20);
	p.cap(ct::GENERAL_2); // hca_cap_2 = 1: the image exists (no fields modelled)
	p.esw = {};
	p.esw.total_vfs = 16;
	p.esw.num_vfs = 0;
	p.esw.pci_bus = 0x41;
	p.functions.num_vfs = 4; // VFs 1..4 as page-owning functions (B5)
	other_caps(p, p.esw.supported);
	p.dct.first_dctn = 0x1000;
	p.dct.max_dcts = 256;
	p.nvmf.first_xrqn = 0x80;
	p.nvmf.num_xrqs = 64;
	p.nvmf.max_namespaces = 256;
	p.max_uars = 32;
	p.num_irq_vectors = 128;
	return p;
}

Profile Profile::bluefield3()
{
	// The Arm side of a BlueField-3: a ConnectX-7 class core whose BAR
	// function is the ECPF and the eswitch manager, with the external host
	// PF behind it (Linux ecpf.c, eswitch.c).
	Profile p = connectx7();
	p.name = "BlueField-3";
	p.device_id = 0xa2dc;
	p.fw_rev = {32, 39, 1002};
	p.psid = "MT_0000000884";
	p.vsd = "BlueField-3 DPU, Arm side (cxprm emulator)";
	p.functions.embedded_cpu = true;
	p.functions.external_host_pf = true;
	p.functions.host_pf_enabled = true;
	p.functions.num_vfs = 0;
	p.esw.supported = true;
	p.esw.total_vfs = 16;
	p.esw.host_number = 0;
	p.esw.pci_bus = 0x81;
	return p;
}

bool Profile::by_name(const std::string &name, Profile *out)
{
	if (name == "cx5" || name == "connectx5" || name == "ConnectX-5")
		*out = connectx5();
	else if (name == "cx7" || name == "connectx7" || name == "ConnectX-7")
		*out = connectx7();
	else if (name == "bf3" || name == "bluefield3" || name == "BlueField-3")
		*out = bluefield3();
	else
		return false;
	return true;
}

// The lenient alternatives of the strict defaults (prm-notes.rst says
// which real behaviour each one stands in for).
void Profile::make_lenient()
{
	// A1/B1 signatures: outputs signed whatever cmdif_checksum says; the
	// input entry signature checked even with checksums off (the driver
	// signs it always, as Linux does).
	sign_outputs_always = true;
	always_check_entry_signature = true;
	// A2/B2 initializing: cleared on the timer alone, the queue address
	// write does not raise it again, doorbells rung early are kept.
	cmdq_init_delay_ms = 0;
	serve_early_doorbells = true;
	// A10: no timeouts in the init segment (the driver's defaults apply).
	cmd_exec_to_ms = 0;
	cmd_q_init_to_ms = 0;
	// A4/B3 health: firmware death also writes initial_seg.health_syndrome.
	crash_copies_iseg_syndrome = true;
	// A5/B4 reclaim: after TEARDOWN_HCA, QUERY_PAGES(REGULAR) = -held.
	torn_down_query_reports_held = true;
	// A6 DCT destroy: DESTROY_DCT accepted in any state.
	dct.destroy_requires_drained = false;
	// B6: EQ overrun only drops the event; interrupts whether armed or not.
	eq_overrun_fatal = false;
	strict_eq_arm = false;
	// ACCESS_REG: register data longer than the register is accepted.
	regs.exact_length = false;
	// SET_HCA_CAP: uar_4k with 4 KiB pages is taken.
	strict_uar_page_size = false;
	// A8/B9: QUERY_ESW_FUNCTIONS and ESW_FUNCTIONS_CHANGED on any eswitch
	// manager, not only an ECPF.
	esw.ecpf_only = false;
	// B7/B8 objects: references to PDs, CQs, SRQs, XRQs and backend
	// controllers are not checked (any nonzero number exists).
	objects.check_refs = false;
}

} // namespace cxprm::emu
