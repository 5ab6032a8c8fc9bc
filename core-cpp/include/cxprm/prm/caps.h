/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The capability types other than general, eswitch, RoCE and NVMF
 * (hca_cap.h): only the fields the emulator's profiles set, offsets and
 * widths those of mlx5_ifc.h 6.1 (ifc_crosscheck).  A nested member
 * (odp_cap.rc_odp_caps, flow_table_nic_cap.flow_table_properties_nic_receive)
 * is listed as one field whose offset places its own layout.  The tools
 * decode a type with the build's fuller mlx5_ifc.h table when that one has
 * every field listed here (cxprm caps).
 */
#pragma once

#include "../layout.h"

namespace cxprm::prm {

#define CXPRM_ODP_PER_TRANSPORT_SERVICE_CAP(F)                                  \
	F(send, 0x0, 1)                                                         \
	F(receive, 0x1, 1)                                                      \
	F(write, 0x2, 1)                                                        \
	F(read, 0x3, 1)                                                         \
	F(atomic, 0x4, 1)                                                       \
	F(srq_receive, 0x5, 1)
CXPRM_LAYOUT(odp_per_transport_service_cap, 0x20, CXPRM_ODP_PER_TRANSPORT_SERVICE_CAP)

#define CXPRM_ODP_CAP(F)                                                        \
	F(rc_odp_caps, 0x80, 0x20)                                              \
	F(ud_odp_caps, 0xc0, 0x20)
CXPRM_LAYOUT(odp_cap, 0x800, CXPRM_ODP_CAP)

#define CXPRM_ATOMIC_CAPS(F)                                                    \
	F(atomic_req_8B_endianness_mode, 0x40, 2)                               \
	F(atomic_operations, 0x90, 0x10)                                        \
	F(atomic_size_qp, 0xb0, 0x10)                                           \
	F(atomic_size_dc, 0xd0, 0x10)
CXPRM_LAYOUT(atomic_caps, 0x800, CXPRM_ATOMIC_CAPS)

#define CXPRM_FLOW_TABLE_PROP_LAYOUT(F)                                         \
	F(ft_support, 0x0, 1)                                                   \
	F(flow_counter, 0x2, 1)                                                 \
	F(flow_modify_en, 0x3, 1)                                               \
	F(modify_root, 0x4, 1)                                                  \
	F(log_max_ft_size, 0x22, 6)                                             \
	F(max_ft_level, 0x38, 8)                                                \
	F(log_max_ft_num, 0x78, 8)                                              \
	F(log_max_flow_counter, 0x90, 8)                                        \
	F(log_max_destination, 0x98, 8)                                         \
	F(log_max_flow, 0xb8, 8)
CXPRM_LAYOUT(flow_table_prop_layout, 0x200, CXPRM_FLOW_TABLE_PROP_LAYOUT)

#define CXPRM_FLOW_TABLE_NIC_CAP(F)                                             \
	F(nic_rx_multi_path_tirs, 0x0, 1)                                       \
	F(flow_table_properties_nic_receive, 0x200, 0x200)                      \
	F(flow_table_properties_nic_transmit, 0x800, 0x200)
CXPRM_LAYOUT(flow_table_nic_cap, 0x8000, CXPRM_FLOW_TABLE_NIC_CAP)

#define CXPRM_QOS_CAP(F)                                                        \
	F(packet_pacing, 0x0, 1)                                                \
	F(esw_scheduling, 0x1, 1)                                               \
	F(esw_bw_share, 0x2, 1)                                                 \
	F(esw_rate_limit, 0x3, 1)                                               \
	F(log_esw_max_sched_depth, 0xc, 4)                                      \
	F(packet_pacing_max_rate, 0x40, 0x20)                                   \
	F(packet_pacing_min_rate, 0x60, 0x20)                                   \
	F(packet_pacing_rate_table_size, 0x90, 0x10)                            \
	F(max_tsar_bw_share, 0xe0, 0x20)
CXPRM_LAYOUT(qos_cap, 0x800, CXPRM_QOS_CAP)

#define CXPRM_DEBUG_CAP(F)                                                      \
	F(core_dump_general, 0x0, 1)                                            \
	F(core_dump_qp, 0x1, 1)                                                 \
	F(resource_dump, 0x9, 1)
CXPRM_LAYOUT(debug_cap, 0x800, CXPRM_DEBUG_CAP)

#define CXPRM_DEVICE_MEM_CAP(F)                                                 \
	F(memic, 0x0, 1)                                                        \
	F(log_min_memic_alloc_size, 0x2b, 5)                                    \
	F(log_max_memic_addr_alignment, 0x38, 8)                                \
	F(max_memic_size, 0xa0, 0x20)                                           \
	F(log_steering_sw_icm_size, 0x118, 8)
CXPRM_LAYOUT(device_mem_cap, 0x800, CXPRM_DEVICE_MEM_CAP)

#define CXPRM_TLS_CAP(F)                                                        \
	F(tls_1_2_aes_gcm_128, 0x0, 1)                                          \
	F(tls_1_3_aes_gcm_128, 0x1, 1)                                          \
	F(tls_1_2_aes_gcm_256, 0x2, 1)                                          \
	F(tls_1_3_aes_gcm_256, 0x3, 1)
CXPRM_LAYOUT(tls_cap, 0x800, CXPRM_TLS_CAP)

#define CXPRM_IPSEC_CAP(F)                                                      \
	F(ipsec_full_offload, 0x0, 1)                                           \
	F(ipsec_crypto_offload, 0x1, 1)                                         \
	F(ipsec_esn, 0x2, 1)                                                    \
	F(ipsec_crypto_esp_aes_gcm_256_encrypt, 0x3, 1)                         \
	F(ipsec_crypto_esp_aes_gcm_128_encrypt, 0x4, 1)                         \
	F(ipsec_crypto_esp_aes_gcm_256_decrypt, 0x5, 1)                         \
	F(ipsec_crypto_esp_aes_gcm_128_decrypt, 0x6, 1)                         \
	F(log_max_ipsec_offload, 0xb, 5)
CXPRM_LAYOUT(ipsec_cap, 0x800, CXPRM_IPSEC_CAP)

#define CXPRM_MACSEC_CAP(F)                                                     \
	F(macsec_epn, 0x0, 1)                                                   \
	F(macsec_crypto_esp_aes_gcm_256_encrypt, 0x3, 1)                        \
	F(macsec_crypto_esp_aes_gcm_128_encrypt, 0x4, 1)                        \
	F(macsec_crypto_esp_aes_gcm_256_decrypt, 0x5, 1)                        \
	F(macsec_crypto_esp_aes_gcm_128_decrypt, 0x6, 1)                        \
	F(log_max_macsec_offload, 0xb, 5)
CXPRM_LAYOUT(macsec_cap, 0x800, CXPRM_MACSEC_CAP)

#define CXPRM_CMD_HCA_CAP_2(F)                                                  \
	F(max_reformat_insert_size, 0xa0, 8)                                    \
	F(max_reformat_remove_size, 0xb0, 8)                                    \
	F(log_min_mkey_entity_size, 0x1ab, 5)
CXPRM_LAYOUT(cmd_hca_cap_2, 0x800, CXPRM_CMD_HCA_CAP_2)

#define CXPRM_PORT_SELECTION_CAP(F)                                             \
	F(port_select_flow_table, 0x10, 1)                                      \
	F(port_select_flow_table_bypass, 0x12, 1)
CXPRM_LAYOUT(port_selection_cap, 0x8000, CXPRM_PORT_SELECTION_CAP)

#define CXPRM_ADV_VIRTUALIZATION_CAP(F)                                         \
	F(pg_track_log_max_num, 0x3, 5)                                         \
	F(pg_track_max_num_range, 0x8, 8)                                       \
	F(pg_track_log_min_page_size, 0x33, 5)                                  \
	F(pg_track_log_max_page_size, 0x3b, 5)
CXPRM_LAYOUT(adv_virtualization_cap, 0x800, CXPRM_ADV_VIRTUALIZATION_CAP)

#define CXPRM_VIRTIO_EMULATION_CAP(F)                                           \
	F(desc_tunnel_offload_type, 0x0, 1)                                     \
	F(eth_frame_offload_type, 0x1, 1)                                       \
	F(virtio_version_1_0, 0x2, 1)                                           \
	F(event_mode, 0x10, 8)                                                  \
	F(virtio_queue_type, 0x18, 8)                                           \
	F(max_emulated_devices, 0x80, 8)                                        \
	F(max_num_virtio_queues, 0x88, 0x18)
CXPRM_LAYOUT(virtio_emulation_cap, 0x800, CXPRM_VIRTIO_EMULATION_CAP)

} // namespace cxprm::prm
