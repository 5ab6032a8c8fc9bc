/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * QUERY_ESW_FUNCTIONS (prm/esw.h): what the external host behind an
 * embedded-CPU (ECPF) eswitch manager has enabled.
 *
 * Beyond host_params_context the output carries host_sf_enable[]: 64-bit
 * big-endian bitmap words, bit n of the array = the host's sub-function
 * (SF) n is enabled.  The array has no count field: its length is whatever
 * output length the caller asked for (Linux asks for DIV_ROUND_UP(max_num_sf,
 * 64) words when it manages SFs, none otherwise).
 */
#pragma once

#include "common.h"

namespace cxprm::cmd {

struct EswFunctions {
	u8 host_number;
	bool host_pf_not_exist;
	bool host_pf_disabled;
	u16 host_num_of_vfs;
	u16 host_total_vfs;
	u16 host_pci_bus;
	u16 host_pci_device;
	u16 host_pci_function;
};

/*
 * sf_enable (optional) receives sf_words bitmap words (word i = SFs
 * 64*i..64*i+63, bit j = SF 64*i+j).
 */
int query_esw_functions(Cmdq &q, EswFunctions *f, u64 *sf_enable = nullptr, u32 sf_words = 0,
			CmdResult *res = nullptr);
/* Decodes the fixed part and min(sf_words, words present) bitmap words. */
int decode_query_esw_functions(const void *out, u32 outlen, EswFunctions *f,
			       u64 *sf_enable = nullptr, u32 sf_words = 0);
/* Its input (query_esw_functions_in::size_bytes); returns the output bytes to ask for. */
u32 encode_query_esw_functions(u8 *in, u32 sf_words);

} // namespace cxprm::cmd
