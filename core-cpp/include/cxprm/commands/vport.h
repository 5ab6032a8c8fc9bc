/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The function's own NIC vport and RoCE address table (prm/vport.h):
 * QUERY_NIC_VPORT_CONTEXT (permanent MAC, roce_en), MODIFY_NIC_VPORT_CONTEXT
 * (roce_en only, as vport.c mlx5_nic_vport_update_roce_state) and
 * SET_ROCE_ADDRESS (gid.c mlx5_core_roce_gid_set).
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct NicVport {
	u8 mac[6];      /* permanent_address */
	bool roce_en;
};

int query_nic_vport(Cmdq &q, NicVport *v, CmdResult *res = nullptr);
int decode_query_nic_vport(const void *out, u32 outlen, NicVport *v);
/* field_select.roce_en with nic_vport_context.roce_en = en. */
int modify_nic_vport_roce(Cmdq &q, bool en, CmdResult *res = nullptr);

/*
 * One GID table entry.  Empty (gid and mac zero) deletes it; roce_version
 * and roce_l3_type are sent either way, as gid.c does.  vhca_port_num is
 * sent only when set_port (cmd_hca_cap.num_vhca_ports > 0).
 */
struct RoceAddr {
	u16 index = 0;
	u8 port = 1;
	bool set_port = false;
	u8 roce_version = 0;  /* prm::roce_version */
	u8 roce_l3_type = 0;  /* prm::roce_l3_type */
	u8 gid[16] = {};
	u8 mac[6] = {};
};
int set_roce_address(Cmdq &q, const RoceAddr &a, CmdResult *res = nullptr);

} // namespace cxprm::cmd
