/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the cxprm selftests know of the PRM: the firmware's codes, built
 * from the core's and the emulator's X-lists, and big-endian byte and bit
 * access to PRM layouts.
 */
#ifndef CXPRM_SELFTEST_PRM_H
#define CXPRM_SELFTEST_PRM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cxprm/prm/opcodes.h"		/* CXPRM_OPCODES, CXPRM_CAP_TYPES, CXPRM_EVENTS */
#include "cxprm_emu/syndromes.h"	/* CXPRM_EMU_SYNDROMES */

/*
 * The firmware's codes, each from its one definition (the X-lists are plain
 * C): ST_<name> cmd_out.status (cxprm/status_codes.def, e.g. ST_BAD_PARAM_ERR),
 * OP_<name> opcodes, CAP_<type> capability types (op_mod >> 1 of
 * QUERY_HCA_CAP), EV_<name> event types (cxprm/prm/opcodes.h) and
 * SYND_<name> the emulator's syndromes (cxprm_emu/syndromes.h).
 */
enum {
#define CXPRM_CMD_STATUS_ROW(n, v, text) ST_##n = v,
#include "cxprm/status_codes.def"
};

#define OP_ENUM_(n, v, rw, in, out, dec) OP_##n = v,
#define OP_ENUM_N_(n, s, v, rw, in, out, dec) OP_##n = v,
enum { CXPRM_OPCODES(OP_ENUM_, OP_ENUM_N_) };
#undef OP_ENUM_
#undef OP_ENUM_N_

#define CAP_ENUM_(n, v, alias, layout) CAP_##n = v,
#define CAP_ENUM_N_(n, s, v, alias, layout) CAP_##n = v,
enum { CXPRM_CAP_TYPES(CAP_ENUM_, CAP_ENUM_N_) };
#undef CAP_ENUM_
#undef CAP_ENUM_N_

#define EV_ENUM_(n, v) EV_##n = v,
enum { CXPRM_EVENTS(EV_ENUM_) };
#undef EV_ENUM_

/* 0xE3AAnnnn: above INT_MAX, so the enumeration is unsigned (GNU C). */
#define SYND_ENUM_(n, v, status, text) SYND_##n = v##u,
enum cxprm_emu_syndrome { CXPRM_EMU_SYNDROMES(SYND_ENUM_) };
#undef SYND_ENUM_

/*
 * Sizes of PRM layouts in bytes, PRM_SIZE_<layout>, and PRM_INLINE_BYTES:
 * generated at build time from the core's declarations (helpers/prm_sizes_gen.cpp,
 * the Makefile).  CMD_HDR: the shortest message, the queue entry's inline
 * part.
 */
#include "cxprm_prm_sizes.h"
#define CMD_HDR				PRM_INLINE_BYTES
#define QUERY_HCA_CAP_OUT		PRM_SIZE_query_hca_cap_out
#define QUERY_ADAPTER_OUT		PRM_SIZE_query_adapter_out
#define QUERY_ISSI_OUT			PRM_SIZE_query_issi_out

/* --- PRM byte and bit access (big-endian, bit 0 = MSB of byte 0) ---------- */

static inline uint32_t be32_at(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline uint16_t be16_at(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline void put_be32(void *p, size_t off, uint32_t v)
{
	uint8_t *b = (uint8_t *)p + off;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void put_be16(void *p, size_t off, uint16_t v)
{
	uint8_t *b = (uint8_t *)p + off;

	b[0] = v >> 8;
	b[1] = v;
}

/* A field of a PRM layout: bit offset and width as in mlx5_ifc.h. */
static inline uint64_t prm_get(const void *buf, unsigned int bit_off, unsigned int width)
{
	if (width == 64)
		return (uint64_t)be32_at(buf, bit_off / 8) << 32 | be32_at(buf, bit_off / 8 + 4);
	if (width == 32)
		return be32_at(buf, bit_off / 8);
	{
		uint32_t dw = be32_at(buf, (bit_off / 32) * 4);
		unsigned int shift = 32 - (bit_off % 32) - width;

		return (dw >> shift) & ((1u << width) - 1);
	}
}

static inline uint8_t xor_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t x = 0;

	while (n--)
		x ^= *b++;
	return x;
}

/* A command input header: opcode, op_mod (the rest zero). */
static inline void cmd_hdr(void *in, size_t inlen, uint16_t opcode, uint16_t op_mod)
{
	memset(in, 0, inlen);
	put_be16(in, 0, opcode);
	put_be16(in, 6, op_mod);
}

#endif /* CXPRM_SELFTEST_PRM_H */
