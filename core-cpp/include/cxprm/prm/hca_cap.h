/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_HCA_CAP / SET_HCA_CAP and the general device capabilities.
 *
 * The capability travels in a 0x8000-bit region (mlx5_ifc.h hca_cap_union);
 * which layout it holds depends on op_mod (cap::op_mod() in opcodes.h).
 * cmd_hca_cap (cap::GENERAL) is listed with the fields worth decoding, not
 * all of them; offsets and widths are those of mlx5_ifc.h 6.1.
 */
#pragma once

#include "transport.h"

namespace cxprm::prm {

#define CXPRM_QUERY_HCA_CAP_IN(F)                                               \
	CXPRM_CMD_IN_HDR(F)                                                     \
	F(other_function, 0x40, 1)                                              \
	F(function_id, 0x50, 0x10)
CXPRM_LAYOUT(query_hca_cap_in, 0x80, CXPRM_QUERY_HCA_CAP_IN)

#define CXPRM_QUERY_HCA_CAP_OUT(F) CXPRM_CMD_OUT_HDR(F) F(capability, 0x80, 0x8000)
CXPRM_LAYOUT(query_hca_cap_out, 0x8080, CXPRM_QUERY_HCA_CAP_OUT)

/* capability: a cap::GENERAL/... layout, given by op_mod = cap type << 1. */
#define CXPRM_SET_HCA_CAP_IN(F)                                                 \
	CXPRM_CMD_IN_HDR(F)                                                     \
	F(other_function, 0x40, 1)                                              \
	F(function_id, 0x50, 0x10)                                              \
	F(capability, 0x80, 0x8000)
CXPRM_LAYOUT(set_hca_cap_in, 0x8080, CXPRM_SET_HCA_CAP_IN)
CXPRM_LAYOUT(set_hca_cap_out, 0x80, CXPRM_CMD_OUT_HDR)

/*
 * General capabilities (cap::GENERAL).  nvmf_target_offload (bit 0x502) is
 * reserved in 6.1; the vendor's out-of-tree mlx5_ifc.h names it.
 */
#define CXPRM_CMD_HCA_CAP(F)                                                    \
	F(vhca_resource_manager, 0x1f, 1)                                       \
	F(hca_cap_2, 0x20, 1)                                                   \
	F(dtor, 0x22, 1)                                                        \
	F(vhca_id, 0x30, 0x10)                                                  \
	F(log_max_srq_sz, 0x80, 8)                                              \
	F(log_max_qp_sz, 0x88, 8)                                               \
	F(event_cap, 0x90, 1)                                                   \
	F(log_max_qp, 0x9b, 5)                                                  \
	F(ece_support, 0xa3, 1)                                                 \
	F(log_max_srq, 0xab, 5)                                                 \
	F(log_max_cq_sz, 0xc8, 8)                                               \
	F(log_max_cq, 0xdb, 5)                                                  \
	F(log_max_eq_sz, 0xe0, 8)                                               \
	F(relaxed_ordering_write, 0xe8, 1)                                      \
	F(relaxed_ordering_read, 0xe9, 1)                                       \
	F(log_max_mkey, 0xea, 6)                                                \
	F(fast_teardown, 0xfb, 1)                                               \
	F(log_max_eq, 0xfc, 4)                                                  \
	F(max_indirection, 0x100, 8)                                            \
	F(fixed_buffer_size, 0x108, 1)                                          \
	F(log_max_mrw_sz, 0x109, 7)                                             \
	F(force_teardown, 0x110, 1)                                             \
	F(log_max_klm_list_size, 0x11a, 6)                                      \
	F(log_max_ra_req_dc, 0x12a, 6)                                          \
	F(log_max_ra_res_dc, 0x13a, 6)                                          \
	F(release_all_pages, 0x145, 1)                                          \
	F(log_max_ra_req_qp, 0x14a, 6)                                          \
	F(log_max_ra_res_qp, 0x15a, 6)                                          \
	F(cache_line_128byte, 0x164, 1)                                         \
	F(qcam_reg, 0x16f, 1)                                                   \
	F(gid_table_size, 0x170, 0x10)                                          \
	F(vport_counters, 0x181, 1)                                             \
	F(debug, 0x183, 1)                                                      \
	F(max_qp_cnt, 0x186, 0xa)                                               \
	F(pkey_table_size, 0x190, 0x10)                                         \
	F(vport_group_manager, 0x1a0, 1)                                        \
	F(vhca_group_manager, 0x1a1, 1)                                         \
	F(ib_virt, 0x1a2, 1)                                                    \
	F(eth_virt, 0x1a3, 1)                                                   \
	F(ets, 0x1a5, 1)                                                        \
	F(nic_flow_table, 0x1a6, 1)                                             \
	F(eswitch_manager, 0x1a7, 1)                                            \
	F(device_memory, 0x1a8, 1)                                              \
	F(mcam_reg, 0x1a9, 1)                                                   \
	F(pcam_reg, 0x1aa, 1)                                                   \
	F(local_ca_ack_delay, 0x1ab, 5)                                         \
	F(port_module_event, 0x1b0, 1)                                          \
	F(port_type, 0x1b6, 2)                                                  \
	F(num_ports, 0x1b8, 8)                                                  \
	F(pps, 0x1c1, 1)                                                        \
	F(log_max_msg, 0x1c3, 5)                                                \
	F(max_tc, 0x1cc, 4)                                                     \
	F(temp_warn_event, 0x1d0, 1)                                            \
	F(dcbx, 0x1d1, 1)                                                       \
	F(general_notification_event, 0x1d2, 1)                                 \
	F(fpga, 0x1d5, 1)                                                       \
	F(cqe_version, 0x1fc, 4)                                                \
	F(striding_rq, 0x201, 1)                                                \
	F(ipoib_enhanced_offloads, 0x203, 1)                                    \
	F(ipoib_basic_offloads, 0x204, 1)                                       \
	F(cmdif_checksum, 0x210, 2)                                             \
	F(sigerr_cqe, 0x212, 1)                                                 \
	F(dct, 0x21a, 1)                                                        \
	F(qos, 0x21b, 1)                                                        \
	F(eth_net_offloads, 0x21c, 1)                                           \
	F(roce, 0x21d, 1)                                                       \
	F(atomic, 0x21e, 1)                                                     \
	F(cq_oi, 0x220, 1)                                                      \
	F(cq_resize, 0x221, 1)                                                  \
	F(cq_moderation, 0x222, 1)                                              \
	F(cq_eq_remap, 0x226, 1)                                                \
	F(pg, 0x227, 1)                                                         \
	F(cd, 0x22c, 1)                                                         \
	F(apm, 0x22e, 1)                                                        \
	F(vector_calc, 0x22f, 1)                                                \
	F(xrc, 0x23c, 1)                                                        \
	F(ud, 0x23d, 1)                                                         \
	F(uc, 0x23e, 1)                                                         \
	F(rc, 0x23f, 1)                                                         \
	F(uar_4k, 0x240, 1)                                                     \
	F(uar_sz, 0x24a, 6)                                                     \
	F(port_selection_cap, 0x250, 1)                                         \
	F(umem_uid_0, 0x252, 1)                                                 \
	F(log_pg_sz, 0x258, 8)                                                  \
	F(bf, 0x260, 1)                                                         \
	F(driver_version, 0x261, 1)                                             \
	F(log_bf_reg_size, 0x26b, 5)                                            \
	F(lag_master, 0x27b, 1)                                                 \
	F(num_lag_ports, 0x27c, 4)                                              \
	F(max_wqe_sz_sq, 0x290, 0x10)                                           \
	F(max_wqe_sz_rq, 0x2b0, 0x10)                                           \
	F(max_wqe_sz_sq_dc, 0x2d0, 0x10)                                        \
	F(max_qp_mcg, 0x2e7, 0x19)                                              \
	F(log_max_mcg, 0x318, 8)                                                \
	F(log_max_transport_domain, 0x323, 5)                                   \
	F(log_max_pd, 0x32b, 5)                                                 \
	F(log_max_xrcd, 0x33b, 5)                                               \
	F(log_max_rq, 0x363, 5)                                                 \
	F(log_max_sq, 0x36b, 5)                                                 \
	F(log_max_tir, 0x373, 5)                                                \
	F(log_max_tis, 0x37b, 5)                                                \
	F(log_max_rmp, 0x383, 5)                                                \
	F(log_max_rqt, 0x38b, 5)                                                \
	F(log_max_wq_sz, 0x3db, 5)                                              \
	F(nic_vport_change_event, 0x3e0, 1)                                     \
	F(vhca_state, 0x3ea, 1)                                                 \
	F(log_max_current_mc_list, 0x3f3, 5)                                    \
	F(log_max_current_uc_list, 0x3fb, 5)                                    \
	F(general_obj_types, 0x400, 0x40)                                       \
	F(sq_ts_format, 0x440, 2)                                               \
	F(rq_ts_format, 0x442, 2)                                               \
	F(log_max_uctx, 0x463, 5)                                               \
	F(log_max_umem, 0x46b, 5)                                               \
	F(max_num_eqs, 0x470, 0x10)                                             \
	F(log_max_l2_table, 0x483, 5)                                           \
	F(log_uar_page_sz, 0x490, 0x10)                                         \
	F(device_frequency_mhz, 0x4c0, 0x20)                                    \
	F(device_frequency_khz, 0x4e0, 0x20)                                    \
	F(nvmf_target_offload, 0x502, 1)                                        \
	F(num_of_uars_per_page, 0x520, 0x20)                                    \
	F(tag_matching, 0x5f0, 1)                                               \
	F(rndv_offload_rc, 0x5f1, 1)                                            \
	F(rndv_offload_dc, 0x5f2, 1)                                            \
	F(log_tag_matching_list_sz, 0x5f3, 5)                                   \
	F(log_max_xrq, 0x5fb, 5)                                                \
	F(native_port_num, 0x608, 8)                                            \
	F(num_vhca_ports, 0x610, 8)                                             \
	F(sw_owner_id, 0x61e, 1)                                                \
	F(max_num_sf, 0x640, 0x10)                                              \
	F(sf, 0x680, 1)                                                         \
	F(log_max_sf, 0x683, 5)                                                 \
	F(uctx_cap, 0x6a0, 0x20)                                                \
	F(vhca_tunnel_commands, 0x780, 0x40)
CXPRM_LAYOUT(cmd_hca_cap, 0x800, CXPRM_CMD_HCA_CAP)

/*
 * NVMF capabilities (cap type 0xe, cap::NVMF).  Not in the 6.1 header
 * (type 0xe is RESERVED_14 there).  The vendor's mlx5_ifc.h has nvmf_cap in
 * its hca_cap_union, but its definition was not checked here: the two bits
 * are from prm-layouts.md section 5 and the size assumes the usual 0x800-bit
 * capability page.  PROVISIONAL, unverified.
 */
#define CXPRM_NVMF_CAP(F)                                                       \
	F(last_req_latency, 0x9, 1)                                             \
	F(frontend_namespace_context, 0x3a, 1)
CXPRM_LAYOUT(nvmf_cap, 0x800, CXPRM_NVMF_CAP)

/* The capability region inside query_hca_cap_out / set_hca_cap_in. */
inline constexpr u32 HCA_CAP_BYTES = query_hca_cap_out::capability::width / 8;

/* e_switch_cap (cap type ESWITCH): esw_functions_changed says the device
 * raises ESW_FUNCTIONS_CHANGED (0x0e) for the eswitch manager. */
#define CXPRM_E_SWITCH_CAP(F)                                               \
	F(esw_functions_changed, 0x19, 1)                                       \
	F(ecpf_vport_exists, 0x1b, 1)                                           \
	F(log_max_esw_sf, 0x4b, 5)                                              \
	F(esw_sf_base_id, 0x50, 0x10)
CXPRM_LAYOUT(e_switch_cap, 0x800, CXPRM_E_SWITCH_CAP)

/*
 * roce_cap (cap type ROCE): qp_ts_format is what a QP of a RoCE function
 * may use (mlx5_get_qp_default_ts); l3_type and roce_version are bitmasks
 * of ROCE_L3_TYPE_* / ROCE_VERSION_*_CAP (Linux get_core_cap_flags: GID
 * types only with both IPv4 and IPv6).
 */
#define CXPRM_ROCE_CAP(F)                                                   \
	F(sw_r_roce_src_udp_port, 0x4, 1)                                       \
	F(qp_ts_format, 0x1e, 2)                                                \
	F(l3_type, 0x8c, 4)                                                     \
	F(roce_version, 0x98, 8)                                                \
	F(r_roce_dest_udp_port, 0xb0, 0x10)                                     \
	F(roce_address_table_size, 0xf0, 0x10)
CXPRM_LAYOUT(roce_cap, 0x800, CXPRM_ROCE_CAP)

namespace roce_cap_bits {
enum : u8 {
	L3_TYPE_IPV4 = 1 << 1, /* MLX5_ROCE_L3_TYPE_IPV4_CAP */
	L3_TYPE_IPV6 = 1 << 2,
	VERSION_1 = 1 << 0,    /* MLX5_ROCE_VERSION_1_CAP */
	VERSION_2 = 1 << 2,
};
}


} // namespace cxprm::prm
