/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The registry of every PRM layout the core defines: for the layout dump,
 * the mlx5_ifc.h cross-check and anything else that walks all layouts.
 * A layout added to a prm/ header must be added here too (the cross-check
 * and the dump only see what is listed); the CTest
 * prm_registry_lists_every_layout fails until it is.
 */
#pragma once

#include "transport.h"
#include "flex.h"
#include "hca_cap.h"
#include "adapter.h"
#include "issi.h"
#include "hca.h"
#include "pages.h"
#include "eq.h"
#include "esw.h"
#include "dct.h"
#include "pd_cq.h"
#include "srq.h"
#include "rmp.h"
#include "qp.h"
#include "nvmf.h"
#include "caps.h"
#include "reg.h"
#include "vport.h"
#include "uctx.h"

namespace cxprm::prm {

/* X(layout, field X-list macro) */
#define CXPRM_LAYOUTS(X)                                                \
	/* transport.h */                                               \
	X(health_buffer, CXPRM_HEALTH_BUFFER)                           \
	X(initial_seg, CXPRM_INITIAL_SEG)                               \
	X(cmd_queue_entry, CXPRM_CMD_QUEUE_ENTRY)                       \
	X(cmd_if_box, CXPRM_CMD_IF_BOX)                                 \
	X(cmd_in, CXPRM_CMD_IN_UID_HDR)                                 \
	X(cmd_out, CXPRM_CMD_OUT)                                       \
	/* flex.h */                                                    \
	X(cmd_pas, CXPRM_CMD_PAS)                                       \
	/* hca_cap.h */                                                 \
	X(query_hca_cap_in, CXPRM_QUERY_HCA_CAP_IN)                     \
	X(query_hca_cap_out, CXPRM_QUERY_HCA_CAP_OUT)                   \
	X(set_hca_cap_in, CXPRM_SET_HCA_CAP_IN)                         \
	X(set_hca_cap_out, CXPRM_CMD_OUT_HDR)                           \
	X(cmd_hca_cap, CXPRM_CMD_HCA_CAP)                               \
	X(nvmf_cap, CXPRM_NVMF_CAP)                                     \
	X(e_switch_cap, CXPRM_E_SWITCH_CAP)                            \
	X(roce_cap, CXPRM_ROCE_CAP)                                    \
	/* caps.h */                                                    \
	X(odp_per_transport_service_cap, CXPRM_ODP_PER_TRANSPORT_SERVICE_CAP) \
	X(odp_cap, CXPRM_ODP_CAP)                                      \
	X(atomic_caps, CXPRM_ATOMIC_CAPS)                              \
	X(flow_table_prop_layout, CXPRM_FLOW_TABLE_PROP_LAYOUT)        \
	X(flow_table_nic_cap, CXPRM_FLOW_TABLE_NIC_CAP)                \
	X(qos_cap, CXPRM_QOS_CAP)                                      \
	X(debug_cap, CXPRM_DEBUG_CAP)                                  \
	X(device_mem_cap, CXPRM_DEVICE_MEM_CAP)                        \
	X(tls_cap, CXPRM_TLS_CAP)                                      \
	X(ipsec_cap, CXPRM_IPSEC_CAP)                                  \
	X(macsec_cap, CXPRM_MACSEC_CAP)                                \
	X(cmd_hca_cap_2, CXPRM_CMD_HCA_CAP_2)                          \
	X(port_selection_cap, CXPRM_PORT_SELECTION_CAP)                \
	X(adv_virtualization_cap, CXPRM_ADV_VIRTUALIZATION_CAP)        \
	X(virtio_emulation_cap, CXPRM_VIRTIO_EMULATION_CAP)            \
	/* adapter.h */                                                 \
	X(query_adapter_in, CXPRM_CMD_IN_HDR)                           \
	X(query_adapter_out, CXPRM_QUERY_ADAPTER_OUT)                   \
	X(query_adapter_param_block, CXPRM_QUERY_ADAPTER_PARAM_BLOCK)   \
	/* issi.h */                                                    \
	X(query_issi_in, CXPRM_CMD_IN_HDR)                              \
	X(query_issi_out, CXPRM_QUERY_ISSI_OUT)                         \
	X(set_issi_in, CXPRM_SET_ISSI_IN)                               \
	X(set_issi_out, CXPRM_CMD_OUT_HDR)                              \
	/* hca.h */                                                     \
	X(enable_hca_in, CXPRM_FUNCTION_IN)                             \
	X(enable_hca_out, CXPRM_CMD_OUT_HDR)                            \
	X(disable_hca_in, CXPRM_FUNCTION_IN)                            \
	X(disable_hca_out, CXPRM_CMD_OUT_HDR)                           \
	X(init_hca_in, CXPRM_INIT_HCA_IN)                               \
	X(init_hca_out, CXPRM_CMD_OUT_HDR)                              \
	X(teardown_hca_in, CXPRM_TEARDOWN_HCA_IN)                       \
	X(teardown_hca_out, CXPRM_TEARDOWN_HCA_OUT)                     \
	X(nop_in, CXPRM_CMD_IN_HDR)                                     \
	X(nop_out, CXPRM_CMD_OUT_HDR)                                   \
	X(set_driver_version_in, CXPRM_SET_DRIVER_VERSION_IN)          \
	X(set_driver_version_out, CXPRM_CMD_OUT_HDR)                    \
	/* pages.h */                                                   \
	X(query_pages_in, CXPRM_FUNCTION_IN)                            \
	X(query_pages_out, CXPRM_QUERY_PAGES_OUT)                       \
	X(manage_pages_in, CXPRM_MANAGE_PAGES_IN)                       \
	X(manage_pages_out, CXPRM_MANAGE_PAGES_OUT)                     \
	/* eq.h */                                                      \
	X(eqc, CXPRM_EQC)                                               \
	X(create_eq_in, CXPRM_CREATE_EQ_IN)                             \
	X(create_eq_out, CXPRM_CREATE_EQ_OUT)                           \
	X(destroy_eq_in, CXPRM_EQN_ONLY_IN)                             \
	X(destroy_eq_out, CXPRM_CMD_OUT_HDR)                            \
	X(query_eq_in, CXPRM_EQN_ONLY_IN)                               \
	X(query_eq_out, CXPRM_QUERY_EQ_OUT)                             \
	X(eqe, CXPRM_EQE)                                               \
	X(cmd_inter_comp_event, CXPRM_CMD_INTER_COMP_EVENT)             \
	X(pages_req_event, CXPRM_PAGES_REQ_EVENT)                       \
	X(dct_events, CXPRM_DCT_EVENTS)                                 \
	X(alloc_uar_in, CXPRM_CMD_IN_UID_HDR)                           \
	X(alloc_uar_out, CXPRM_ALLOC_UAR_OUT)                           \
	X(dealloc_uar_in, CXPRM_DEALLOC_UAR_IN)                         \
	X(dealloc_uar_out, CXPRM_CMD_OUT_HDR)                           \
	/* esw.h */                                                     \
	X(query_esw_functions_in, CXPRM_CMD_IN_HDR)                     \
	X(host_params_context, CXPRM_HOST_PARAMS_CONTEXT)               \
	X(query_esw_functions_out, CXPRM_QUERY_ESW_FUNCTIONS_OUT)       \
	/* dct.h */                                                     \
	X(dctc, CXPRM_DCTC)                                             \
	X(create_dct_in, CXPRM_CREATE_DCT_IN)                           \
	X(create_dct_out, CXPRM_CREATE_DCT_OUT)                         \
	X(destroy_dct_in, CXPRM_DCTN_ONLY_IN)                           \
	X(destroy_dct_out, CXPRM_CMD_OUT_HDR)                           \
	X(drain_dct_in, CXPRM_DCTN_ONLY_IN)                             \
	X(drain_dct_out, CXPRM_CMD_OUT_HDR)                             \
	X(query_dct_in, CXPRM_QUERY_DCT_IN)                             \
	X(query_dct_out, CXPRM_QUERY_DCT_OUT)                           \
	X(arm_dct_in, CXPRM_ARM_DCT_IN)                                 \
	X(arm_dct_out, CXPRM_CMD_OUT_HDR)                               \
	/* pd_cq.h */                                                \
	X(alloc_pd_in, CXPRM_CMD_IN_UID_HDR)                            \
	X(alloc_pd_out, CXPRM_ALLOC_PD_OUT)                     \
	X(dealloc_pd_in, CXPRM_DEALLOC_PD_IN)                   \
	X(dealloc_pd_out, CXPRM_CMD_OUT_HDR)                            \
	X(cqc, CXPRM_CQC)                                       \
	X(create_cq_in, CXPRM_CREATE_CQ_IN)                     \
	X(create_cq_out, CXPRM_CREATE_CQ_OUT)                   \
	X(destroy_cq_in, CXPRM_DESTROY_CQ_IN)                   \
	X(destroy_cq_out, CXPRM_CMD_OUT_HDR)                            \
	X(query_cq_in, CXPRM_QUERY_CQ_IN)                       \
	X(query_cq_out, CXPRM_QUERY_CQ_OUT)                     \
	/* srq.h */                                                  \
	X(srqc, CXPRM_SRQC)                                     \
	X(create_srq_in, CXPRM_CREATE_SRQ_IN)                   \
	X(create_srq_out, CXPRM_CREATE_SRQ_OUT)                 \
	X(destroy_srq_in, CXPRM_DESTROY_SRQ_IN)                 \
	X(destroy_srq_out, CXPRM_CMD_OUT_HDR)                           \
	X(query_srq_in, CXPRM_QUERY_SRQ_IN)                     \
	X(query_srq_out, CXPRM_QUERY_SRQ_OUT)                   \
	X(wq, CXPRM_WQ)                                         \
	X(xrqc, CXPRM_XRQC)                                     \
	X(create_xrq_in, CXPRM_CREATE_XRQ_IN)                   \
	X(create_xrq_out, CXPRM_CREATE_XRQ_OUT)                 \
	X(destroy_xrq_in, CXPRM_DESTROY_XRQ_IN)                 \
	X(destroy_xrq_out, CXPRM_CMD_OUT_HDR)                           \
	/* rmp.h */                                                  \
	X(rmpc, CXPRM_RMPC)                                     \
	X(create_rmp_in, CXPRM_CREATE_RMP_IN)                   \
	X(create_rmp_out, CXPRM_CREATE_RMP_OUT)                 \
	X(destroy_rmp_in, CXPRM_DESTROY_RMP_IN)                 \
	X(destroy_rmp_out, CXPRM_CMD_OUT_HDR)                           \
	X(query_rmp_in, CXPRM_QUERY_RMP_IN)                     \
	X(query_rmp_out, CXPRM_QUERY_RMP_OUT)                   \
	/* qp.h */                                                   \
	X(ads, CXPRM_ADS)                                       \
	X(qpc, CXPRM_QPC)                                       \
	X(create_qp_in, CXPRM_CREATE_QP_IN)                     \
	X(create_qp_out, CXPRM_CREATE_QP_OUT)                   \
	X(rst2init_qp_in, CXPRM_QP_TRANSITION_IN)               \
	X(rst2init_qp_out, CXPRM_QP_TRANSITION_OUT)             \
	X(init2rtr_qp_in, CXPRM_QP_TRANSITION_IN)               \
	X(init2rtr_qp_out, CXPRM_QP_TRANSITION_OUT)             \
	X(rtr2rts_qp_in, CXPRM_QP_TRANSITION_IN)                \
	X(rtr2rts_qp_out, CXPRM_QP_TRANSITION_OUT)              \
	X(qp_2rst_in, CXPRM_QPN_ONLY_IN)                        \
	X(qp_2rst_out, CXPRM_CMD_OUT_HDR)                               \
	X(destroy_qp_in, CXPRM_QPN_ONLY_IN)                     \
	X(destroy_qp_out, CXPRM_CMD_OUT_HDR)                            \
	/* nvmf.h */                                                    \
	X(query_nvmf_namespace_in, CXPRM_NVMF_NAMESPACE_IN)             \
	X(nvmf_frontend_namespace_context, CXPRM_NVMF_FRONTEND_NAMESPACE_CONTEXT) \
	X(query_nvmf_namespace_out, CXPRM_QUERY_NVMF_NAMESPACE_OUT)     \
	X(attach_nvmf_namespace_in, CXPRM_ATTACH_NVMF_NAMESPACE_IN)     \
	X(attach_nvmf_namespace_out, CXPRM_CMD_OUT_HDR)                 \
	X(detach_nvmf_namespace_in, CXPRM_NVMF_NAMESPACE_IN)            \
	X(detach_nvmf_namespace_out, CXPRM_CMD_OUT_HDR)                 \
	/* nvmf.h (backend controllers, XRQ offload) */              \
	X(nvme_offload_context, CXPRM_NVME_OFFLOAD_CONTEXT)     \
	X(nvmf_be_ctrl, CXPRM_NVMF_BE_CTRL)                     \
	X(create_nvmf_be_ctrl_in, CXPRM_CREATE_NVMF_BE_CTRL_IN) \
	X(nvmf_be_ctrl_addrs, CXPRM_NVMF_BE_CTRL_ADDRS)         \
	X(create_nvmf_be_ctrl_out, CXPRM_CREATE_NVMF_BE_CTRL_OUT) \
	X(destroy_nvmf_be_ctrl_in, CXPRM_DESTROY_NVMF_BE_CTRL_IN) \
	X(destroy_nvmf_be_ctrl_out, CXPRM_CMD_OUT_HDR)                  \
	/* reg.h */                                                     \
	X(access_register_in, CXPRM_ACCESS_REGISTER_IN)                 \
	X(access_register_out, CXPRM_CMD_OUT_HDR)                       \
	X(register_host_endianness, CXPRM_REGISTER_HOST_ENDIANNESS)     \
	X(pcam_reg, CXPRM_PCAM_REG)                                     \
	X(mcam_reg, CXPRM_MCAM_REG)                                     \
	X(mcam_access_reg, CXPRM_MCAM_ACCESS_REG)                       \
	X(default_timeout, CXPRM_DEFAULT_TIMEOUT)                       \
	X(dtor_reg, CXPRM_DTOR_REG)                                     \
	X(paos_reg, CXPRM_PAOS_REG)                                     \
	X(ptys_reg, CXPRM_PTYS_REG)                                     \
	X(pmtu_reg, CXPRM_PMTU_REG)                                     \
	X(ppcnt_reg, CXPRM_PPCNT_REG)                                   \
	X(eth_802_3_cntrs_grp_data_layout, CXPRM_ETH_802_3_CNTRS_GRP_DATA_LAYOUT) \
	X(qcam_reg, CXPRM_QCAM_REG)                                     \
	X(mcia_reg, CXPRM_MCIA_REG)                                     \
	X(mtrc_cap, CXPRM_MTRC_CAP)                                     \
	X(mgir_reg, CXPRM_MGIR_REG)                                     \
	/* vport.h */                                                   \
	X(nic_vport_context, CXPRM_NIC_VPORT_CONTEXT)                   \
	X(modify_nic_vport_field_select, CXPRM_MODIFY_NIC_VPORT_FIELD_SELECT) \
	X(modify_nic_vport_context_in, CXPRM_MODIFY_NIC_VPORT_CONTEXT_IN) \
	X(modify_nic_vport_context_out, CXPRM_CMD_OUT_HDR)              \
	X(query_nic_vport_context_in, CXPRM_QUERY_NIC_VPORT_CONTEXT_IN) \
	X(query_nic_vport_context_out, CXPRM_QUERY_NIC_VPORT_CONTEXT_OUT) \
	X(roce_addr_layout, CXPRM_ROCE_ADDR_LAYOUT)                     \
	X(set_roce_address_in, CXPRM_SET_ROCE_ADDRESS_IN)               \
	X(set_roce_address_out, CXPRM_CMD_OUT_HDR)                      \
	/* uctx.h */                                                    \
	X(uctx, CXPRM_UCTX)                                             \
	X(create_uctx_in, CXPRM_CREATE_UCTX_IN)                         \
	X(create_uctx_out, CXPRM_CREATE_UCTX_OUT)                       \
	X(destroy_uctx_in, CXPRM_DESTROY_UCTX_IN)                       \
	X(destroy_uctx_out, CXPRM_CMD_OUT_HDR)

/* Every registered layout, in the order above; *count gets their number. */
const LayoutDesc *const *all_layouts(u32 *count);

/* The layout called name, or nullptr. */
const LayoutDesc *find_layout(const char *name);

} // namespace cxprm::prm
