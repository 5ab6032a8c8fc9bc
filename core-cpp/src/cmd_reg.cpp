// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ACCESS_REG (commands/reg.h). */
#include "cxprm/commands/reg.h"

#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"

namespace cxprm::cmd {

using namespace prm;

int access_reg(Cmdq &q, u16 id, u32 argument, bool write, const void *data_in, void *data_out, u32 bytes,
	       CmdResult *res)
{
	if (bytes == 0 || bytes % 4 || bytes > REG_MAX_BYTES)
		return E_INVAL;
	u8 in[access_register_in::size_bytes + REG_MAX_BYTES];
	u8 out[access_register_out::size_bytes + REG_MAX_BYTES];
	auto r = begin_in<access_register_in>(in, op::ACCESS_REG, write ? access_reg_op::WRITE : access_reg_op::READ);
	set<access_register_in::register_id>(r, id);
	set<access_register_in::argument>(r, argument);
	u8 *data = in + access_register_in::size_bytes;
	if (data_in)
		mem_copy(data, data_in, bytes);
	else
		mem_zero(data, bytes);
	const u32 inlen = access_register_in::size_bytes + bytes, outlen = access_register_out::size_bytes + bytes;
	int err = exec(q, in, inlen, out, outlen, res);
	if (err)
		return err;
	if (data_out)
		mem_copy(data_out, out + access_register_out::size_bytes, bytes);
	return OK;
}

int set_host_endianness(Cmdq &q, bool big_endian, CmdResult *res)
{
	u8 reg[register_host_endianness::size_bytes] = {};
	set<register_host_endianness::he>(Ref<register_host_endianness>(reg), big_endian ? 1 : 0);
	return access_reg(q, reg_id::HOST_ENDIANNESS, 0, true, reg, nullptr, sizeof(reg), res);
}

int decode_access_reg(const void *out, u32 outlen, const u8 **data, u32 *bytes)
{
	if (!out || !data || !bytes || outlen < access_register_out::size_bytes)
		return E_INVAL;
	*data = (const u8 *)out + access_register_out::size_bytes;
	*bytes = outlen - access_register_out::size_bytes;
	return OK;
}

} // namespace cxprm::cmd

namespace cxprm::prm {

const char *register_name(u16 id)
{
	switch (id) {
	case reg_id::PCAM: return "PCAM";
	case reg_id::HOST_ENDIANNESS: return "HOST_ENDIANNESS";
	case reg_id::MCAM: return "MCAM";
	case reg_id::DTOR: return "DTOR";
	}
	return nullptr;
}

} // namespace cxprm::prm
