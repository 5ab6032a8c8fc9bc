// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Typed command outputs and inputs for the seeds, built with the core's
// layouts (prm::set), as firmware or the core writes them; and write().
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hex.h"
#include "seed_bytes.h"

#include "cxprm/capi.h"
#include "cxprm/layout.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::prm;
namespace fs = std::filesystem;

namespace cxprm::seeds {

fs::path g_root;

void write(const char *target, const std::string &name, const Bytes &b)
{
	fs::path dir = g_root / target;
	fs::create_directories(dir);
	std::ofstream f(dir / name, std::ios::binary);
	f.write((const char *)b.data(), (std::streamsize)b.size());
}

// ---- typed outputs and inputs, as firmware / the core writes them ----

Bytes hca_cap_out(bool general)
{
	Bytes b = msg<query_hca_cap_out>();
	if (general) {
		auto c = sub<query_hca_cap_out::capability, cmd_hca_cap>(ref<query_hca_cap_out>(b));
		set<cmd_hca_cap::log_max_qp_sz>(c, 15);
		set<cmd_hca_cap::eswitch_manager>(c, 1);
		set<cmd_hca_cap::dct>(c, 1);
	}
	return b;
}

Bytes adapter_out()
{
	Bytes b = msg<query_adapter_out>();
	auto a = sub<query_adapter_out::query_adapter_struct, query_adapter_param_block>(
		ref<query_adapter_out>(b));
	set<query_adapter_param_block::ieee_vendor_id>(a, 0x02c9);
	std::memcpy(bytes<query_adapter_param_block::vsd>(a), "cxprm emulated", 14);
	std::memcpy(bytes<query_adapter_param_block::vsd_contd_psid>(a), "MT_0000000838XXXX", 16);
	return b;
}

Bytes issi_out()
{
	Bytes b = msg<query_issi_out>();
	set<query_issi_out::current_issi>(ref<query_issi_out>(b), 1);
	set<query_issi_out::supported_issi_dw0>(ref<query_issi_out>(b), 3);
	return b;
}

Bytes pages_out(int32_t n)
{
	Bytes b = msg<query_pages_out>();
	set<query_pages_out::num_pages>(ref<query_pages_out>(b), (uint32_t)n);
	return b;
}

Bytes take_out(uint32_t n, uint32_t claimed)
{
	Bytes b = msg<manage_pages_out>(manage_pages_out_pas::bytes_for(n));
	auto r = ref<manage_pages_out>(b);
	set<manage_pages_out::output_num_entries>(r, claimed);
	for (uint32_t i = 0; i < n; i++)
		set_pas<manage_pages_out_pas>(r, i, 0x1'2340'0000ull + 0x1000ull * i);
	return b;
}

Bytes esw_out(uint32_t words)
{
	using sf = query_esw_functions_out_host_sf_enable;
	Bytes b = msg<query_esw_functions_out>(sf::bytes_for(words));
	auto r = ref<query_esw_functions_out>(b);
	auto h = sub<query_esw_functions_out::host_params_context, host_params_context>(r);
	set<host_params_context::host_num_of_vfs>(h, 4);
	set<host_params_context::host_total_vfs>(h, 16);
	for (uint32_t i = 0; i < words; i++)
		store_be64(tail_entry<sf>(r, i), 0x8000000000000001ull >> i);
	return b;
}

Bytes dctc_bytes(Ref<dctc> c)
{
	set<dctc::pd>(c, 1);
	set<dctc::cqn>(c, 2);
	set<dctc::srqn_xrqn>(c, 3);
	set<dctc::dc_access_key>(c, 0xc0ffee);
	set<dctc::mtu>(c, 5);
	set<dctc::port>(c, 1);
	set<dctc::rre>(c, 1);
	set<dctc::rwe>(c, 1);
	return {};
}

Bytes query_dct_out_msg()
{
	Bytes b = msg<query_dct_out>();
	dctc_bytes(sub<query_dct_out::dct_context_entry, dctc>(ref<query_dct_out>(b)));
	return b;
}

Bytes create_dct_in_msg()
{
	Bytes b = msg<create_dct_in>();
	set<create_dct_in::opcode>(ref<create_dct_in>(b), op::CREATE_DCT);
	dctc_bytes(sub<create_dct_in::dct_context_entry, dctc>(ref<create_dct_in>(b)));
	return b;
}

Bytes create_eq_in_msg(uint32_t npas)
{
	Bytes b = msg<create_eq_in>(create_eq_in_pas::bytes_for(npas));
	auto r = ref<create_eq_in>(b);
	set<create_eq_in::opcode>(r, op::CREATE_EQ);
	auto c = sub<create_eq_in::eq_context_entry, eqc>(r);
	set<eqc::log_eq_size>(c, 8);
	set<eqc::uar_page>(c, 32);
	store_be64(bytes<create_eq_in::event_bitmask>(r), 1ull << event::PAGE_REQUEST | 1ull << event::CMD);
	for (uint32_t i = 0; i < npas; i++)
		set_pas<create_eq_in_pas>(r, i, 0x1'0000'0000ull + 0x1000ull * i);
	return b;
}

Bytes give_in_msg(uint32_t n, uint32_t claimed)
{
	Bytes b = msg<manage_pages_in>(manage_pages_in_pas::bytes_for(n));
	auto r = ref<manage_pages_in>(b);
	set<manage_pages_in::opcode>(r, op::MANAGE_PAGES);
	set<manage_pages_in::op_mod>(r, manage_pages_op::GIVE);
	set<manage_pages_in::input_num_entries>(r, claimed);
	for (uint32_t i = 0; i < n; i++)
		set_pas<manage_pages_in_pas>(r, i, 0x2'0000'0000ull + 0x1000ull * i);
	return b;
}

Bytes set_hca_cap_in_msg()
{
	Bytes b = msg<set_hca_cap_in>();
	set<set_hca_cap_in::opcode>(ref<set_hca_cap_in>(b), op::SET_HCA_CAP);
	return b;
}

Bytes nvmf_out()
{
	Bytes b = msg<query_nvmf_namespace_out>();
	using N = nvmf_frontend_namespace_context;
	auto n = sub<query_nvmf_namespace_out::ns_ctx, N>(ref<query_nvmf_namespace_out>(b));
	set<N::num_read_cmd_low>(n, 1200);
	set<N::current_q_depth>(n, 128);
	return b;
}

Bytes bad_status(Bytes b, uint8_t status, uint32_t syndrome)
{
	set<cmd_out::status>(Ref<cmd_out>(b.data()), status);
	set<cmd_out::syndrome>(Ref<cmd_out>(b.data()), syndrome);
	return b;
}

} // namespace cxprm::seeds
