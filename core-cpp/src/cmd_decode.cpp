// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Offline decoding of command messages into key/value text (decode.h). */
#include "cxprm/commands/decode.h"

#include "cxprm/commands/adapter.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/issi.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/pages.h"
#include "cxprm/commands/reg.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/reg.h"
#include "cxprm/prm/registry.h"
#include "cxprm/status.h"

namespace cxprm::cmd {

using namespace prm;

namespace {

/* Wide fields (bitmaps) in hex, the rest in decimal. */
void emit(KvWriter &kv, const char *key, u64 v, u32 width)
{
	if (width > 32)
		kv.hex(key, v);
	else
		kv.dec(key, v);
}

/* Every field of a layout's field list, each under its name: L is the layout. */
#define CXPRM_KV_FIELD_(name, off, width) emit(kv, #name, get<L::name>(r), width);

/* fn(kv, r): every field of layout L's field list FIELDS. */
#define CXPRM_KV_EMITTER_(fn, layout, FIELDS)                                                      \
	void fn(KvWriter &kv, CRef<layout> r)                                                      \
	{                                                                                          \
		using L = layout;                                                                  \
		FIELDS(CXPRM_KV_FIELD_)                                                            \
	}

CXPRM_KV_EMITTER_(emit_general_caps, cmd_hca_cap, CXPRM_CMD_HCA_CAP)
CXPRM_KV_EMITTER_(emit_nvmf_caps, nvmf_cap, CXPRM_NVMF_CAP)
CXPRM_KV_EMITTER_(emit_dctc, dctc, CXPRM_DCTC)
CXPRM_KV_EMITTER_(emit_eqc, eqc, CXPRM_EQC)

#undef CXPRM_KV_EMITTER_
#undef CXPRM_KV_FIELD_

void emit_opcode(KvWriter &kv, u16 opcode)
{
	const char *name = opcode_name(opcode);
	if (name)
		kv.text("opcode", name);
	else
		kv.hex("opcode", opcode);
}

/* QUERY_HCA_CAP / SET_HCA_CAP capability region by op_mod. */
int emit_capability(KvWriter &kv, u16 op_mod, const u8 *cap)
{
	u16 type = op_mod >> 1;
	const char *tn = cap_type_name(type);
	if (tn)
		kv.text("cap_type", tn);
	else
		kv.hex("cap_type", type);
	if (type == cap::GENERAL) {
		emit_general_caps(kv, CRef<cmd_hca_cap>(cap));
		return OK;
	}
	if (type == cap::NVMF) {
		emit_nvmf_caps(kv, CRef<nvmf_cap>(cap));
		return OK;
	}
	return E_NOTSUP;
}

/* decode(out, outlen, &t) into a T, then emit(t) (or decode's error). */
template <class T, class Emit>
int decoded(const u8 *out, u32 outlen, int (*decode)(const void *, u32, T *), Emit emit)
{
	T t;
	if (int err = decode(out, outlen, &t))
		return err;
	emit(t);
	return OK;
}

/* emit(CRef<Out>(out)), or E_INVAL when outlen is short of an Out. */
template <class Out, class Emit> int with_out(const u8 *out, u32 outlen, Emit emit)
{
	if (outlen < Out::size_bytes)
		return E_INVAL;
	emit(CRef<Out>(out));
	return OK;
}

int out_body(u16 opcode, u16 op_mod, const u8 *out, u32 outlen, KvWriter &kv)
{
	switch (opcode) {
	case op::QUERY_HCA_CAP: {
		const u8 *image;
		if (int err = decode_query_hca_cap(out, outlen, &image))
			return err;
		kv.text("cap_mode", (op_mod & 1) == cap::CUR ? "CUR" : "MAX");
		return emit_capability(kv, op_mod, image);
	}
	case op::QUERY_ADAPTER:
		return decoded(out, outlen, decode_query_adapter, [&kv](const AdapterInfo &a) {
			kv.hex("ieee_vendor_id", a.ieee_vendor_id);
			kv.hex("vsd_vendor_id", a.vsd_vendor_id);
			kv.text("vsd", a.vsd);
			kv.text("psid", a.psid);
		});
	case op::QUERY_ISSI:
		return decoded(out, outlen, decode_query_issi, [&kv](const IssiInfo &i) {
			kv.dec("current_issi", i.current_issi);
			kv.hex("supported_issi_dw0", i.supported_mask);
		});
	case op::QUERY_PAGES:
		return decoded(out, outlen, decode_query_pages, [&kv](const PagesQuery &p) {
			kv.dec("embedded_cpu_function", p.embedded_cpu_function);
			kv.dec("function_id", p.function_id);
			kv.sdec("num_pages", p.num_pages);
		});
	case op::MANAGE_PAGES: {
		if (outlen < manage_pages_out::size_bytes)
			return E_INVAL;
		if (op_mod != manage_pages_op::TAKE)
			return OK;
		CRef<manage_pages_out> o(out);
		u64 n = get<manage_pages_out::output_num_entries>(o);
		kv.dec("output_num_entries", n);
		if (n > manage_pages_out_pas::entries_in(outlen))
			return E_PROTO;
		for (u32 i = 0; i < (u32)n; i++)
			kv.hex("pas", get_pas<manage_pages_out_pas>(o, i));
		return OK;
	}
	case op::TEARDOWN_HCA:
		return with_out<teardown_hca_out>(out, outlen, [&kv](CRef<teardown_hca_out> o) {
			kv.dec("state", get<teardown_hca_out::state>(o));
		});
	case op::QUERY_ESW_FUNCTIONS: {
		EswFunctions f;
		if (int err = decode_query_esw_functions(out, outlen, &f))
			return err;
		kv.dec("host_number", f.host_number);
		kv.dec("host_pf_not_exist", f.host_pf_not_exist);
		kv.dec("host_pf_disabled", f.host_pf_disabled);
		kv.dec("host_num_of_vfs", f.host_num_of_vfs);
		kv.dec("host_total_vfs", f.host_total_vfs);
		kv.hex("host_pci_bus", f.host_pci_bus);
		kv.hex("host_pci_device", f.host_pci_device);
		kv.hex("host_pci_function", f.host_pci_function);
		using sf = query_esw_functions_out_host_sf_enable;
		CRef<query_esw_functions_out> o(out);
		for (u32 i = 0; i < sf::entries_in(outlen); i++)
			kv.hex("host_sf_enable", load_be64(tail_entry<sf>(o, i)));
		return OK;
	}
	case op::CREATE_DCT:
		return with_out<create_dct_out>(out, outlen, [&kv](CRef<create_dct_out> o) {
			kv.hex("dctn", get<create_dct_out::dctn>(o));
			kv.hex("ece", get<create_dct_out::ece>(o));
		});
	case op::QUERY_DCT:
		return with_out<query_dct_out>(out, outlen, [&kv](CRef<query_dct_out> o) {
			emit_dctc(kv, sub<query_dct_out::dct_context_entry, dctc>(o));
		});
	case op::CREATE_EQ:
		return with_out<create_eq_out>(out, outlen, [&kv](CRef<create_eq_out> o) {
			kv.dec("eq_number", get<create_eq_out::eq_number>(o));
		});
	case op::ALLOC_UAR:
		return with_out<alloc_uar_out>(out, outlen, [&kv](CRef<alloc_uar_out> o) {
			kv.dec("uar", get<alloc_uar_out::uar>(o));
		});
	case op::QUERY_NVMF_NAMESPACE_CONTEXT:
		return decoded(out, outlen, decode_query_nvmf_namespace, [&kv](const NvmfNsCounters &c) {
			/* Under their PRM names. */
#define CXPRM_NVMF_KV_(m, f) kv.dec(#f, c.m);
			CXPRM_NVMF_NS_COUNTERS_64(CXPRM_NVMF_KV_)
			CXPRM_NVMF_NS_COUNTERS_32(CXPRM_NVMF_KV_)
#undef CXPRM_NVMF_KV_
		});
	case op::ACCESS_REG: {
		/* The register id is in the input only: the data as words. */
		const u8 *data;
		u32 n;
		if (int err = decode_access_reg(out, outlen, &data, &n))
			return err;
		kv.dec("register_bytes", n);
		for (u32 i = 0; i + 4 <= n; i += 4)
			kv.hex("register_data", load_be32(data + i));
		return OK;
	}
	/* Header-only answers. */
	case op::INIT_HCA:
	case op::ENABLE_HCA:
	case op::DISABLE_HCA:
	case op::SET_HCA_CAP:
	case op::SET_ISSI:
	case op::DESTROY_EQ:
	case op::DEALLOC_UAR:
	case op::DRAIN_DCT:
	case op::DESTROY_DCT:
	case op::ATTACH_NVMF_NAMESPACE:
	case op::DETACH_NVMF_NAMESPACE:
		return OK;
	default:
		return E_NOTSUP;
	}
}

} // namespace

/*
 * The metadata table's decoder column says which opcodes out_body() knows;
 * commands_decode_test holds the switch to it, row by row.
 */
bool decode_output_supported(u16 opcode)
{
	const OpcodeInfo *o = opcode_info(opcode);
	return o && o->decoder != Decoder::LAYOUT;
}

int decode_output(u16 opcode, u16 op_mod, const void *out, u32 outlen, KvWriter &kv)
{
	emit_opcode(kv, opcode);
	if (!out || outlen < cmd_out::size_bytes)
		return E_INVAL;
	CRef<cmd_out> h(out);
	u8 status = (u8)get<cmd_out::status>(h);
	kv.text("status", cmd_status_name(status));
	kv.hex("status_code", status);
	if (status != cmd_status::OK) {
		kv.hex("syndrome", get<cmd_out::syndrome>(h));
		return decode_output_supported(opcode) ? OK : E_NOTSUP;
	}
	return out_body(opcode, op_mod, (const u8 *)out, outlen, kv);
}

int decode_input(const void *in, u32 inlen, KvWriter &kv)
{
	if (!in || inlen < cmd_in::size_bytes)
		return E_INVAL;
	CRef<cmd_in> h(in);
	u16 opcode = (u16)get<cmd_in::opcode>(h);
	u16 op_mod = (u16)get<cmd_in::op_mod>(h);
	emit_opcode(kv, opcode);
	kv.hex("op_mod", op_mod);
	kv.hex("uid", get<cmd_in::uid>(h));
	switch (opcode) {
	case op::CREATE_DCT:
		if (inlen < create_dct_in::size_bytes)
			return E_INVAL;
		emit_dctc(kv, sub<create_dct_in::dct_context_entry, dctc>(CRef<create_dct_in>(in)));
		return OK;
	case op::CREATE_EQ: {
		if (inlen < create_eq_in::size_bytes)
			return E_INVAL;
		CRef<create_eq_in> r(in);
		emit_eqc(kv, sub<create_eq_in::eq_context_entry, eqc>(r));
		const u8 *mask = bytes<create_eq_in::event_bitmask>(r);
		for (u32 i = 0; i < create_eq_in::event_bitmask::width / 64; i++)
			kv.hex("event_bitmask", load_be64(mask + 8 * i));
		kv.dec("npas", create_eq_in_pas::entries_in(inlen));
		return OK;
	}
	case op::SET_HCA_CAP:
		if (inlen < set_hca_cap_in::size_bytes)
			return E_INVAL;
		return emit_capability(kv, op_mod,
				       bytes<set_hca_cap_in::capability>(CRef<set_hca_cap_in>(in)));
	case op::ACCESS_REG: {
		if (inlen < access_register_in::size_bytes)
			return E_INVAL;
		CRef<access_register_in> r(in);
		u16 id = (u16)get<access_register_in::register_id>(r);
		kv.text("access", op_mod == access_reg_op::WRITE ? "WRITE" : op_mod == access_reg_op::READ ? "READ" : "?");
		const char *rn = register_name(id);
		if (rn)
			kv.text("register", rn);
		kv.hex("register_id", id);
		kv.hex("argument", get<access_register_in::argument>(r));
		const u8 *data = (const u8 *)in + access_register_in::size_bytes;
		u32 n = inlen - access_register_in::size_bytes;
		if (id == reg_id::HOST_ENDIANNESS && n >= register_host_endianness::size_bytes)
			kv.dec("he", get<register_host_endianness::he>(CRef<register_host_endianness>(data)));
		else if (id == reg_id::PCAM && n >= pcam_reg::size_bytes) {
			kv.dec("feature_group", get<pcam_reg::feature_group>(CRef<pcam_reg>(data)));
			kv.dec("access_reg_group", get<pcam_reg::access_reg_group>(CRef<pcam_reg>(data)));
		} else if (id == reg_id::MCAM && n >= mcam_reg::size_bytes) {
			kv.dec("feature_group", get<mcam_reg::feature_group>(CRef<mcam_reg>(data)));
			kv.dec("access_reg_group", get<mcam_reg::access_reg_group>(CRef<mcam_reg>(data)));
		}
		kv.dec("register_bytes", n);
		return OK;
	}
	case op::MANAGE_PAGES: {
		if (inlen < manage_pages_in::size_bytes)
			return E_INVAL;
		CRef<manage_pages_in> r(in);
		u64 n = get<manage_pages_in::input_num_entries>(r);
		kv.dec("function_id", get<manage_pages_in::function_id>(r));
		kv.dec("input_num_entries", n);
		if (op_mod != manage_pages_op::GIVE)
			return OK;
		if (n > manage_pages_in_pas::entries_in(inlen))
			return E_PROTO;
		for (u32 i = 0; i < (u32)n; i++)
			kv.hex("pas", get_pas<manage_pages_in_pas>(r, i));
		return OK;
	}
	default:
		return E_NOTSUP;
	}
}

} // namespace cxprm::cmd
