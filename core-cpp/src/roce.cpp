// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* RoCE enable and the default GID table (roce.h). */
#include "roce.h"

#include "capi_core.h"
#include "cxprm/commands/vport.h"
#include "cxprm/prm/vport.h"

namespace cxprm::capi {

namespace {

/* vport.c mlx5_nic_vport_enable_roce: only the first user sends. */
int enable_roce(cxprm_core *c, CmdResult *r)
{
	if (c->roce.roce_en_users) {
		c->roce.roce_en_users++;
		return OK;
	}
	int err = cmd::modify_nic_vport_roce(c->dev.cmdq(), true, r);
	if (!err)
		c->roce.roce_en_users = 1;
	return err;
}

/* mlx5_nic_vport_disable_roce: only the last user sends; kept on failure. */
int disable_roce(cxprm_core *c, CmdResult *r)
{
	if (!c->roce.roce_en_users)
		return OK;
	if (c->roce.roce_en_users > 1) {
		c->roce.roce_en_users--;
		return OK;
	}
	int err = cmd::modify_nic_vport_roce(c->dev.cmdq(), false, r);
	if (!err)
		c->roce.roce_en_users = 0;
	return err;
}

/*
 * Entry index as ib_core's default GIDs: index 0 RoCE v1, 1 RoCE v2 (IPv6
 * l3 type: the link-local GID is not v4-mapped).  set: the GID and MAC,
 * else the delete (zero address, version and type kept, as set_roce_addr).
 */
int write_gid(cxprm_core *c, u8 index, bool set, CmdResult *r)
{
	cmd::RoceAddr a;
	a.index = index;
	a.set_port = c->dev.caps_cur().num_vhca_ports > 0;
	a.roce_version = index ? prm::roce_version::V2 : prm::roce_version::V1;
	a.roce_l3_type = index ? prm::roce_l3_type::IPV6 : 0;
	if (set) {
		roce_default_gid(c->roce.mac, a.gid);
		mem_copy(a.mac, c->roce.mac, sizeof(a.mac));
	}
	return cmd::set_roce_address(c->dev.cmdq(), a, r);
}

void lock(cxprm_core *c) { c->host->ops->lock(c->host->ctx, c->roce.lock); }
void unlock(cxprm_core *c) { c->host->ops->unlock(c->host->ctx, c->roce.lock); }

} // namespace

int roce_init(cxprm_core *c)
{
	c->roce.lock = c->host->ops->lock_create(c->host->ctx);
	return c->roce.lock ? OK : E_NOMEM;
}

void roce_fini(cxprm_core *c)
{
	if (c->roce.lock)
		c->host->ops->lock_destroy(c->host->ctx, c->roce.lock);
	c->roce.lock = nullptr;
}

bool roce_port(cxprm_core *c)
{
	const cmd::GeneralCaps &g = c->dev.caps_cur();
	return g.port_type == prm::port_type::ETH && g.roce;
}

void roce_default_gid(const u8 mac[6], u8 gid[16])
{
	mem_zero(gid, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	/* addrconf_ifid_eui48: the MAC around ff:fe, universal/local bit flipped. */
	gid[8] = mac[0] ^ 2;
	gid[9] = mac[1];
	gid[10] = mac[2];
	gid[11] = 0xff;
	gid[12] = 0xfe;
	gid[13] = mac[3];
	gid[14] = mac[4];
	gid[15] = mac[5];
}

int roce_use(cxprm_core *c, CmdResult *r, u16 *op)
{
	if (!roce_port(c))
		return OK;
	lock(c);
	int err = OK;
	if (!c->roce.gids) {
		cmd::NicVport v{};
		u8 written = 0;
		*op = prm::op::MODIFY_NIC_VPORT_CONTEXT;
		err = enable_roce(c, r);
		if (!err) {
			*op = prm::op::QUERY_NIC_VPORT_CONTEXT;
			err = cmd::query_nic_vport(c->dev.cmdq(), &v, r);
		}
		if (!err) {
			mem_copy(c->roce.mac, v.mac, sizeof(v.mac));
			*op = prm::op::SET_ROCE_ADDRESS;
			for (; !err && written < ROCE_DEFAULT_GIDS; written++)
				err = write_gid(c, written, true, r);
			if (err)
				written--;
		}
		if (err) {
			/* Undo with a scratch result: r keeps the failure. */
			CmdResult undo{};
			while (written)
				write_gid(c, --written, false, &undo);
			if (*op != prm::op::MODIFY_NIC_VPORT_CONTEXT)
				disable_roce(c, &undo);
		} else {
			c->roce.gids = true;
		}
	}
	unlock(c);
	return err;
}

int roce_gid_version(cxprm_core *c, u32 index)
{
	if (!c->roce.gids || index >= ROCE_DEFAULT_GIDS)
		return -1;
	return index ? prm::roce_version::V2 : prm::roce_version::V1;
}

void roce_release(cxprm_core *c)
{
	if (!c->roce.lock)
		return;
	lock(c);
	if (c->roce.gids && c->dev.state() == DeviceState::UP && !c->dev.fast_unloaded() &&
	    !c->dev.fw_dead()) {
		CmdResult r{};
		/* ib_core deletes the GIDs as the IB device goes, then mlx5_ib disables RoCE. */
		for (u8 i = ROCE_DEFAULT_GIDS; i--;)
			write_gid(c, i, false, &r);
		disable_roce(c, &r);
	}
	/* Whatever firmware answered, the function's state goes with the teardown. */
	c->roce.gids = false;
	c->roce.roce_en_users = 0;
	unlock(c);
}

} // namespace cxprm::capi
