/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The NIC vport context and the RoCE address (GID) table:
 * QUERY/MODIFY_NIC_VPORT_CONTEXT (roce_en, the permanent MAC) and
 * SET_ROCE_ADDRESS.  Only the fields cxprm sets or reads are named.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"

namespace cxprm::prm {

/*
 * nic_vport_context: roce_en: RoCE enabled for the function's vport.
 * permanent_address is a mac_address_layout: 2 reserved bytes, then the MAC
 * (vport.c mlx5_query_nic_vport_mac_address reads from byte 2).
 */

/*
 * modify_nic_vport_field_select: which nic_vport_context fields a MODIFY
 * changes.
 */

/*
 * roce_addr_layout: one GID table entry.  An entry written with a zero
 * source_l3_address and MAC is empty (gid.c mlx5_core_roce_gid_set with gid
 * NULL: the delete). roce_version: 0 RoCE v1, 2 RoCE v2; roce_l3_type (v2):
 * 0 IPv4, 1 IPv6 (device.h MLX5_ROCE_VERSION_*, MLX5_ROCE_L3_TYPE_*).
 */

/*
 * set_roce_address_in: vhca_port_num: only when cmd_hca_cap.num_vhca_ports
 * > 0 (gid.c).
 */

namespace roce_version {
enum : u8 { V1 = 0, V2 = 2 };
}
namespace roce_l3_type {
enum : u8 { IPV4 = 0, IPV6 = 1 };
}

} // namespace cxprm::prm
