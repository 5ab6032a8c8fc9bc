// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Holds every PRM layout of the core (prm/registry.h, generated from
 * prm/layouts.sel and mlx5_ifc.h by tools/ifcgen/core_layouts.py) to the
 * header as the compiler sees it: for each layout whose
 * mlx5_ifc_<layout>_bits exists, sizeof(struct) must be our size and each
 * field's offsetof/sizeof our offset/width (a u8 there is one bit).  That
 * checks the generator's parser of mlx5_ifc.h against the C++ compiler's.
 *
 * What the selection places itself (a layout with size=, a field with
 * @OFF:WIDTH, a tail with @BITS: vendor layouts, bits the header leaves
 * reserved, what a newer header moved) may be absent from the header or
 * placed otherwise there: reported, not a failure.  A field the selection
 * names otherwise (name=path|path) is compared with the first of those
 * header paths the header has.  These lists come from the selection
 * (core_layouts.py --xcheck: cxprm_xcheck.h), not from a second list here.
 *
 * The header comes from the build directory, copied with flexible array
 * members "[]" turned into "[0]" (g++ rejects a flexible array member in a
 * nested struct); nothing else is changed.  Any header the selection
 * resolves against compiles here (6.1, 6.12, 7.3).
 */
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "cxprm/prm/registry.h"
#include "cxprm_xcheck.h"

/* What mlx5_ifc.h expects from <linux/types.h> and <linux/bits.h>. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
/*
 * <linux/stddef.h>'s, for a flexible array in a union (6.12 on): a
 * zero-length array, as the copy makes of every "[]" (it adds no size).
 */
#define DECLARE_FLEX_ARRAY(TYPE, NAME) \
	struct {                       \
		TYPE NAME[0];          \
	}

/* Declared first, so that a struct the header lacks stays incomplete. */
#define CXPRM_IFC_DECLARE_(name, list) struct mlx5_ifc_##name##_bits;
CXPRM_LAYOUTS(CXPRM_IFC_DECLARE_)
#undef CXPRM_IFC_DECLARE_

#include <linux/mlx5/mlx5_ifc.h>

namespace {

#define CXPRM_IFC_STR_(s) s,
const char *const explicit_places[] = {CXPRM_XCHECK_EXPLICIT(CXPRM_IFC_STR_)};
#undef CXPRM_IFC_STR_
#define CXPRM_IFC_STR_(layout, field, path) #layout "." #field,
const char *const renamed[] = {CXPRM_XCHECK_PATHS(CXPRM_IFC_STR_)};
#undef CXPRM_IFC_STR_
constexpr unsigned n_renamed = sizeof(renamed) / sizeof(renamed[0]);
bool renamed_done[n_renamed];

struct Tally {
	unsigned ok, sizes, tails, absent, placed, mismatch, unexpected;
} t;

bool in(const char *const *list, unsigned n, const char *key)
{
	for (unsigned i = 0; i < n; i++)
		if (!std::strcmp(list[i], key))
			return true;
	return false;
}

bool is_explicit(const char *layout, const char *field)
{
	char key[128];
	std::snprintf(key, sizeof(key), field ? "%s.%s" : "%s", layout, field);
	return in(explicit_places, sizeof(explicit_places) / sizeof(explicit_places[0]), key);
}

bool is_renamed(const char *layout, const char *field)
{
	char key[128];
	std::snprintf(key, sizeof(key), "%s.%s", layout, field);
	return in(renamed, n_renamed, key);
}

void absent(const char *layout, const char *field, unsigned off, unsigned w)
{
	if (is_explicit(layout, field)) {
		std::printf("NOT-IN-HEADER %s %s %u %u\n", layout, field, off, w);
		t.absent++;
	} else {
		std::printf("NOT-IN-HEADER %s %s %u %u  <-- unexpected: the selection takes it "
			    "from the header\n", layout, field, off, w);
		t.unexpected++;
	}
}

void compare(const char *layout, const char *field, unsigned off, unsigned w, size_t their_off,
	     size_t their_w, unsigned *count)
{
	if (off == their_off && w == their_w) {
		std::printf("OK %s %s %u %u\n", layout, field, off, w);
		(*count)++;
	} else if (is_explicit(layout, field)) {
		std::printf("PLACED %s %s ours %u %u (the selection's), mlx5_ifc.h %zu %zu\n", layout,
			    field, off, w, their_off, their_w);
		t.placed++;
	} else {
		std::printf("MISMATCH %s %s ours %u %u, mlx5_ifc.h %zu %zu\n", layout, field, off, w,
			    their_off, their_w);
		t.mismatch++;
	}
}

template <class T> constexpr bool complete = requires { sizeof(T); };

#define CXPRM_IFC_FIELD_(f, off, w)                                                    \
	if (is_renamed(name, #f))                                                      \
		;                                                                      \
	else if constexpr (requires(T &s) { s.f; })                                    \
		compare(name, #f, off, w, offsetof(T, f), sizeof(T::f), &t.ok);               \
	else                                                                           \
		absent(name, #f, off, w);

#define CXPRM_IFC_CHECK_(layout, list)                                                 \
	template <class T> void check_##layout()                                       \
	{                                                                              \
		using Ours = cxprm::prm::layout;                                       \
		const char *name = #layout;                                            \
		if constexpr (!complete<T>) {                                          \
			if (is_explicit(name, nullptr)) {                              \
				std::printf("NOT-IN-HEADER %s (layout, %u fields)\n",   \
					    name, Ours::nfields);                      \
				t.absent += Ours::nfields;                             \
			} else {                                                       \
				std::printf("NOT-IN-HEADER %s  <-- unexpected: no "     \
					    "mlx5_ifc_%s_bits\n", name, name);         \
				t.unexpected++;                                        \
			}                                                              \
		} else {                                                               \
			compare(name, "(size)", 0, Ours::size_bits, 0, sizeof(T),   \
				&t.sizes);                                             \
			list(CXPRM_IFC_FIELD_)                                         \
		}                                                                      \
	}
CXPRM_LAYOUTS(CXPRM_IFC_CHECK_)
#undef CXPRM_IFC_CHECK_

/* A field named otherwise: the first of its header paths the header has. */
template <class T, class F> void check_path(unsigned i, const char *layout, const char *field,
					    const char *path, size_t off, size_t w)
{
	if (renamed_done[i])
		return;
	for (unsigned j = 0; j < i; j++)
		if (renamed_done[j] && !std::strcmp(renamed[j], renamed[i]))
			return;
	char label[128];
	std::snprintf(label, sizeof(label), "%s(=%s)", field, path);
	compare(layout, label, F::offset, F::width, off, w, &t.ok);
	renamed_done[i] = true;
}
/* (A template lambda: a header path the header lacks is then not compiled.) */
#define CXPRM_IFC_PATH_(layout, field, path)                                           \
	[&]<class T>() {                                                               \
		if constexpr (requires(T &s) { s.path; })                              \
			check_path<T, cxprm::prm::layout::field>(                       \
				i, #layout, #field, #path, offsetof(T, path),           \
				sizeof(((T *)nullptr)->path));                          \
	}.template operator()<mlx5_ifc_##layout##_bits>();                            \
	i++;

/* Flexible-array tails: offset and entry size, where the header has the array. */
#define CXPRM_IFC_TAIL_(layout, path, tail)                                            \
	[]<class T>() {                                                                \
		using Tail = cxprm::prm::tail;                                         \
		if constexpr (requires(T &s) { s.path; })                              \
			compare(#layout, #path "[]", Tail::offset, Tail::elem_bits,    \
				offsetof(T, path), sizeof(((T *)nullptr)->path[0]),    \
				&t.tails);                                             \
		else                                                                   \
			absent(#layout, #path "[]", Tail::offset, Tail::elem_bits);    \
	}.template operator()<mlx5_ifc_##layout##_bits>();

} // namespace

int main()
{
#define CXPRM_IFC_RUN_(layout, list) check_##layout<mlx5_ifc_##layout##_bits>();
	CXPRM_LAYOUTS(CXPRM_IFC_RUN_)
#undef CXPRM_IFC_RUN_
	unsigned i = 0;
	CXPRM_XCHECK_PATHS(CXPRM_IFC_PATH_)
	CXPRM_XCHECK_TAILS(CXPRM_IFC_TAIL_)

	for (unsigned k = 0; k < n_renamed; k++) {
		bool done = false;
		for (unsigned j = 0; j < n_renamed; j++)
			done |= renamed_done[j] && !std::strcmp(renamed[j], renamed[k]);
		if (!done && (!k || std::strcmp(renamed[k - 1], renamed[k]))) {
			std::printf("NOT-IN-HEADER %s  <-- unexpected: none of its header names\n",
				    renamed[k]);
			t.unexpected++;
		}
	}

	std::printf("ifc cross-check: %u fields OK, %u not in header (listed above), "
		    "%u placed otherwise by the selection, %u mismatches, %u unexpected "
		    "(also OK: %u layout sizes, %u array tails)\n",
		    t.ok, t.absent, t.placed, t.mismatch, t.unexpected, t.sizes, t.tails);
	return t.mismatch || t.unexpected ? 1 : 0;
}
