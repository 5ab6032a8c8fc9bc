/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * CXPRM_COPY_FIELDS(d, s, a, b, ...) is d.a = s.a; d.b = s.b; ...: the copy
 * of the members two structs share by name (the core's and the facade's,
 * the UAPI's and the CLI's, the emulator's model and its inspection
 * view), each name written once.  A name either struct lacks does not
 * compile; the assignments convert as plain ones do.  d and s are
 * expressions naming a struct (r, *info); up to 64 names.
 *
 * Preprocessor only (C++20 __VA_OPT__): usable in the freestanding core,
 * the module and the hosted tools alike.
 */
#pragma once

#define CXPRM_COPY_FIELDS(d, s, ...) \
	__VA_OPT__(CXPRM_CF_EXPAND_(CXPRM_CF_ONE_(d, s, __VA_ARGS__)))

/* Each rescan takes one more name: 4 * 4 * 4 of them. */
#define CXPRM_CF_EXPAND_(...) CXPRM_CF_EXPAND2_(CXPRM_CF_EXPAND2_(CXPRM_CF_EXPAND2_(CXPRM_CF_EXPAND2_(__VA_ARGS__))))
#define CXPRM_CF_EXPAND2_(...) CXPRM_CF_EXPAND1_(CXPRM_CF_EXPAND1_(CXPRM_CF_EXPAND1_(CXPRM_CF_EXPAND1_(__VA_ARGS__))))
#define CXPRM_CF_EXPAND1_(...) CXPRM_CF_EXPAND0_(CXPRM_CF_EXPAND0_(CXPRM_CF_EXPAND0_(CXPRM_CF_EXPAND0_(__VA_ARGS__))))
#define CXPRM_CF_EXPAND0_(...) __VA_ARGS__
#define CXPRM_CF_ONE_(d, s, f, ...) \
	(d).f = (s).f;              \
	__VA_OPT__(CXPRM_CF_AGAIN_ CXPRM_CF_PARENS_(d, s, __VA_ARGS__))
#define CXPRM_CF_PARENS_ ()
#define CXPRM_CF_AGAIN_() CXPRM_CF_ONE_
