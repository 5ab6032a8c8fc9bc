/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Command opcodes, op_mod values and event types.
 *
 * Opcode names and values are those of the MLX5_CMD_OP_* enum of
 * mlx5_ifc.h (6.1), without the prefix.  Entries marked "vendor" are absent
 * from the 6.1 header: QUERY_OTHER_HCA_CAP and the NVMF ones are in the
 * vendor's public out-of-tree mlx5_ifc.h (MLNX_OFED), the NVMF CC ones in
 * NVIDIA's NVMe SNAP headers and the upstream fwctl mlx5 allow-list.
 *
 * The third column says whether the opcode is a read-only query (R) or may
 * change device state (W), or that its op_mod decides (R_OPMOD1: a query
 * with op_mod 1, a write with any other); opcode_is_query() answers from
 * it.  Every opcode whose PRM name starts with QUERY_ is R; the only
 * R_OPMOD1 is ACCESS_REG, whose op_mod 1 reads the register and 0 writes it
 * (access_reg_op in reg.h; Linux's mlx5_core_access_reg sets op_mod =
 * !write), the rule fwctl's mlx5 driver (drivers/fwctl/mlx5/main.c) uses to
 * count a register read as FWCTL_RPC_DEBUG_READ_ONLY and a write as
 * configuration.  Nothing else is a query (NOP included: an allow-list may
 * add it explicitly).
 *
 * The X-lists are plain C (the guest selftests build their constants from
 * them, selftests/cxprm/cxprm_prm.h); the rest is C++.
 */
#pragma once

/*
 * The PRM metadata table, one row per opcode:
 *   X(name, value, scope, in_layout, out_layout, decoder)
 *   N(identifier, "name", value, scope, in_layout, out_layout, decoder)
 * (N for the two PRM names that are not C identifiers).
 *
 * scope: R, W or R_OPMOD1 (above).
 * in_layout, out_layout: the command's mlx5_ifc.h layouts (mlx5_ifc_<x>_bits)
 *   or the core's hand-declared ones (the vendor NVMF ones), "none" where no
 *   header has one.  Most are <name>_in / <name>_out in lower case; the rest
 *   are the header's own names (SET_FLOW_TABLE_ENTRY: set_fte_in, ACCESS_REG:
 *   access_register_in, 2ERR_QP: qp_2err_in; the general-object commands
 *   share general_obj_in_cmd_hdr / general_obj_out_cmd_hdr).
 * decoder: what decodes the answer beyond the layout's fields --
 *   LAYOUT  nothing: the layouts' fields are all there is;
 *   CORE    a typed decoder of the core (cxprm/commands/decode.h);
 *   CAP     the core's, with the capability image by op_mod's type
 *           (CXPRM_CAP_TYPES' layout column);
 *   REG     the core's, with the register data by register_id
 *           (CXPRM_REGISTERS in reg.h).
 * opcode_info() serves the table to the tools, the emulator and the shim;
 * the column tokens are only ever stringized.
 */
#define CXPRM_OPCODES(X, N) \
	X(QUERY_HCA_CAP, 0x100, R, query_hca_cap_in, query_hca_cap_out, CAP) \
	X(QUERY_ADAPTER, 0x101, R, query_adapter_in, query_adapter_out, CORE) \
	X(INIT_HCA, 0x102, W, init_hca_in, init_hca_out, CORE) \
	X(TEARDOWN_HCA, 0x103, W, teardown_hca_in, teardown_hca_out, CORE) \
	X(ENABLE_HCA, 0x104, W, enable_hca_in, enable_hca_out, CORE) \
	X(DISABLE_HCA, 0x105, W, disable_hca_in, disable_hca_out, CORE) \
	X(QUERY_PAGES, 0x107, R, query_pages_in, query_pages_out, CORE) \
	X(MANAGE_PAGES, 0x108, W, manage_pages_in, manage_pages_out, CORE) \
	X(SET_HCA_CAP, 0x109, W, set_hca_cap_in, set_hca_cap_out, CAP) \
	X(QUERY_ISSI, 0x10a, R, query_issi_in, query_issi_out, CORE) \
	X(SET_ISSI, 0x10b, W, set_issi_in, set_issi_out, CORE) \
	X(SET_DRIVER_VERSION, 0x10d, W, set_driver_version_in, set_driver_version_out, LAYOUT) \
	X(QUERY_OTHER_HCA_CAP, 0x10e, R, query_other_hca_cap_in, query_other_hca_cap_out, LAYOUT) /* vendor */ \
	X(QUERY_SF_PARTITION, 0x111, R, query_sf_partitions_in, query_sf_partitions_out, LAYOUT) \
	X(ALLOC_SF, 0x113, W, alloc_sf_in, alloc_sf_out, LAYOUT) \
	X(DEALLOC_SF, 0x114, W, dealloc_sf_in, dealloc_sf_out, LAYOUT) \
	X(SUSPEND_VHCA, 0x115, W, suspend_vhca_in, suspend_vhca_out, LAYOUT) \
	X(RESUME_VHCA, 0x116, W, resume_vhca_in, resume_vhca_out, LAYOUT) \
	X(QUERY_VHCA_MIGRATION_STATE, 0x117, R, query_vhca_migration_state_in, query_vhca_migration_state_out, LAYOUT) \
	X(SAVE_VHCA_STATE, 0x118, W, save_vhca_state_in, save_vhca_state_out, LAYOUT) \
	X(LOAD_VHCA_STATE, 0x119, W, load_vhca_state_in, load_vhca_state_out, LAYOUT) \
	X(CREATE_MKEY, 0x200, W, create_mkey_in, create_mkey_out, LAYOUT) \
	X(QUERY_MKEY, 0x201, R, query_mkey_in, query_mkey_out, LAYOUT) \
	X(DESTROY_MKEY, 0x202, W, destroy_mkey_in, destroy_mkey_out, LAYOUT) \
	X(QUERY_SPECIAL_CONTEXTS, 0x203, R, query_special_contexts_in, query_special_contexts_out, LAYOUT) \
	X(PAGE_FAULT_RESUME, 0x204, W, page_fault_resume_in, page_fault_resume_out, LAYOUT) \
	X(ALLOC_MEMIC, 0x205, W, alloc_memic_in, alloc_memic_out, LAYOUT) \
	X(DEALLOC_MEMIC, 0x206, W, dealloc_memic_in, dealloc_memic_out, LAYOUT) \
	X(MODIFY_MEMIC, 0x207, W, modify_memic_in, modify_memic_out, LAYOUT) \
	X(CREATE_EQ, 0x301, W, create_eq_in, create_eq_out, CORE) \
	X(DESTROY_EQ, 0x302, W, destroy_eq_in, destroy_eq_out, CORE) \
	X(QUERY_EQ, 0x303, R, query_eq_in, query_eq_out, LAYOUT) \
	X(GEN_EQE, 0x304, W, gen_eqe_in, none, LAYOUT) \
	X(CREATE_CQ, 0x400, W, create_cq_in, create_cq_out, LAYOUT) \
	X(DESTROY_CQ, 0x401, W, destroy_cq_in, destroy_cq_out, LAYOUT) \
	X(QUERY_CQ, 0x402, R, query_cq_in, query_cq_out, LAYOUT) \
	X(MODIFY_CQ, 0x403, W, modify_cq_in, modify_cq_out, LAYOUT) \
	X(CREATE_QP, 0x500, W, create_qp_in, create_qp_out, LAYOUT) \
	X(DESTROY_QP, 0x501, W, destroy_qp_in, destroy_qp_out, LAYOUT) \
	X(RST2INIT_QP, 0x502, W, rst2init_qp_in, rst2init_qp_out, LAYOUT) \
	X(INIT2RTR_QP, 0x503, W, init2rtr_qp_in, init2rtr_qp_out, LAYOUT) \
	X(RTR2RTS_QP, 0x504, W, rtr2rts_qp_in, rtr2rts_qp_out, LAYOUT) \
	X(RTS2RTS_QP, 0x505, W, rts2rts_qp_in, rts2rts_qp_out, LAYOUT) \
	X(SQERR2RTS_QP, 0x506, W, sqerr2rts_qp_in, sqerr2rts_qp_out, LAYOUT) \
	N(QP_2ERR, "2ERR_QP", 0x507, W, qp_2err_in, qp_2err_out, LAYOUT) \
	N(QP_2RST, "2RST_QP", 0x50a, W, qp_2rst_in, qp_2rst_out, LAYOUT) \
	X(QUERY_QP, 0x50b, R, query_qp_in, query_qp_out, LAYOUT) \
	X(SQD_RTS_QP, 0x50c, W, sqd2rts_qp_in, sqd2rts_qp_out, LAYOUT) \
	X(MAD_IFC, 0x50d, W, mad_ifc_in, mad_ifc_out, LAYOUT) \
	X(INIT2INIT_QP, 0x50e, W, init2init_qp_in, init2init_qp_out, LAYOUT) \
	X(CREATE_PSV, 0x600, W, create_psv_in, create_psv_out, LAYOUT) \
	X(DESTROY_PSV, 0x601, W, destroy_psv_in, destroy_psv_out, LAYOUT) \
	X(CREATE_SRQ, 0x700, W, create_srq_in, create_srq_out, LAYOUT) \
	X(DESTROY_SRQ, 0x701, W, destroy_srq_in, destroy_srq_out, LAYOUT) \
	X(QUERY_SRQ, 0x702, R, query_srq_in, query_srq_out, LAYOUT) \
	X(ARM_RQ, 0x703, W, arm_rq_in, arm_rq_out, LAYOUT) \
	X(CREATE_XRC_SRQ, 0x705, W, create_xrc_srq_in, create_xrc_srq_out, LAYOUT) \
	X(DESTROY_XRC_SRQ, 0x706, W, destroy_xrc_srq_in, destroy_xrc_srq_out, LAYOUT) \
	X(QUERY_XRC_SRQ, 0x707, R, query_xrc_srq_in, query_xrc_srq_out, LAYOUT) \
	X(ARM_XRC_SRQ, 0x708, W, arm_xrc_srq_in, arm_xrc_srq_out, LAYOUT) \
	X(CREATE_DCT, 0x710, W, create_dct_in, create_dct_out, CORE) \
	X(DESTROY_DCT, 0x711, W, destroy_dct_in, destroy_dct_out, CORE) \
	X(DRAIN_DCT, 0x712, W, drain_dct_in, drain_dct_out, CORE) \
	X(QUERY_DCT, 0x713, R, query_dct_in, query_dct_out, CORE) \
	X(ARM_DCT_FOR_KEY_VIOLATION, 0x714, W, arm_dct_in, arm_dct_out, LAYOUT) \
	X(CREATE_XRQ, 0x717, W, create_xrq_in, create_xrq_out, LAYOUT) \
	X(DESTROY_XRQ, 0x718, W, destroy_xrq_in, destroy_xrq_out, LAYOUT) \
	X(QUERY_XRQ, 0x719, R, query_xrq_in, query_xrq_out, LAYOUT) \
	X(ARM_XRQ, 0x71a, W, arm_xrq_in, arm_xrq_out, LAYOUT) \
	X(CREATE_NVMF_BACKEND_CTRL, 0x720, W, create_nvmf_be_ctrl_in, create_nvmf_be_ctrl_out, LAYOUT) /* vendor: NVMF */ \
	X(DESTROY_NVMF_BACKEND_CTRL, 0x721, W, destroy_nvmf_be_ctrl_in, destroy_nvmf_be_ctrl_out, LAYOUT) /* vendor: NVMF */ \
	X(QUERY_NVMF_BACKEND_CTRL, 0x722, R, none, none, LAYOUT) /* vendor: NVMF */ \
	X(ATTACH_NVMF_NAMESPACE, 0x723, W, attach_nvmf_namespace_in, attach_nvmf_namespace_out, CORE) /* vendor: NVMF */ \
	X(DETACH_NVMF_NAMESPACE, 0x724, W, detach_nvmf_namespace_in, detach_nvmf_namespace_out, CORE) /* vendor: NVMF */ \
	X(QUERY_XRQ_DC_PARAMS_ENTRY, 0x725, R, none, none, LAYOUT) \
	X(SET_XRQ_DC_PARAMS_ENTRY, 0x726, W, none, none, LAYOUT) \
	X(QUERY_XRQ_ERROR_PARAMS, 0x727, R, none, none, LAYOUT) \
	X(QUERY_NVMF_NAMESPACE_CONTEXT, 0x728, R, query_nvmf_namespace_in, query_nvmf_namespace_out, CORE) /* vendor: NVMF */ \
	X(RELEASE_XRQ_ERROR, 0x729, W, none, none, LAYOUT) \
	X(MODIFY_XRQ, 0x72a, W, none, none, LAYOUT) \
	X(QUERY_ESW_FUNCTIONS, 0x740, R, query_esw_functions_in, query_esw_functions_out, CORE) \
	X(QUERY_VPORT_STATE, 0x750, R, query_vport_state_in, query_vport_state_out, LAYOUT) \
	X(MODIFY_VPORT_STATE, 0x751, W, modify_vport_state_in, modify_vport_state_out, LAYOUT) \
	X(QUERY_ESW_VPORT_CONTEXT, 0x752, R, query_esw_vport_context_in, query_esw_vport_context_out, LAYOUT) \
	X(MODIFY_ESW_VPORT_CONTEXT, 0x753, W, modify_esw_vport_context_in, modify_esw_vport_context_out, LAYOUT) \
	X(QUERY_NIC_VPORT_CONTEXT, 0x754, R, query_nic_vport_context_in, query_nic_vport_context_out, LAYOUT) \
	X(MODIFY_NIC_VPORT_CONTEXT, 0x755, W, modify_nic_vport_context_in, modify_nic_vport_context_out, LAYOUT) \
	X(QUERY_ROCE_ADDRESS, 0x760, R, query_roce_address_in, query_roce_address_out, LAYOUT) \
	X(SET_ROCE_ADDRESS, 0x761, W, set_roce_address_in, set_roce_address_out, LAYOUT) \
	X(QUERY_HCA_VPORT_CONTEXT, 0x762, R, query_hca_vport_context_in, query_hca_vport_context_out, LAYOUT) \
	X(MODIFY_HCA_VPORT_CONTEXT, 0x763, W, modify_hca_vport_context_in, modify_hca_vport_context_out, LAYOUT) \
	X(QUERY_HCA_VPORT_GID, 0x764, R, query_hca_vport_gid_in, query_hca_vport_gid_out, LAYOUT) \
	X(QUERY_HCA_VPORT_PKEY, 0x765, R, query_hca_vport_pkey_in, query_hca_vport_pkey_out, LAYOUT) \
	X(QUERY_VNIC_ENV, 0x76f, R, query_vnic_env_in, query_vnic_env_out, LAYOUT) \
	X(QUERY_VPORT_COUNTER, 0x770, R, query_vport_counter_in, query_vport_counter_out, LAYOUT) \
	X(ALLOC_Q_COUNTER, 0x771, W, alloc_q_counter_in, alloc_q_counter_out, LAYOUT) \
	X(DEALLOC_Q_COUNTER, 0x772, W, dealloc_q_counter_in, dealloc_q_counter_out, LAYOUT) \
	X(QUERY_Q_COUNTER, 0x773, R, query_q_counter_in, query_q_counter_out, LAYOUT) \
	X(SET_MONITOR_COUNTER, 0x774, W, set_monitor_counter_in, set_monitor_counter_out, LAYOUT) \
	X(ARM_MONITOR_COUNTER, 0x775, W, arm_monitor_counter_in, arm_monitor_counter_out, LAYOUT) \
	X(SET_PP_RATE_LIMIT, 0x780, W, set_pp_rate_limit_in, set_pp_rate_limit_out, LAYOUT) \
	X(QUERY_RATE_LIMIT, 0x781, R, none, none, LAYOUT) \
	X(CREATE_SCHEDULING_ELEMENT, 0x782, W, create_scheduling_element_in, create_scheduling_element_out, LAYOUT) \
	X(DESTROY_SCHEDULING_ELEMENT, 0x783, W, destroy_scheduling_element_in, destroy_scheduling_element_out, LAYOUT) \
	X(QUERY_SCHEDULING_ELEMENT, 0x784, R, query_scheduling_element_in, query_scheduling_element_out, LAYOUT) \
	X(MODIFY_SCHEDULING_ELEMENT, 0x785, W, modify_scheduling_element_in, modify_scheduling_element_out, LAYOUT) \
	X(CREATE_QOS_PARA_VPORT, 0x786, W, none, none, LAYOUT) \
	X(DESTROY_QOS_PARA_VPORT, 0x787, W, none, none, LAYOUT) \
	X(ALLOC_PD, 0x800, W, alloc_pd_in, alloc_pd_out, LAYOUT) \
	X(DEALLOC_PD, 0x801, W, dealloc_pd_in, dealloc_pd_out, LAYOUT) \
	X(ALLOC_UAR, 0x802, W, alloc_uar_in, alloc_uar_out, CORE) \
	X(DEALLOC_UAR, 0x803, W, dealloc_uar_in, dealloc_uar_out, CORE) \
	X(CONFIG_INT_MODERATION, 0x804, W, config_int_moderation_in, config_int_moderation_out, LAYOUT) \
	X(ACCESS_REG, 0x805, R_OPMOD1, access_register_in, access_register_out, REG) \
	X(ATTACH_TO_MCG, 0x806, W, attach_to_mcg_in, attach_to_mcg_out, LAYOUT) \
	X(DETACH_FROM_MCG, 0x807, W, detach_from_mcg_in, detach_from_mcg_out, LAYOUT) \
	X(GET_DROPPED_PACKET_LOG, 0x80a, W, get_dropped_packet_log_in, get_dropped_packet_log_out, LAYOUT) \
	X(QUERY_MAD_DEMUX, 0x80b, R, query_mad_demux_in, query_mad_demux_out, LAYOUT) \
	X(SET_MAD_DEMUX, 0x80c, W, set_mad_demux_in, set_mad_demux_out, LAYOUT) \
	X(NOP, 0x80d, W, nop_in, nop_out, LAYOUT) \
	X(ALLOC_XRCD, 0x80e, W, alloc_xrcd_in, alloc_xrcd_out, LAYOUT) \
	X(DEALLOC_XRCD, 0x80f, W, dealloc_xrcd_in, dealloc_xrcd_out, LAYOUT) \
	X(ALLOC_TRANSPORT_DOMAIN, 0x816, W, alloc_transport_domain_in, alloc_transport_domain_out, LAYOUT) \
	X(DEALLOC_TRANSPORT_DOMAIN, 0x817, W, dealloc_transport_domain_in, dealloc_transport_domain_out, LAYOUT) \
	X(QUERY_CONG_STATUS, 0x822, R, query_cong_status_in, query_cong_status_out, LAYOUT) \
	X(MODIFY_CONG_STATUS, 0x823, W, modify_cong_status_in, modify_cong_status_out, LAYOUT) \
	X(QUERY_CONG_PARAMS, 0x824, R, query_cong_params_in, query_cong_params_out, LAYOUT) \
	X(MODIFY_CONG_PARAMS, 0x825, W, modify_cong_params_in, modify_cong_params_out, LAYOUT) \
	X(QUERY_CONG_STATISTICS, 0x826, R, query_cong_statistics_in, query_cong_statistics_out, LAYOUT) \
	X(ADD_VXLAN_UDP_DPORT, 0x827, W, add_vxlan_udp_dport_in, add_vxlan_udp_dport_out, LAYOUT) \
	X(DELETE_VXLAN_UDP_DPORT, 0x828, W, delete_vxlan_udp_dport_in, delete_vxlan_udp_dport_out, LAYOUT) \
	X(SET_L2_TABLE_ENTRY, 0x829, W, set_l2_table_entry_in, set_l2_table_entry_out, LAYOUT) \
	X(QUERY_L2_TABLE_ENTRY, 0x82a, R, query_l2_table_entry_in, query_l2_table_entry_out, LAYOUT) \
	X(DELETE_L2_TABLE_ENTRY, 0x82b, W, delete_l2_table_entry_in, delete_l2_table_entry_out, LAYOUT) \
	X(SET_WOL_ROL, 0x830, W, set_wol_rol_in, set_wol_rol_out, LAYOUT) \
	X(QUERY_WOL_ROL, 0x831, R, query_wol_rol_in, query_wol_rol_out, LAYOUT) \
	X(CREATE_LAG, 0x840, W, create_lag_in, create_lag_out, LAYOUT) \
	X(MODIFY_LAG, 0x841, W, modify_lag_in, modify_lag_out, LAYOUT) \
	X(QUERY_LAG, 0x842, R, query_lag_in, query_lag_out, LAYOUT) \
	X(DESTROY_LAG, 0x843, W, destroy_lag_in, destroy_lag_out, LAYOUT) \
	X(CREATE_VPORT_LAG, 0x844, W, create_vport_lag_in, create_vport_lag_out, LAYOUT) \
	X(DESTROY_VPORT_LAG, 0x845, W, destroy_vport_lag_in, destroy_vport_lag_out, LAYOUT) \
	X(CREATE_TIR, 0x900, W, create_tir_in, create_tir_out, LAYOUT) \
	X(MODIFY_TIR, 0x901, W, modify_tir_in, modify_tir_out, LAYOUT) \
	X(DESTROY_TIR, 0x902, W, destroy_tir_in, destroy_tir_out, LAYOUT) \
	X(QUERY_TIR, 0x903, R, query_tir_in, query_tir_out, LAYOUT) \
	X(CREATE_SQ, 0x904, W, create_sq_in, create_sq_out, LAYOUT) \
	X(MODIFY_SQ, 0x905, W, modify_sq_in, modify_sq_out, LAYOUT) \
	X(DESTROY_SQ, 0x906, W, destroy_sq_in, destroy_sq_out, LAYOUT) \
	X(QUERY_SQ, 0x907, R, query_sq_in, query_sq_out, LAYOUT) \
	X(CREATE_RQ, 0x908, W, create_rq_in, create_rq_out, LAYOUT) \
	X(MODIFY_RQ, 0x909, W, modify_rq_in, modify_rq_out, LAYOUT) \
	X(DESTROY_RQ, 0x90a, W, destroy_rq_in, destroy_rq_out, LAYOUT) \
	X(QUERY_RQ, 0x90b, R, query_rq_in, query_rq_out, LAYOUT) \
	X(CREATE_RMP, 0x90c, W, create_rmp_in, create_rmp_out, LAYOUT) \
	X(MODIFY_RMP, 0x90d, W, modify_rmp_in, modify_rmp_out, LAYOUT) \
	X(DESTROY_RMP, 0x90e, W, destroy_rmp_in, destroy_rmp_out, LAYOUT) \
	X(QUERY_RMP, 0x90f, R, query_rmp_in, query_rmp_out, LAYOUT) \
	X(SET_DELAY_DROP_PARAMS, 0x910, W, set_delay_drop_params_in, set_delay_drop_params_out, LAYOUT) \
	X(CREATE_TIS, 0x912, W, create_tis_in, create_tis_out, LAYOUT) \
	X(MODIFY_TIS, 0x913, W, modify_tis_in, modify_tis_out, LAYOUT) \
	X(DESTROY_TIS, 0x914, W, destroy_tis_in, destroy_tis_out, LAYOUT) \
	X(QUERY_TIS, 0x915, R, query_tis_in, query_tis_out, LAYOUT) \
	X(CREATE_RQT, 0x916, W, create_rqt_in, create_rqt_out, LAYOUT) \
	X(MODIFY_RQT, 0x917, W, modify_rqt_in, modify_rqt_out, LAYOUT) \
	X(DESTROY_RQT, 0x918, W, destroy_rqt_in, destroy_rqt_out, LAYOUT) \
	X(QUERY_RQT, 0x919, R, query_rqt_in, query_rqt_out, LAYOUT) \
	X(SET_FLOW_TABLE_ROOT, 0x92f, W, set_flow_table_root_in, set_flow_table_root_out, LAYOUT) \
	X(CREATE_FLOW_TABLE, 0x930, W, create_flow_table_in, create_flow_table_out, LAYOUT) \
	X(DESTROY_FLOW_TABLE, 0x931, W, destroy_flow_table_in, destroy_flow_table_out, LAYOUT) \
	X(QUERY_FLOW_TABLE, 0x932, R, query_flow_table_in, query_flow_table_out, LAYOUT) \
	X(CREATE_FLOW_GROUP, 0x933, W, create_flow_group_in, create_flow_group_out, LAYOUT) \
	X(DESTROY_FLOW_GROUP, 0x934, W, destroy_flow_group_in, destroy_flow_group_out, LAYOUT) \
	X(QUERY_FLOW_GROUP, 0x935, R, query_flow_group_in, query_flow_group_out, LAYOUT) \
	X(SET_FLOW_TABLE_ENTRY, 0x936, W, set_fte_in, set_fte_out, LAYOUT) \
	X(QUERY_FLOW_TABLE_ENTRY, 0x937, R, query_fte_in, query_fte_out, LAYOUT) \
	X(DELETE_FLOW_TABLE_ENTRY, 0x938, W, delete_fte_in, delete_fte_out, LAYOUT) \
	X(ALLOC_FLOW_COUNTER, 0x939, W, alloc_flow_counter_in, alloc_flow_counter_out, LAYOUT) \
	X(DEALLOC_FLOW_COUNTER, 0x93a, W, dealloc_flow_counter_in, dealloc_flow_counter_out, LAYOUT) \
	X(QUERY_FLOW_COUNTER, 0x93b, R, query_flow_counter_in, query_flow_counter_out, LAYOUT) \
	X(MODIFY_FLOW_TABLE, 0x93c, W, modify_flow_table_in, modify_flow_table_out, LAYOUT) \
	X(ALLOC_PACKET_REFORMAT_CONTEXT, 0x93d, W, alloc_packet_reformat_context_in, alloc_packet_reformat_context_out, LAYOUT) \
	X(DEALLOC_PACKET_REFORMAT_CONTEXT, 0x93e, W, dealloc_packet_reformat_context_in, dealloc_packet_reformat_context_out, LAYOUT) \
	X(QUERY_PACKET_REFORMAT_CONTEXT, 0x93f, R, query_packet_reformat_context_in, query_packet_reformat_context_out, LAYOUT) \
	X(ALLOC_MODIFY_HEADER_CONTEXT, 0x940, W, alloc_modify_header_context_in, alloc_modify_header_context_out, LAYOUT) \
	X(DEALLOC_MODIFY_HEADER_CONTEXT, 0x941, W, dealloc_modify_header_context_in, dealloc_modify_header_context_out, LAYOUT) \
	X(QUERY_MODIFY_HEADER_CONTEXT, 0x942, R, query_modify_header_context_in, none, LAYOUT) \
	X(FPGA_CREATE_QP, 0x960, W, none, none, LAYOUT) \
	X(FPGA_MODIFY_QP, 0x961, W, none, none, LAYOUT) \
	X(FPGA_QUERY_QP, 0x962, W, none, none, LAYOUT) \
	X(FPGA_DESTROY_QP, 0x963, W, none, none, LAYOUT) \
	X(FPGA_QUERY_QP_COUNTERS, 0x964, W, none, none, LAYOUT) \
	X(CREATE_GENERAL_OBJECT, 0xa00, W, general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, LAYOUT) \
	X(MODIFY_GENERAL_OBJECT, 0xa01, W, general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, LAYOUT) \
	X(QUERY_GENERAL_OBJECT, 0xa02, R, general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, LAYOUT) \
	X(DESTROY_GENERAL_OBJECT, 0xa03, W, general_obj_in_cmd_hdr, general_obj_out_cmd_hdr, LAYOUT) \
	X(CREATE_UCTX, 0xa04, W, create_uctx_in, create_uctx_out, LAYOUT) \
	X(DESTROY_UCTX, 0xa06, W, destroy_uctx_in, destroy_uctx_out, LAYOUT) \
	X(CREATE_UMEM, 0xa08, W, create_umem_in, create_umem_out, LAYOUT) \
	X(DESTROY_UMEM, 0xa0a, W, destroy_umem_in, destroy_umem_out, LAYOUT) \
	X(SYNC_STEERING, 0xb00, W, sync_steering_in, sync_steering_out, LAYOUT) \
	X(SEND_QP_NVMF_CC, 0xb01, W, none, none, LAYOUT) /* vendor: NVMe SNAP */ \
	X(QUERY_NVMF_CC_RESPONSE, 0xb02, R, none, none, LAYOUT) /* vendor: NVMe SNAP, fwctl */ \
	X(QUERY_VHCA_STATE, 0xb0d, R, none, none, LAYOUT) \
	X(MODIFY_VHCA_STATE, 0xb0e, W, none, none, LAYOUT) \
	X(PSP_GEN_SPI, 0xb10, W, psp_gen_spi_in, psp_gen_spi_out, LAYOUT) \
	X(PSP_ROTATE_KEY, 0xb11, W, psp_rotate_key_in, psp_rotate_key_out, LAYOUT) \
	X(SYNC_CRYPTO, 0xb12, W, sync_crypto_in, sync_crypto_out, LAYOUT) \
	X(ALLOW_OTHER_VHCA_ACCESS, 0xb16, W, allow_other_vhca_access_in, allow_other_vhca_access_out, LAYOUT) \
	X(GENERATE_WQE, 0xb17, W, none, none, LAYOUT)

/*
 * Capability types of QUERY_HCA_CAP / SET_HCA_CAP op_mod (type << 1 | mode):
 * enum mlx5_cap_type of device.h, every type of 5.10 to 7.3 (VECTOR_CALC is
 * gone by 6.12; CRYPTO is in 6.12, PSP, ADV_RDMA and TLP_EMULATION in 7.3);
 * 0xe is RESERVED_14 upstream and NVMF in the vendor driver.
 *
 * X(name, value, alias, layout); N(identifier, "name", value, alias, layout).
 * alias: the tools' short name (caps --type eth).  layout: the member of
 * mlx5_ifc.h's union hca_cap_union that the MLX5_CAP_* accessor of device.h
 * reads for the type (nvmf_cap: the vendor header's, prm/nvmf.h).
 */
#define CXPRM_CAP_TYPES(X, N) \
	X(GENERAL, 0x0, general, cmd_hca_cap) \
	X(ETHERNET_OFFLOADS, 0x1, eth, per_protocol_networking_offload_caps) \
	X(ODP, 0x2, odp, odp_cap) \
	X(ATOMIC, 0x3, atomic, atomic_caps) \
	X(ROCE, 0x4, roce, roce_cap) \
	X(IPOIB_OFFLOADS, 0x5, ipoib, per_protocol_networking_offload_caps) \
	X(IPOIB_ENHANCED_OFFLOADS, 0x6, ipoib_enhanced, per_protocol_networking_offload_caps) \
	X(FLOW_TABLE, 0x7, flow_table, flow_table_nic_cap) \
	X(ESWITCH_FLOW_TABLE, 0x8, esw_flow_table, flow_table_eswitch_cap) \
	X(ESWITCH, 0x9, esw, e_switch_cap) \
	X(VECTOR_CALC, 0xb, vector_calc, vector_calc_cap) \
	X(QOS, 0xc, qos, qos_cap) \
	N(DEBUG_CAP, "DEBUG", 0xd, debug, debug_cap) /* not DEBUG, which builds may #define */ \
	X(NVMF, 0xe, nvmf, nvmf_cap) /* vendor; RESERVED_14 upstream */ \
	X(DEV_MEM, 0xf, dev_mem, device_mem_cap) \
	X(TLS, 0x11, tls, tls_cap) \
	X(VDPA_EMULATION, 0x13, vdpa, virtio_emulation_cap) \
	X(DEV_EVENT, 0x14, dev_event, device_event_cap) \
	X(IPSEC, 0x15, ipsec, ipsec_cap) \
	X(CRYPTO, 0x1a, crypto, crypto_cap) \
	X(DEV_SHAMPO, 0x1d, shampo, shampo_cap) /* SHAMPO in 7.3 */ \
	X(PSP, 0x1e, psp, psp_cap) \
	X(MACSEC, 0x1f, macsec, macsec_cap) \
	X(GENERAL_2, 0x20, general_2, cmd_hca_cap_2) \
	X(PORT_SELECTION, 0x25, port_selection, port_selection_cap) \
	X(ADV_VIRTUALIZATION, 0x26, adv_virt, adv_virtualization_cap) \
	X(ADV_RDMA, 0x28, adv_rdma, adv_rdma_cap) \
	X(TLP_EMULATION, 0x2a, tlp_emulation, tlp_dev_emu_capabilities)

/* Event types: enum mlx5_event of device.h.  X(name, value) */
#define CXPRM_EVENTS(X)                  \
	X(COMP, 0x00)                    \
	X(PATH_MIG, 0x01)                \
	X(COMM_EST, 0x02)                \
	X(SQ_DRAINED, 0x03)              \
	X(CQ_ERROR, 0x04)                \
	X(WQ_CATAS_ERROR, 0x05)          \
	X(PATH_MIG_FAILED, 0x07)         \
	X(INTERNAL_ERROR, 0x08)          \
	X(PORT_CHANGE, 0x09)             \
	X(CMD, 0x0a)                     \
	X(PAGE_REQUEST, 0x0b)            \
	X(PAGE_FAULT, 0x0c)              \
	X(NIC_VPORT_CHANGE, 0x0d)        \
	X(ESW_FUNCTIONS_CHANGED, 0x0e)   \
	X(VHCA_STATE_CHANGE, 0x0f)       \
	X(WQ_INVAL_REQ_ERROR, 0x10)      \
	X(WQ_ACCESS_ERROR, 0x11)         \
	X(SRQ_CATAS_ERROR, 0x12)         \
	X(SRQ_LAST_WQE, 0x13)            \
	X(SRQ_RQ_LIMIT, 0x14)            \
	X(GPIO_EVENT, 0x15)              \
	X(PORT_MODULE_EVENT, 0x16)       \
	X(TEMP_WARN_EVENT, 0x17)         \
	X(XRQ_ERROR, 0x18)               \
	X(REMOTE_CONFIG, 0x19)           \
	X(DB_BF_CONGESTION, 0x1a)        \
	X(STALL_EVENT, 0x1b)             \
	X(DCT_DRAINED, 0x1c)             \
	X(DCT_KEY_VIOLATION, 0x1d)       \
	X(FPGA_ERROR, 0x20)              \
	X(FPGA_QP_ERROR, 0x21)           \
	X(GENERAL_EVENT, 0x22)           \
	X(MONITOR_COUNTER, 0x24)         \
	X(PPS_EVENT, 0x25)               \
	X(DEVICE_TRACER, 0x26)           \
	X(OBJECT_CHANGE, 0x27)

#ifndef __cplusplus
/* For the C shim: CXPRM_EV_<name> (the C++ side has prm::event::Type). */
#define CXPRM_EV_ENUM_(n, v) CXPRM_EV_##n = (v),
enum cxprm_event_type { CXPRM_EVENTS(CXPRM_EV_ENUM_) };
#undef CXPRM_EV_ENUM_
#endif

#ifdef __cplusplus
#include "../types.h"

namespace cxprm::prm {

namespace op {
#define CXPRM_OP_ENUM_(n, v, rw, in, out, dec) n = v,
#define CXPRM_OP_ENUM_N_(n, s, v, rw, in, out, dec) n = v,
enum Opcode : u16 { CXPRM_OPCODES(CXPRM_OP_ENUM_, CXPRM_OP_ENUM_N_) };
#undef CXPRM_OP_ENUM_
#undef CXPRM_OP_ENUM_N_
/* The general-command range (MLX5_CMD_OP_GENERAL_START/END): [START, END). */
inline constexpr u16 GENERAL_START = 0xb00;
inline constexpr u16 GENERAL_END = 0xd00;
} // namespace op

/* CXPRM_OPCODES' scope and decoder columns. */
enum class Scope : u8 { W, R, R_OPMOD1 };
enum class Decoder : u8 { LAYOUT, CORE, CAP, REG };

/* One row of CXPRM_OPCODES; in_layout/out_layout "" for "none". */
struct OpcodeInfo {
	u16 value;
	Scope scope;
	Decoder decoder;
	const char *name;
	const char *in_layout;
	const char *out_layout;
};

/* The row of an opcode, or nullptr; opcode_table() every row, by value. */
const OpcodeInfo *opcode_info(u16 opcode);
const OpcodeInfo *opcode_table(u32 *count);

/*
 * The same layout columns at compile time, for static checks and for code
 * that picks layout types by them (the emulator's opcode table): the
 * token as written ("none" for no layout), nullptr for an opcode not in
 * the table.
 */
constexpr const char *opcode_layout_token(u16 opcode, bool input)
{
	switch (opcode) {
#define CXPRM_OP_LAYOUT_(n, v, rw, in, out, dec) \
	case v:                                  \
		return input ? #in : #out;
#define CXPRM_OP_LAYOUT_N_(n, s, v, rw, in, out, dec) CXPRM_OP_LAYOUT_(n, v, rw, in, out, dec)
		CXPRM_OPCODES(CXPRM_OP_LAYOUT_, CXPRM_OP_LAYOUT_N_)
#undef CXPRM_OP_LAYOUT_
#undef CXPRM_OP_LAYOUT_N_
	default:
		return nullptr;
	}
}

/* "QUERY_HCA_CAP" for 0x100; nullptr for an opcode we do not know. */
const char *opcode_name(u16 opcode);

/*
 * Whether the command is a known read-only query: a QUERY_* opcode, or
 * ACCESS_REG with op_mod READ (1).  op_mod is the command's (cmd_in.op_mod).
 */
bool opcode_is_query(u16 opcode, u16 op_mod);

/* QUERY_HCA_CAP / SET_HCA_CAP op_mod: (capability type << 1) | mode. */
namespace cap {
#define CXPRM_CAP_ENUM_(n, v, alias, layout) n = v,
#define CXPRM_CAP_ENUM_N_(n, s, v, alias, layout) n = v,
enum Type : u16 { CXPRM_CAP_TYPES(CXPRM_CAP_ENUM_, CXPRM_CAP_ENUM_N_) };
#undef CXPRM_CAP_ENUM_
#undef CXPRM_CAP_ENUM_N_
enum Mode : u16 {
	MAX = 0, /* HCA_CAP_OPMOD_GET_MAX: what the device can do */
	CUR = 1, /* HCA_CAP_OPMOD_GET_CUR: what is currently set */
};
/* op_mod of QUERY_HCA_CAP; SET_HCA_CAP uses op_mod(type, MAX) = type << 1. */
constexpr u16 op_mod(Type t, Mode m) { return (u16)((t << 1) | m); }
} // namespace cap

/* "GENERAL" for cap::GENERAL; nullptr when unknown. */
const char *cap_type_name(u16 type);

/* One row of CXPRM_CAP_TYPES. */
struct CapTypeInfo {
	u16 value;
	const char *name;   /* "ETHERNET_OFFLOADS" */
	const char *alias;  /* "eth" */
	const char *layout; /* "per_protocol_networking_offload_caps" */
};
const CapTypeInfo *cap_type_info(u16 type);
const CapTypeInfo *cap_type_table(u32 *count);

/* QUERY_PAGES op_mod (which page demand to report). */
namespace query_pages_op {
enum : u16 { BOOT = 1, INIT = 2, REGULAR = 3 };
}

/* MANAGE_PAGES op_mod (core/pagealloc.c). */
namespace manage_pages_op {
enum : u16 { CANT_GIVE = 0, GIVE = 1, TAKE = 2 };
}

/* teardown_hca_in.profile and teardown_hca_out.state. */
namespace teardown_profile {
enum : u16 { GRACEFUL_CLOSE = 0, FORCE_CLOSE = 1, PREPARE_FAST_TEARDOWN = 2 };
}
namespace teardown_state {
enum : u8 { SUCCESS = 0, FAIL = 1 };
}

/* cmd_hca_cap.port_type. */
namespace port_type {
enum : u8 { IB = 0, ETH = 1 };
}

namespace event {
#define CXPRM_EV_ENUM_(n, v) n = v,
enum Type : u8 { CXPRM_EVENTS(CXPRM_EV_ENUM_) };
#undef CXPRM_EV_ENUM_
/* Event types are 8 bits; CREATE_EQ's event_bitmask has one bit per type. */
inline constexpr u32 NUM_TYPES = 0x100;
} // namespace event

/* "PAGE_REQUEST" for 0x0b; nullptr when unknown. */
const char *event_name(u8 type);

} // namespace cxprm::prm
#endif /* __cplusplus */
