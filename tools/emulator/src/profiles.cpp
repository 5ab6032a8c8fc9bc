// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Adapter profiles.  Capability images are built field by field through the
// layout layer; the values are typical of the named adapters' published
// capability dumps, not copied from any one device.
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/caps.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm_emu/emulator.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/qp.h"

namespace cxprm::emu {

namespace {

using cap = prm::cmd_hca_cap;
namespace ct = prm::cap;

// Sets field F to max in the MAX image and to cur in the CUR one.
template <class F> void split(CapImages &img, uint64_t max, uint64_t cur)
{
	using L = typename F::layout;
	prm::set<F>(prm::Ref<L>(img.max.data()), max);
	prm::set<F>(prm::Ref<L>(img.cur.data()), cur);
}

// Sets field F to v in both images.
template <class F> void both(CapImages &img, uint64_t v) { split<F>(img, v, v); }

// Sets each one-bit feature field F to 1 in both images.
template <class... F> void on(CapImages &img) { (both<F>(img, 1), ...); }

// Field F of the layout nested at member M (odp_cap.rc_odp_caps ...), both images.
template <class M, class F> void nested(CapImages &img, uint64_t v)
{
	using L = typename F::layout;
	static_assert(M::offset % 8 == 0 && M::width == L::size_bits, "member holds F's layout");
	prm::set<F>(prm::Ref<L>(img.max.data() + M::offset / 8), v);
	prm::set<F>(prm::Ref<L>(img.cur.data() + M::offset / 8), v);
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
	on<cap::vport_group_manager, cap::vhca_group_manager, cap::eth_virt, cap::ets,
	   cap::nic_flow_table, cap::eswitch_manager, cap::mcam_reg, cap::pcam_reg,
	   cap::qcam_reg>(g);
	both<cap::local_ca_ack_delay>(g, 16);
	both<cap::port_module_event>(g, 1);
	both<cap::port_type>(g, prm::port_type::ETH);
	both<cap::num_ports>(g, 1);
	both<cap::pps>(g, 1);
	both<cap::log_max_msg>(g, 30);
	both<cap::max_tc>(g, 8);
	on<cap::temp_warn_event, cap::dcbx, cap::general_notification_event, cap::cqe_version,
	   cap::striding_rq>(g);
	split<cap::cmdif_checksum>(g, 3, 0); // firmware default: off
	on<cap::sigerr_cqe, cap::dct, cap::qos, cap::eth_net_offloads, cap::roce, cap::atomic,
	   cap::cq_oi, cap::cq_resize, cap::cq_moderation, cap::cq_eq_remap, cap::pg, cap::cd,
	   cap::xrc, cap::ud, cap::uc, cap::rc>(g);
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
	// MAX up to 64 KiB UAR pages: Linux's handle_hca_cap sets PAGE_SHIFT - 12
	// unconditionally and mlx5_core runs on 16 and 64 KiB-page hosts, so
	// real firmware takes 2 and 4 (prm-notes.rst "UAR page size").  CUR 0.
	split<cap::log_uar_page_sz>(g, 4, 0);
	both<cap::nvmf_target_offload>(g, 1);
	both<cap::num_of_uars_per_page>(g, 1);
	both<cap::log_max_xrq>(g, 16);
	both<cap::native_port_num>(g, 1);
	split<cap::num_vhca_ports>(g, 1, 1);
	both<cap::sw_owner_id>(g, 1);
	split<cap::event_cap>(g, 1, 0);
	both<cap::uctx_cap>(g, 0x7); // RAW_TX | INTERNAL_DEV_RES | TOOLS_RESOURCES
}

// The types beyond general, RoCE, eswitch and NVMF, with what each adapter
// generation has (prm-notes-caps.rst has the table and the sources).  A
// gating bit of the general caps that would start a Linux feature the
// emulator does not serve is left clear; the type is answered all the same
// (prm-notes-caps.rst "Gating bits").
void more_caps(Profile &p, bool cx7_class, bool ecpf, bool vf)
{
	using odp = prm::odp_cap;
	using tsc = prm::odp_per_transport_service_cap;
	CapImages &o = p.cap(ct::ODP); // RC and UD; no SRQ/XRC/DC: Linux would SET_HCA_CAP(ODP)
	for (auto f : {&nested<odp::rc_odp_caps, tsc::send>, &nested<odp::rc_odp_caps, tsc::receive>,
		       &nested<odp::rc_odp_caps, tsc::write>, &nested<odp::rc_odp_caps, tsc::read>,
		       &nested<odp::rc_odp_caps, tsc::atomic>, &nested<odp::ud_odp_caps, tsc::send>})
		f(o, 1);
	CapImages &a = p.cap(ct::ATOMIC); // CMP_SWAP, FETCH_ADD and the masked ones, 8 bytes
	both<prm::atomic_caps::atomic_operations>(a, 0xf);
	both<prm::atomic_caps::atomic_size_qp>(a, 0x8);
	both<prm::atomic_caps::atomic_size_dc>(a, 0x8);
	// NIC flow tables: sizes only; ft_support stays 0 (Linux would then
	// build its steering tree with CREATE_FLOW_TABLE).
	using ftn = prm::flow_table_nic_cap;
	using ftp = prm::flow_table_prop_layout;
	CapImages &ft = p.cap(ct::FLOW_TABLE);
	both<ftn::nic_rx_multi_path_tirs>(ft, 1);
	nested<ftn::flow_table_properties_nic_receive, ftp::log_max_ft_size>(ft, 23);
	nested<ftn::flow_table_properties_nic_receive, ftp::max_ft_level>(ft, 63);
	nested<ftn::flow_table_properties_nic_receive, ftp::log_max_ft_num>(ft, 20);
	nested<ftn::flow_table_properties_nic_receive, ftp::log_max_flow_counter>(ft, 24);
	nested<ftn::flow_table_properties_nic_receive, ftp::log_max_destination>(ft, 16);
	nested<ftn::flow_table_properties_nic_receive, ftp::log_max_flow>(ft, 24);
	nested<ftn::flow_table_properties_nic_transmit, ftp::log_max_ft_size>(ft, 23);
	nested<ftn::flow_table_properties_nic_transmit, ftp::max_ft_level>(ft, 63);
	nested<ftn::flow_table_properties_nic_transmit, ftp::log_max_ft_num>(ft, 20);
	CapImages &q = p.cap(ct::QOS); // packet pacing up to the port rate, in kb/s
	both<prm::qos_cap::packet_pacing>(q, 1);
	both<prm::qos_cap::packet_pacing_max_rate>(q, cx7_class ? 400000000 : 100000000);
	both<prm::qos_cap::packet_pacing_min_rate>(q, 1000);
	both<prm::qos_cap::packet_pacing_rate_table_size>(q, 128);
	CapImages &d = p.cap(ct::DEBUG_CAP);
	on<prm::debug_cap::core_dump_general, prm::debug_cap::core_dump_qp,
	   prm::debug_cap::resource_dump>(d);
	CapImages &m = p.cap(ct::DEV_MEM); // MEMIC: 256 KiB on chip, 64-byte blocks
	both<prm::device_mem_cap::memic>(m, 1);
	both<prm::device_mem_cap::log_min_memic_alloc_size>(m, 6);
	both<prm::device_mem_cap::log_max_memic_addr_alignment>(m, 12);
	both<prm::device_mem_cap::max_memic_size>(m, 0x40000);
	if (!vf) {
		p.cap(ct::ESWITCH_FLOW_TABLE); // FDB: no features modelled
		both<prm::device_mem_cap::log_steering_sw_icm_size>(m, cx7_class ? 28 : 26);
	}
	if (!cx7_class)
		return;
	p.cap(ct::GENERAL_2); // hca_cap_2 = 1
	both<prm::cmd_hca_cap_2::log_min_mkey_entity_size>(p.cap(ct::GENERAL_2), 12);
	CapImages &t = p.cap(ct::TLS); // kTLS: TLS 1.2/1.3, AES-GCM-128/256
	on<prm::tls_cap::tls_1_2_aes_gcm_128, prm::tls_cap::tls_1_3_aes_gcm_128,
	   prm::tls_cap::tls_1_2_aes_gcm_256, prm::tls_cap::tls_1_3_aes_gcm_256>(t);
	CapImages &i = p.cap(ct::IPSEC);
	on<prm::ipsec_cap::ipsec_full_offload, prm::ipsec_cap::ipsec_crypto_offload,
	   prm::ipsec_cap::ipsec_esn, prm::ipsec_cap::ipsec_crypto_esp_aes_gcm_256_encrypt,
	   prm::ipsec_cap::ipsec_crypto_esp_aes_gcm_128_encrypt,
	   prm::ipsec_cap::ipsec_crypto_esp_aes_gcm_256_decrypt,
	   prm::ipsec_cap::ipsec_crypto_esp_aes_gcm_128_decrypt>(i);
	both<prm::ipsec_cap::log_max_ipsec_offload>(i, 16);
	CapImages &ms = p.cap(ct::MACSEC);
	on<prm::macsec_cap::macsec_epn, prm::macsec_cap::macsec_crypto_esp_aes_gcm_256_encrypt,
	   prm::macsec_cap::macsec_crypto_esp_aes_gcm_128_encrypt,
	   prm::macsec_cap::macsec_crypto_esp_aes_gcm_256_decrypt,
	   prm::macsec_cap::macsec_crypto_esp_aes_gcm_128_decrypt>(ms);
	both<prm::macsec_cap::log_max_macsec_offload>(ms, 10);
	if (vf)
		return;
	CapImages &ps = p.cap(ct::PORT_SELECTION); // LAG port selection (a PF's)
	both<prm::port_selection_cap::port_select_flow_table>(ps, 1);
	both<prm::port_selection_cap::port_select_flow_table_bypass>(ps, 1);
	CapImages &av = p.cap(ct::ADV_VIRTUALIZATION); // dirty page tracking for VF migration
	both<prm::adv_virtualization_cap::pg_track_log_max_num>(av, 10);
	both<prm::adv_virtualization_cap::pg_track_max_num_range>(av, 16);
	both<prm::adv_virtualization_cap::pg_track_log_min_page_size>(av, 12);
	both<prm::adv_virtualization_cap::pg_track_log_max_page_size>(av, 30);
	if (!ecpf)
		return;
	// The DPU's Arm side emulates virtio devices to the host (virtio-net
	// and -blk, split and packed queues; event modes NO_MSIX | MSIX).
	CapImages &v = p.cap(ct::VDPA_EMULATION);
	both<prm::virtio_emulation_cap::virtio_version_1_0>(v, 1);
	both<prm::virtio_emulation_cap::event_mode>(v, 0x5);
	both<prm::virtio_emulation_cap::virtio_queue_type>(v, 0x3);
	both<prm::virtio_emulation_cap::max_emulated_devices>(v, 255);
	both<prm::virtio_emulation_cap::max_num_virtio_queues>(v, 1024);
}

void other_caps(Profile &p, bool esw_changed)
{
	// ETHERNET_OFFLOADS: a zero image (eth_net_offloads = 1 makes Linux
	// query it; a nonzero csum_cap would start mlx5e).
	for (uint16_t t : {ct::ETHERNET_OFFLOADS, ct::ROCE})
		p.cap(t);
	CapImages &e = p.cap(ct::ESWITCH);
	both<prm::e_switch_cap::esw_functions_changed>(e, esw_changed);
	both<prm::e_switch_cap::ecpf_vport_exists>(e, 0);
	CapImages &n = p.cap(ct::NVMF);
	both<prm::nvmf_cap::frontend_namespace_context>(n, 1);
	both<prm::nvmf_cap::last_req_latency>(n, 1);
}

// What tells the adapters apart; the rest is general_common() and
// other_caps().  A BlueField-3 Arm side is a ConnectX-7 class core whose BAR
// function is the ECPF and the eswitch manager, with the external host PF
// behind it (Linux ecpf.c, eswitch.c).
struct Model {
	const char *name;       // Profile::name; by_name() also takes the aliases
	const char *aliases[2];
	uint16_t device_id;
	uint16_t fw[3];
	int32_t boot_pages, init_pages;
	const char *psid, *vsd;
	uint8_t log_max_eq;     // CX-7: 256 (eq_number is 8 bits; 0xff is kept back)
	uint32_t freq_khz;
	bool cx7_class;         // ece, hca_cap_2 (its image), relaxed ordering, log_max_qp 20
	bool ecpf;              // embedded CPU function with an external host PF
	uint16_t total_vfs, pci_bus;
	uint16_t vhca_vfs;      // VFs 1..n as page-owning functions (B5)
	uint32_t first_dctn, max_dcts, first_xrqn, num_xrqs, max_namespaces;
	uint32_t max_uars, irq_vectors;
	bool vf;                // the BAR's function is a VF (FunctionsProfile::vf)
};

constexpr Model models[] = {
	{"ConnectX-5", {"cx5", "connectx5"}, 0x1017, {16, 35, 2000}, 24, 1024, "MT_0000000008",
	 "ConnectX-5 EN 100GbE (cxprm emulator)", 7, 156250, false, false, 8, 0x03, 0,
	 0x100, 64, 0x40, 16, 64, 16, 64, false},
	{"ConnectX-7", {"cx7", "connectx7"}, 0x1021, {28, 39, 1002}, 32, 4096, "MT_0000000834",
	 "ConnectX-7 VPI 400Gb/s (cxprm emulator)", 8, 1000000, true, false, 16, 0x41, 4,
	 0x1000, 256, 0x80, 64, 256, 32, 128, false},
	// A ConnectX-7 VF as a VM sees it (0x101e, "ConnectX Family mlx5Gen
	// Virtual Function", MLX5_PCI_DEV_IS_VF in Linux's table).
	{"ConnectX-7 VF", {"cx7vf", "connectx7-vf"}, 0x101e, {28, 39, 1002}, 32, 1024, "MT_0000000834",
	 "ConnectX-7 VF (cxprm emulator)", 8, 1000000, true, false, 0, 0x41, 0,
	 0x1000, 256, 0x80, 64, 256, 16, 32, true},
	{"BlueField-3", {"bf3", "bluefield3"}, 0xa2dc, {32, 39, 1002}, 32, 4096, "MT_0000000884",
	 "BlueField-3 DPU, Arm side (cxprm emulator)", 8, 1000000, true, true, 16, 0x81, 0,
	 0x1000, 256, 0x80, 64, 256, 32, 128, false},
};

Profile from_model(const Model &m)
{
	Profile p;
	p.name = m.name;
	p.device_id = m.device_id;
	p.fw_rev = {m.fw[0], m.fw[1], m.fw[2]};
	p.init_delay_ms = 5;
	p.boot_pages = m.boot_pages;
	p.init_pages = m.init_pages;
	p.regular_pages = 0;
	p.psid = m.psid;
	p.vsd = m.vsd;
	p.regs = RegisterProfile::for_device(m.device_id);
	CapImages &g = p.cap(ct::GENERAL);
	general_common(g);
	both<cap::log_max_eq>(g, m.log_max_eq);
	both<cap::max_num_eqs>(g, 0);
	both<cap::device_frequency_khz>(g, m.freq_khz);
	both<cap::device_frequency_mhz>(g, m.freq_khz / 1000);
	both<cap::ece_support>(g, m.cx7_class);
	both<cap::hca_cap_2>(g, m.cx7_class);
	// Timestamps: ConnectX-6 Dx and later have a real-time clock; both
	// formats while REAL_TIME_CLOCK_ENABLE is off (a test sets REAL_TIME
	// alone, as with it on).
	const uint8_t ts = m.cx7_class ? prm::ts_format_cap::FREE_RUNNING_AND_REAL_TIME
				       : prm::ts_format_cap::FREE_RUNNING;
	both<cap::sq_ts_format>(g, ts);
	both<cap::rq_ts_format>(g, ts);
	// RoCE v1 and v2 over IPv4 and IPv6 (Linux: a GID type per version),
	// QPs of a RoCE function on the same clocks as the general caps.
	CapImages &rc = p.cap(ct::ROCE);
	both<prm::roce_cap::qp_ts_format>(rc, ts);
	both<prm::roce_cap::l3_type>(rc, prm::roce_cap_bits::L3_TYPE_IPV4 | prm::roce_cap_bits::L3_TYPE_IPV6);
	both<prm::roce_cap::roce_version>(rc, prm::roce_cap_bits::VERSION_1 | prm::roce_cap_bits::VERSION_2);
	both<prm::roce_cap::r_roce_dest_udp_port>(rc, 4791);
	both<prm::roce_cap::roce_address_table_size>(rc, 256);
	if (m.cx7_class) {
		both<cap::relaxed_ordering_write>(g, 1);
		both<cap::relaxed_ordering_read>(g, 1);
		both<cap::log_max_qp>(g, 20);
	}
	p.esw = {};
	p.esw.total_vfs = m.total_vfs;
	p.esw.pci_bus = m.pci_bus;
	p.functions.embedded_cpu = m.ecpf;
	p.functions.external_host_pf = m.ecpf;
	p.functions.num_vfs = m.vhca_vfs;
	p.functions.vf = m.vf;
	if (m.vf) { // a VF manages nothing (Linux: MLX5_ESWITCH_MANAGER etc. are PF caps)
		both<cap::vport_group_manager>(g, 0);
		both<cap::vhca_group_manager>(g, 0);
		both<cap::eswitch_manager>(g, 0);
	}
	other_caps(p, p.esw.supported);
	more_caps(p, m.cx7_class, m.ecpf, m.vf);
	p.dct.first_dctn = m.first_dctn;
	p.dct.max_dcts = m.max_dcts;
	p.nvmf.first_xrqn = m.first_xrqn;
	p.nvmf.num_xrqs = m.num_xrqs;
	p.nvmf.max_namespaces = m.max_namespaces;
	p.max_uars = m.max_uars;
	p.num_irq_vectors = m.irq_vectors;
	p.latency = LatencyModel::connectx7(); // not enabled
	return p;
}

} // namespace

Profile Profile::connectx5() { return from_model(models[0]); }
Profile Profile::connectx7() { return from_model(models[1]); }
Profile Profile::bluefield3() { return from_model(models[3]); }
Profile Profile::connectx7_vf() { return from_model(models[2]); }

bool Profile::by_name(const std::string &name, Profile *out)
{
	for (const Model &m : models) {
		if (name == m.name || name == m.aliases[0] || name == m.aliases[1]) {
			*out = from_model(m);
			return true;
		}
	}
	return false;
}

std::vector<Profile::Name> Profile::names()
{
	std::vector<Name> v;
	for (const Model &m : models)
		v.push_back({m.aliases[0], m.name});
	return v;
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
	// CQs on any EQ, the async one included.
	objects.cq_needs_completion_eq = false;
	// User contexts: uid 0 acts on any uid's objects; DESTROY_UCTX
	// leaves a context's objects behind.
	objects.uid0_acts_on_any = true;
	objects.uctx_destroy_requires_empty = false;
	// A3: an ECPF's host PF is enabled from the start (its driver did it);
	// the ECPF's own ENABLE_HCA for it is then refused (FUNCTION_STATE).
	functions.host_pf_enabled = true;
	// NVMF CREATE_XRQ: 16-byte strides, cyclic queues, no staging buffer
	// and offload types 1..3 are taken.
	nvmf.xrq_min_stride_32 = false;
	nvmf.xrq_linked_list_only = false;
	nvmf.xrq_requires_staging = false;
	nvmf.xrq_rwf_offload_only = false;
	// NVMF backend: queue pages smaller than the XRQ's queue size, and a
	// namespace's lba_data_size not in bytes (any nonzero), are taken.
	nvmf.be_queue_size_checked = false;
	nvmf.lba_size_in_bytes = false;
	// RoCE: INIT2RTR_QP and CREATE_DCT on an Ethernet port taken with RoCE
	// off or an empty source GID entry.
	roce.check_path = false;
}

} // namespace cxprm::emu
