/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RoCE for the function, as mlx5_core and mlx5_ib set it up on an Ethernet
 * port (roce.cpp): roce_en in the NIC vport context, refcounted as vport.c
 * mlx5_nic_vport_enable/disable_roce, and the default GID entries ib_core
 * writes through mlx5_ib's add_gid (SET_ROCE_ADDRESS).  cxprm does it
 * lazily, when the first RC QP goes to RTR or the first DCT is created,
 * and undoes it in the teardown (not in the fast unload: Linux's shutdown
 * leaves it to firmware).  Internal to core-cpp/src.
 */
#pragma once

#include "cxprm/cmdq.h"
#include "cxprm/types.h"

struct cxprm_core;

namespace cxprm::capi {

/*
 * The default GIDs (cache.c gid_table_reserve_default): one per GID type
 * the port supports, from index 0: RoCE v1, then v2 (roce_cap
 * roce_version; none unless roce_cap.l3_type has IPv4 and IPv6, Linux
 * get_core_cap_flags).
 */
inline constexpr u8 ROCE_DEFAULT_GIDS = 2;

struct Roce {
	void *lock = nullptr;   /* host lock: files share the function */
	u32 roce_en_users = 0;  /* mdev->roce.roce_en */
	bool gids = false;      /* the default GID entries are written */
	u8 ngids = 0;           /* how many: gid_version[0..ngids) */
	u8 gid_version[ROCE_DEFAULT_GIDS] = {};
	u8 mac[6] = {};
	bool caps_read = false; /* roce_cap (CUR), read once */
	u8 versions = 0;        /* roce_cap.roce_version */
	u8 l3_types = 0;        /* roce_cap.l3_type */
	u8 qp_ts_format = 0;    /* roce_cap.qp_ts_format */
};

/* The lock (process context); E_NOMEM. */
int roce_init(cxprm_core *c);
void roce_fini(cxprm_core *c);

/* Whether the function's port is Ethernet with RoCE (cmd_hca_cap port_type, roce). */
bool roce_port(cxprm_core *c);

/*
 * Enables RoCE and writes the default GIDs unless done: OK at once on a
 * port without RoCE.  On failure *r and *op say which command failed and
 * nothing stays half set up.
 */
int roce_use(cxprm_core *c, CmdResult *r, u16 *op);

/*
 * The ts_format capability a QP's format comes from (Linux 6.1
 * mlx5_get_qp_default_ts): roce_cap.qp_ts_format on a RoCE port, else
 * cmd_hca_cap.sq_ts_format.  Reads roce_cap once (QUERY_HCA_CAP, *r).
 */
int roce_qp_ts_cap(cxprm_core *c, u8 *ts_cap, CmdResult *r);

/* roce_version of the populated GID entry index, or -1 when it is empty. */
int roce_gid_version(cxprm_core *c, u32 index);

/*
 * The teardown: deletes the GID entries and drops the core's roce_en
 * reference, when the device still answers and no fast unload ran.
 */
void roce_release(cxprm_core *c);

/* The link-local default GID of a MAC (cache.c make_default_gid, EUI-48). */
void roce_default_gid(const u8 mac[6], u8 gid[16]);

} // namespace cxprm::capi
