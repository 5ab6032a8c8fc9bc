// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* RoCE enable and the default GID table (roce.h). */
#include "roce.h"

#include "capi_core.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/vport.h"
#include "cxprm/prm/hca_cap.h"
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
 * Entry index as ib_core's default GIDs, of the type gid_version[index]
 * (a v2 entry's l3 type IPv6: the link-local GID is not v4-mapped).  set:
 * the GID and MAC, else the delete (zero address, version and type kept,
 * as set_roce_addr).
 */
int write_gid(cxprm_core *c, u8 index, bool set, CmdResult *r)
{
	cmd::RoceAddr a;
	a.index = index;
	a.set_port = c->dev.caps_cur().num_vhca_ports > 0;
	a.roce_version = c->roce.gid_version[index];
	a.roce_l3_type = a.roce_version == prm::roce_version::V2 ? prm::roce_l3_type::IPV6 : 0;
	if (set) {
		roce_default_gid(c->roce.mac, a.gid);
		mem_copy(a.mac, c->roce.mac, sizeof(a.mac));
	}
	return cmd::set_roce_address(c->dev.cmdq(), a, r);
}

void lock(cxprm_core *c) { c->host->ops->lock(c->host->ctx, c->roce.lock); }
void unlock(cxprm_core *c) { c->host->ops->unlock(c->host->ctx, c->roce.lock); }

/* roce_cap (CUR) once, under the lock. */
int read_caps_locked(cxprm_core *c, CmdResult *r)
{
	if (c->roce.caps_read)
		return OK;
	cmd::HostMem image;
	int err = image.alloc(c->host, cmd::CAP_IMAGE_BYTES);
	if (!err)
		err = cmd::query_hca_cap(c->dev.cmdq(), prm::cap::ROCE, prm::cap::CUR, image.data(), r);
	if (err)
		return err;
	prm::CRef<prm::roce_cap> rc(image.data());
	c->roce.versions = (u8)prm::get<prm::roce_cap::roce_version>(rc);
	c->roce.l3_types = (u8)prm::get<prm::roce_cap::l3_type>(rc);
	c->roce.qp_ts_format = (u8)prm::get<prm::roce_cap::qp_ts_format>(rc);
	__atomic_store_n(&c->roce.caps_read, true, __ATOMIC_RELEASE);
	return OK;
}

/* The default GID types (roce.h ROCE_DEFAULT_GIDS): how many, in gid_version[]. */
u8 default_gid_types(cxprm_core *c)
{
	namespace b = prm::roce_cap_bits;
	u8 n = 0;
	if (!(c->roce.l3_types & b::L3_TYPE_IPV4) || !(c->roce.l3_types & b::L3_TYPE_IPV6))
		return 0;
	if (c->roce.versions & b::VERSION_1)
		c->roce.gid_version[n++] = prm::roce_version::V1;
	if (c->roce.versions & b::VERSION_2)
		c->roce.gid_version[n++] = prm::roce_version::V2;
	return n;
}

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
	/* Set up already (gids goes back to false only at release): no lock to know it. */
	if (__atomic_load_n(&c->roce.gids, __ATOMIC_ACQUIRE))
		return OK;
	lock(c);
	int err = OK;
	if (!c->roce.gids) {
		cmd::NicVport v{};
		u8 written = 0;
		*op = prm::op::QUERY_HCA_CAP;
		err = read_caps_locked(c, r);
		c->roce.ngids = err ? 0 : default_gid_types(c);
		/* No GID type: ib_core adds no GID, nothing can use the port. */
		if (!err && !c->roce.ngids)
			err = E_NOTSUP;
		if (!err) {
			*op = prm::op::MODIFY_NIC_VPORT_CONTEXT;
			err = enable_roce(c, r);
		}
		if (!err) {
			*op = prm::op::QUERY_NIC_VPORT_CONTEXT;
			err = cmd::query_nic_vport(c->dev.cmdq(), &v, r);
		}
		if (!err) {
			mem_copy(c->roce.mac, v.mac, sizeof(v.mac));
			*op = prm::op::SET_ROCE_ADDRESS;
			for (; !err && written < c->roce.ngids; written++)
				err = write_gid(c, written, true, r);
			if (err)
				written--;
		}
		if (err) {
			/* Undo with a scratch result: r keeps the failure. */
			CmdResult undo{};
			while (written)
				write_gid(c, --written, false, &undo);
			if (*op == prm::op::QUERY_NIC_VPORT_CONTEXT || *op == prm::op::SET_ROCE_ADDRESS)
				disable_roce(c, &undo);
			c->roce.ngids = 0;
		} else {
			__atomic_store_n(&c->roce.gids, true, __ATOMIC_RELEASE);
		}
	}
	unlock(c);
	return err;
}

int roce_gid_version(cxprm_core *c, u32 index)
{
	if (!c->roce.gids || index >= c->roce.ngids)
		return -1;
	return c->roce.gid_version[index];
}

int roce_qp_ts_cap(cxprm_core *c, u8 *ts_cap, CmdResult *r)
{
	if (!roce_port(c)) {
		*ts_cap = (u8)c->dev.caps_cur().sq_ts_format;
		return OK;
	}
	/* Read already (caps_read goes back to false only at release): no lock. */
	if (__atomic_load_n(&c->roce.caps_read, __ATOMIC_ACQUIRE)) {
		*ts_cap = c->roce.qp_ts_format;
		return OK;
	}
	lock(c);
	int err = read_caps_locked(c, r);
	*ts_cap = c->roce.qp_ts_format;
	unlock(c);
	return err;
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
		for (u8 i = c->roce.ngids; i--;)
			write_gid(c, i, false, &r);
		disable_roce(c, &r);
	}
	/* Whatever firmware answered, the function's state goes with the teardown. */
	c->roce.gids = false;
	c->roce.ngids = 0;
	c->roce.roce_en_users = 0;
	c->roce.caps_read = false; /* a new bring-up reads them again */
	unlock(c);
}

} // namespace cxprm::capi
