/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The declarative PRM layout layer.
 *
 * A layout is declared once, as an X-list of (name, bit offset, bit width)
 * in the numbering mlx5_ifc.h uses: bit 0 is the most significant bit of
 * big-endian dword 0.  CXPRM_LAYOUT() turns the list into
 *
 *   - a struct named like the mlx5_ifc.h struct (without "mlx5_ifc_" and
 *     "_bits"), holding one type per field:  prm::query_hca_cap_in::op_mod
 *   - size constants (size_bits, size_bytes),
 *   - a table of FieldDesc for the layout dump and the mlx5_ifc cross-check,
 *   - compile-time checks: each field lies inside the layout, fields are in
 *     ascending order and do not overlap, a field of up to 32 bits stays in
 *     one dword, a wider scalar field is whole dwords, a byte-addressed
 *     region is whole bytes.
 *
 * Access is through typed views, so a field can only be read from a buffer
 * that holds its own layout:
 *
 *   prm::Ref<prm::query_hca_cap_in> in(buf);
 *   prm::set<prm::query_hca_cap_in::op_mod>(in, 1);
 */
#pragma once

#include "types.h"

namespace cxprm::prm {

struct FieldDesc {
	const char *name;
	u32 offset; /* bits */
	u32 width;  /* bits */
};

struct LayoutDesc {
	const char *name;
	u32 size_bits;
	const FieldDesc *fields;
	u32 nfields;
};

template <class L, u32 Off, u32 Width> struct Field {
	using layout = L;
	static constexpr u32 offset = Off;
	static constexpr u32 width = Width;
	static constexpr bool scalar = Width <= 64;
	static_assert(Width > 0, "zero-width field");
	static_assert(Width > 32 || Off / 32 == (Off + Width - 1) / 32,
		      "a field of up to 32 bits must not cross a dword");
	static_assert(Width <= 32 || Width > 64 || (Off % 32 == 0 && Width % 32 == 0),
		      "a 33..64-bit field must be whole, aligned dwords");
	static_assert(Width <= 64 || (Off % 8 == 0 && Width % 8 == 0),
		      "a region must be whole bytes");
};

/* Compile-time consistency of a layout's field table. */
constexpr bool fields_ordered(const FieldDesc *f, u32 n, u32 size_bits)
{
	for (u32 i = 0; i < n; i++) {
		if (f[i].offset + f[i].width > size_bits)
			return false;
		if (i && f[i].offset < f[i - 1].offset + f[i - 1].width)
			return false;
	}
	return true;
}

constexpr bool names_unique(const FieldDesc *f, u32 n)
{
	for (u32 i = 0; i < n; i++)
		for (u32 j = i + 1; j < n; j++) {
			const char *a = f[i].name, *b = f[j].name;
			while (*a && *a == *b)
				a++, b++;
			if (*a == *b)
				return false;
		}
	return true;
}

#define CXPRM_FIELD_TYPE_(n, off, w) using n = ::cxprm::prm::Field<self, (off), (w)>;
#define CXPRM_FIELD_DESC_(n, off, w) {#n, (off), (w)},

/*
 * CXPRM_LAYOUT(name, size_in_bits, LIST) with
 *   #define LIST(F) F(field, bit_offset, bit_width) ...
 */
#define CXPRM_LAYOUT(name_, size_bits_, LIST)                                        \
	struct name_ {                                                               \
		using self = name_;                                                  \
		static constexpr const char *layout_name = #name_;                   \
		static constexpr ::cxprm::u32 size_bits = (size_bits_);              \
		static constexpr ::cxprm::u32 size_bytes = (size_bits_) / 8;         \
		LIST(CXPRM_FIELD_TYPE_)                                              \
		static constexpr ::cxprm::prm::FieldDesc fields[] = {                \
			LIST(CXPRM_FIELD_DESC_)};                                    \
		static constexpr ::cxprm::u32 nfields =                              \
			sizeof(fields) / sizeof(fields[0]);                          \
		static constexpr ::cxprm::prm::LayoutDesc desc = {                   \
			layout_name, size_bits, fields, nfields};                    \
	};                                                                           \
	static_assert((size_bits_) % 32 == 0, #name_ ": size is not whole dwords"); \
	static_assert(::cxprm::prm::fields_ordered(name_::fields, name_::nfields,    \
						   name_::size_bits),                \
		      #name_ ": field outside the layout, out of order or overlapping"); \
	static_assert(::cxprm::prm::names_unique(name_::fields, name_::nfields),     \
		      #name_ ": duplicate field name");

/* A mutable view of a buffer holding layout L (at least L::size_bytes). */
template <class L> struct Ref {
	u8 *p;
	explicit Ref(void *buf) : p((u8 *)buf) {}
};

/* A read-only view of a buffer holding layout L. */
template <class L> struct CRef {
	const u8 *p;
	explicit CRef(const void *buf) : p((const u8 *)buf) {}
	CRef(Ref<L> r) : p(r.p) {}
};

namespace detail {
template <u32 Width> constexpr u64 mask() { return Width >= 64 ? ~(u64)0 : (((u64)1 << Width) - 1); }
}

template <class F> inline u64 get(CRef<typename F::layout> r)
{
	static_assert(F::scalar, "get<> on a region: use bytes<>");
	const u8 *dw = r.p + F::offset / 32 * 4;
	if constexpr (F::width > 32)
		return F::width == 64 ? load_be64(dw) : (load_be64(dw) & detail::mask<F::width>());
	else {
		constexpr u32 shift = 32 - F::offset % 32 - F::width;
		return (load_be32(dw) >> shift) & detail::mask<F::width>();
	}
}

template <class F> inline u64 get(Ref<typename F::layout> r) { return get<F>(CRef<typename F::layout>(r)); }

/*
 * Every field of LIST (the layout's own list or a part of it) read from
 * layout L at buf into the member of the same name of *out:
 *   CXPRM_GET_FIELDS(CXPRM_DCTC, dctc, buf, c);  // c->pd = get<dctc::pd>(...), ...
 */
#define CXPRM_GET_FIELD_(n, off, w) out_->n = ::cxprm::prm::get<L_::n>(r_);
#define CXPRM_GET_FIELDS(LIST, L, buf, out)                  \
	do {                                                 \
		using L_ = L;                                \
		::cxprm::prm::CRef<L_> r_(buf);              \
		auto *out_ = (out);                          \
		LIST(CXPRM_GET_FIELD_)                       \
	} while (0)

/* Whether v fits in field F without truncation. */
template <class F> constexpr bool fits(u64 v) { return F::width >= 64 || v <= detail::mask<F::width>(); }

/*
 * Stores v into the field; bits of v above the field's width are dropped
 * (as MLX5_SET does).  A debug build of hosted code (no NDEBUG, not
 * -ffreestanding) traps on such a value instead, as hwreg's set_x()
 * debug-asserts: a caller that means to truncate masks first.  The kernel
 * and freestanding builds never check.
 */
template <class F> inline void set(Ref<typename F::layout> r, u64 v)
{
	static_assert(F::scalar, "set<> on a region: use bytes<>");
#if __STDC_HOSTED__ && !defined(NDEBUG)
	if (!fits<F>(v))
		__builtin_trap();
#endif
	u8 *dw = r.p + F::offset / 32 * 4;
	if constexpr (F::width > 32) {
		store_be64(dw, v);
	} else {
		constexpr u32 shift = 32 - F::offset % 32 - F::width;
		constexpr u32 m = (u32)detail::mask<F::width>() << shift;
		u32 old = load_be32(dw);
		store_be32(dw, (old & ~m) | (((u32)v << shift) & m));
	}
}

/*
 * Register access: the byte offset of the dword holding field F, and F's
 * value inside that dword's CPU-order value (as ioread32be returns it).
 */
template <class F> constexpr u32 dword_byte_offset()
{
	static_assert(F::width <= 32, "register field wider than a dword");
	return F::offset / 32 * 4;
}

template <class F> constexpr u32 from_dword(u32 v)
{
	static_assert(F::width <= 32, "register field wider than a dword");
	return (u32)((v >> (32 - F::offset % 32 - F::width)) & detail::mask<F::width>());
}

/* v placed at field F's position inside its dword. */
template <class F> constexpr u32 to_dword(u32 v)
{
	static_assert(F::width <= 32, "register field wider than a dword");
	return (u32)((v & detail::mask<F::width>()) << (32 - F::offset % 32 - F::width));
}


/* Byte address of a byte-aligned field or region. */
template <class F> inline u8 *bytes(Ref<typename F::layout> r)
{
	static_assert(F::offset % 8 == 0, "not byte aligned");
	return r.p + F::offset / 8;
}

template <class F> inline const u8 *bytes(CRef<typename F::layout> r)
{
	static_assert(F::offset % 8 == 0, "not byte aligned");
	return r.p + F::offset / 8;
}

/* The nested layout Inner stored in region F of the outer layout. */
template <class F, class Inner> inline Ref<Inner> sub(Ref<typename F::layout> r)
{
	static_assert(F::offset % 8 == 0 && Inner::size_bits <= F::width, "nested layout does not fit");
	return Ref<Inner>(r.p + F::offset / 8);
}

template <class F, class Inner> inline CRef<Inner> sub(CRef<typename F::layout> r)
{
	static_assert(F::offset % 8 == 0 && Inner::size_bits <= F::width, "nested layout does not fit");
	return CRef<Inner>(r.p + F::offset / 8);
}

/* Element i of an array of Elem layouts that starts at region F. */
template <class F, class Elem> inline Ref<Elem> elem(Ref<typename F::layout> r, u32 i)
{
	static_assert(F::offset % 8 == 0 && Elem::size_bits % 8 == 0, "array not byte aligned");
	return Ref<Elem>(r.p + F::offset / 8 + (usize)i * Elem::size_bytes);
}

template <class F, class Elem> inline CRef<Elem> elem(CRef<typename F::layout> r, u32 i)
{
	static_assert(F::offset % 8 == 0 && Elem::size_bits % 8 == 0, "array not byte aligned");
	return CRef<Elem>(r.p + F::offset / 8 + (usize)i * Elem::size_bytes);
}

} // namespace cxprm::prm
