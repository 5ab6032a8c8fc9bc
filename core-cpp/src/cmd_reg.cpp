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

namespace {

#define CXPRM_REG_INFO_(n, id, l, port, w) {#n, id, &l::desc, port, w},
constexpr RegisterInfo regs[] = {CXPRM_REGISTERS(CXPRM_REG_INFO_)};
#undef CXPRM_REG_INFO_
constexpr u32 nregs = sizeof(regs) / sizeof(regs[0]);

constexpr bool regs_sorted()
{
	for (u32 i = 1; i < nregs; i++)
		if (regs[i].id <= regs[i - 1].id)
			return false;
	return true;
}
static_assert(regs_sorted(), "CXPRM_REGISTERS must be in ascending, unique id order");

/* A port register's layout has local_port where every port register has it. */
template <class L, bool Port> constexpr bool port_ok()
{
	if constexpr (Port)
		return L::local_port::offset == 0x8 && L::local_port::width == 8;
	return true;
}
#define CXPRM_REG_PORT_OK_(n, id, l, port, w)                                                      \
	static_assert(port_ok<l, port>(), #n ": local_port");                                      \
	static_assert(l::size_bytes <= cmd::REG_MAX_BYTES, #n ": larger than cmd::REG_MAX_BYTES");
CXPRM_REGISTERS(CXPRM_REG_PORT_OK_)
#undef CXPRM_REG_PORT_OK_

char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

bool same_name(const char *a, const char *b)
{
	while (*a && lower(*a) == lower(*b))
		a++, b++;
	return lower(*a) == lower(*b);
}

} // namespace

const RegisterInfo *find_register(u16 id)
{
	return find_row<&RegisterInfo::id>(regs, id);
}

const RegisterInfo *find_register(const char *name)
{
	if (!name)
		return nullptr;
	for (const RegisterInfo &r : regs)
		if (same_name(r.name, name))
			return &r;
	return nullptr;
}

const RegisterInfo *all_registers(u32 *count)
{
	if (count)
		*count = nregs;
	return regs;
}

const char *register_name(u16 id)
{
	const RegisterInfo *r = find_register(id);
	return r ? r->name : nullptr;
}

} // namespace cxprm::prm
