/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The NIC vport context and the RoCE address (GID) table:
 * QUERY/MODIFY_NIC_VPORT_CONTEXT (roce_en, the permanent MAC) and
 * SET_ROCE_ADDRESS.  Only the fields cxprm sets or reads are named.
 */
#pragma once

#include "transport.h"

namespace cxprm::prm {

/*
 * roce_en: RoCE enabled for the function's vport.  permanent_address is a
 * mac_address_layout: 2 reserved bytes, then the MAC (vport.c
 * mlx5_query_nic_vport_mac_address reads from byte 2).
 */
#define CXPRM_NIC_VPORT_CONTEXT(F)                                              \
	F(roce_en, 0x1f, 1)                                                     \
	F(permanent_address, 0x7a0, 0x40)
CXPRM_LAYOUT(nic_vport_context, 0x800, CXPRM_NIC_VPORT_CONTEXT)

/* Which nic_vport_context fields a MODIFY changes. */
#define CXPRM_MODIFY_NIC_VPORT_FIELD_SELECT(F)                                  \
	F(permanent_address, 0x1c, 1)                                           \
	F(roce_en, 0x1e, 1)
CXPRM_LAYOUT(modify_nic_vport_field_select, 0x20, CXPRM_MODIFY_NIC_VPORT_FIELD_SELECT)

#define CXPRM_MODIFY_NIC_VPORT_CONTEXT_IN(F)                                    \
	CXPRM_CMD_IN_HDR(F)                                                     \
	F(other_vport, 0x40, 1)                                                 \
	F(vport_number, 0x50, 0x10)                                             \
	F(field_select, 0x60, 0x20)                                             \
	F(nic_vport_context, 0x800, 0x800)
CXPRM_LAYOUT(modify_nic_vport_context_in, 0x1000, CXPRM_MODIFY_NIC_VPORT_CONTEXT_IN)
CXPRM_LAYOUT(modify_nic_vport_context_out, 0x80, CXPRM_CMD_OUT_HDR)

#define CXPRM_QUERY_NIC_VPORT_CONTEXT_IN(F)                                     \
	CXPRM_CMD_IN_HDR(F)                                                     \
	F(other_vport, 0x40, 1)                                                 \
	F(vport_number, 0x50, 0x10)                                             \
	F(allowed_list_type, 0x65, 3)
CXPRM_LAYOUT(query_nic_vport_context_in, 0x80, CXPRM_QUERY_NIC_VPORT_CONTEXT_IN)

#define CXPRM_QUERY_NIC_VPORT_CONTEXT_OUT(F) CXPRM_CMD_OUT_HDR(F) F(nic_vport_context, 0x80, 0x800)
CXPRM_LAYOUT(query_nic_vport_context_out, 0x880, CXPRM_QUERY_NIC_VPORT_CONTEXT_OUT)

/*
 * One GID table entry.  An entry written with a zero source_l3_address and
 * MAC is empty (gid.c mlx5_core_roce_gid_set with gid NULL: the delete).
 * roce_version: 0 RoCE v1, 2 RoCE v2; roce_l3_type (v2): 0 IPv4, 1 IPv6
 * (device.h MLX5_ROCE_VERSION_*, MLX5_ROCE_L3_TYPE_*).
 */
#define CXPRM_ROCE_ADDR_LAYOUT(F)                                               \
	F(source_l3_address, 0x0, 0x80)                                         \
	F(vlan_valid, 0x83, 1)                                                  \
	F(vlan_id, 0x84, 0xc)                                                   \
	F(source_mac_47_32, 0x90, 0x10)                                         \
	F(source_mac_31_0, 0xa0, 0x20)                                          \
	F(roce_l3_type, 0xd4, 4)                                                \
	F(roce_version, 0xd8, 8)
CXPRM_LAYOUT(roce_addr_layout, 0x100, CXPRM_ROCE_ADDR_LAYOUT)

/* vhca_port_num: only when cmd_hca_cap.num_vhca_ports > 0 (gid.c). */
#define CXPRM_SET_ROCE_ADDRESS_IN(F)                                            \
	CXPRM_CMD_IN_HDR(F)                                                     \
	F(roce_address_index, 0x40, 0x10)                                       \
	F(vhca_port_num, 0x5c, 4)                                               \
	F(roce_address, 0x80, 0x100)
CXPRM_LAYOUT(set_roce_address_in, 0x180, CXPRM_SET_ROCE_ADDRESS_IN)
CXPRM_LAYOUT(set_roce_address_out, 0x80, CXPRM_CMD_OUT_HDR)

namespace roce_version {
enum : u8 { V1 = 0, V2 = 2 };
}
namespace roce_l3_type {
enum : u8 { IPV4 = 0, IPV6 = 1 };
}

} // namespace cxprm::prm
