// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Holds every registered PRM layout (prm/registry.h) to the installed
 * kernel's mlx5_ifc.h: for each layout whose mlx5_ifc_<layout>_bits exists,
 * sizeof(struct) must be our size and each field's offsetof/sizeof our
 * offset/width (a u8 there is one bit).  A layout or field that the header
 * lacks must be on the expected-absent list below, and every entry of that
 * list must still be absent, so neither typos nor stale entries hide.
 *
 * The header comes from the build directory, copied with flexible array
 * members "[]" turned into "[0]" (g++ rejects a flexible array member in a
 * nested struct); nothing else is changed.
 */
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "cxprm/prm/registry.h"

/* What mlx5_ifc.h expects from <linux/types.h> and <linux/bits.h>. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))

/* Declared first, so that a struct the header lacks stays incomplete. */
#define CXPRM_IFC_DECLARE_(name, list) struct mlx5_ifc_##name##_bits;
CXPRM_LAYOUTS(CXPRM_IFC_DECLARE_)
#undef CXPRM_IFC_DECLARE_

#include <linux/mlx5/mlx5_ifc.h>

namespace {

/*
 * Deliberately not in the 6.1 header.  "layout" = the whole layout,
 * "layout.field" = one field of a layout the header has.
 */
const char *const expected_absent[] = {
	"cmd_in.uid",                      /* reserved in cmd_in; most *_in call it uid */
	"initial_seg.cmd_exec_to",         /* reserved in ifc; device.h struct mlx5_init_seg */
	"initial_seg.cmd_q_init_to",
	"initial_seg.fw_reset_supported",  /* device.h MLX5_FW_RESET_SUPPORTED_OFFSET */
	"cmd_hca_cap.nvmf_target_offload", /* vendor bit in a reserved range */
	"pages_req_event.ec_function",     /* device.h mlx5_eqe_page_req bit 15 */
	"pages_req_event.release_all",     /* device.h mlx5_eqe_page_req bit 14 */
	"nvmf_cap",                        /* cap type 0xe: vendor (RESERVED_14 upstream) */
	"query_nvmf_namespace_in",         /* NVMF: vendor out-of-tree headers */
	"query_nvmf_namespace_out",
	"nvmf_frontend_namespace_context",
	"attach_nvmf_namespace_in",
	"attach_nvmf_namespace_out",
	"detach_nvmf_namespace_in",
	"detach_nvmf_namespace_out",
	"xrqc.nvme_offload_context",       /* reserved_at_180 upstream */
	"nvme_offload_context",
	"nvmf_be_ctrl",
	"create_nvmf_be_ctrl_in",
	"nvmf_be_ctrl_addrs",              /* the vendor driver's address list (ib/nvmf.c) */
	"create_nvmf_be_ctrl_out",
	"destroy_nvmf_be_ctrl_in",
	"destroy_nvmf_be_ctrl_out",
	"mgir_reg",                        /* MGIR: mstflint's layouts (reg.h), provisional */
};
constexpr unsigned n_expected = sizeof(expected_absent) / sizeof(expected_absent[0]);
bool expected_used[n_expected];

struct Tally {
	unsigned ok, sizes, tails, absent, mismatch, unexpected;
} t;

bool is_expected(const char *layout, const char *field)
{
	char key[128];
	std::snprintf(key, sizeof(key), field ? "%s.%s" : "%s", layout, field);
	for (unsigned i = 0; i < n_expected; i++)
		if (!std::strcmp(expected_absent[i], key))
			return expected_used[i] = true;
	return false;
}

void absent(const char *layout, const char *field, unsigned off, unsigned w)
{
	if (is_expected(layout, field)) {
		std::printf("NOT-IN-HEADER %s %s %u %u\n", layout, field, off, w);
		t.absent++;
	} else {
		std::printf("NOT-IN-HEADER %s %s %u %u  <-- unexpected: a typo, or add it to "
			    "expected_absent\n", layout, field, off, w);
		t.unexpected++;
	}
}

void compare(const char *layout, const char *field, unsigned off, unsigned w, size_t their_off,
	     size_t their_w, unsigned *count)
{
	if (off == their_off && w == their_w) {
		std::printf("OK %s %s %u %u\n", layout, field, off, w);
		(*count)++;
	} else {
		std::printf("MISMATCH %s %s ours %u %u, mlx5_ifc.h %zu %zu\n", layout, field, off, w,
			    their_off, their_w);
		t.mismatch++;
	}
}

template <class T> constexpr bool complete = requires { sizeof(T); };

#define CXPRM_IFC_FIELD_(f, off, w)                                                    \
	if constexpr (requires(T &s) { s.f; })                                         \
		compare(name, #f, off, w, offsetof(T, f), sizeof(T::f), &t.ok);               \
	else                                                                           \
		absent(name, #f, off, w);

#define CXPRM_IFC_CHECK_(layout, list)                                                 \
	template <class T> void check_##layout()                                       \
	{                                                                              \
		using Ours = cxprm::prm::layout;                                       \
		const char *name = #layout;                                            \
		if constexpr (!complete<T>) {                                          \
			if (is_expected(name, nullptr)) {                              \
				std::printf("NOT-IN-HEADER %s (layout, %u fields)\n",   \
					    name, Ours::nfields);                      \
				t.absent += Ours::nfields;                             \
			} else {                                                       \
				std::printf("NOT-IN-HEADER %s  <-- unexpected: no "     \
					    "mlx5_ifc_%s_bits\n", name, name);         \
				t.unexpected++;                                        \
			}                                                              \
		} else {                                                               \
			if (is_expected(name, nullptr)) {                              \
				std::printf("STALE %s is in the header now\n", name);  \
				t.unexpected++;                                        \
			}                                                              \
			compare(name, "(size)", 0, Ours::size_bits, 0, sizeof(T),   \
				&t.sizes);                                             \
			list(CXPRM_IFC_FIELD_)                                         \
		}                                                                      \
	}
CXPRM_LAYOUTS(CXPRM_IFC_CHECK_)
#undef CXPRM_IFC_CHECK_

/* Flexible-array tails (flex.h): offset and entry size. */
template <class T, class Tail> void check_tail(const char *layout, const char *field, size_t off,
					      size_t elem)
{
	compare(layout, field, Tail::offset, Tail::elem_bits, off, elem, &t.tails);
}
#define CXPRM_IFC_TAIL_(layout, field, tail)                                            \
	check_tail<mlx5_ifc_##layout##_bits, cxprm::prm::tail>(                         \
		#layout, #field "[]", offsetof(mlx5_ifc_##layout##_bits, field),        \
		sizeof(mlx5_ifc_##layout##_bits::field[0]))

} // namespace

int main()
{
#define CXPRM_IFC_RUN_(layout, list) check_##layout<mlx5_ifc_##layout##_bits>();
	CXPRM_LAYOUTS(CXPRM_IFC_RUN_)
#undef CXPRM_IFC_RUN_

	CXPRM_IFC_TAIL_(manage_pages_in, pas, manage_pages_in_pas);
	CXPRM_IFC_TAIL_(manage_pages_out, pas, manage_pages_out_pas);
	CXPRM_IFC_TAIL_(create_eq_in, pas, create_eq_in_pas);
	CXPRM_IFC_TAIL_(query_eq_out, pas, query_eq_out_pas);
	CXPRM_IFC_TAIL_(create_cq_in, pas, create_cq_in_pas);
	CXPRM_IFC_TAIL_(query_cq_out, pas, query_cq_out_pas);
	CXPRM_IFC_TAIL_(create_srq_in, pas, create_srq_in_pas);
	CXPRM_IFC_TAIL_(create_qp_in, pas, create_qp_in_pas);
	CXPRM_IFC_TAIL_(query_esw_functions_out, host_sf_enable,
			query_esw_functions_out_host_sf_enable);
	CXPRM_IFC_TAIL_(access_register_in, register_data, access_register_in_data);
	CXPRM_IFC_TAIL_(access_register_out, register_data, access_register_out_data);

	for (unsigned i = 0; i < n_expected; i++)
		if (!expected_used[i]) {
			std::printf("STALE expected_absent entry \"%s\" matches nothing\n",
				    expected_absent[i]);
			t.unexpected++;
		}

	std::printf("ifc cross-check: %u fields OK, %u not in header (listed above), "
		    "%u mismatches, %u unexpected (also OK: %u layout sizes, %u array tails)\n",
		    t.ok, t.absent, t.mismatch, t.unexpected, t.sizes, t.tails);
	return t.mismatch || t.unexpected ? 1 : 0;
}
