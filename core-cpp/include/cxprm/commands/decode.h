/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Offline decoding of command outputs (and a few inputs) into text
 * key/value pairs, without a device: `cxprm decode --opcode X --out HEX`.
 *
 * The output header comes first: "status" (name), "status_code", and
 * "syndrome" when the status is not OK; the body is decoded only with
 * status OK.  Keys of the body are the field names of the layouts (for
 * QUERY_HCA_CAP general: every prm::cmd_hca_cap field).
 *
 * Returns OK, E_INVAL for a message shorter than its layout, E_NOTSUP for
 * an opcode (or capability type, for QUERY_HCA_CAP) without a decoder (the
 * header is still written), E_PROTO when a count in the output is
 * inconsistent with its length.  kv.dropped() > 0 means kv was too small.
 */
#pragma once

#include "kv.h"
#include "../types.h"

namespace cxprm::cmd {

/*
 * op_mod matters for QUERY_HCA_CAP (capability type and mode) and
 * MANAGE_PAGES (TAKE answers carry addresses); 0 elsewhere.
 */
int decode_output(u16 opcode, u16 op_mod, const void *out, u32 outlen, KvWriter &kv);

/* Inputs: CREATE_DCT (dctc), CREATE_EQ (eqc, event mask, pas count), SET_HCA_CAP general. */
int decode_input(const void *in, u32 inlen, KvWriter &kv);

/* Whether decode_output has a body decoder for the opcode. */
bool decode_output_supported(u16 opcode);

} // namespace cxprm::cmd
