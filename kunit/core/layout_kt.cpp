// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// KUnit suite cxprm_core_layout: the layout layer as the kernel build
// compiles it: big-endian bit placement, derived sizes and descriptors,
// neighbours left alone, register helpers, the transport layouts' offsets.
#include "kt.h"

#include "cxprm/prm/transport.h"
#include "test_layout.h"

using namespace cxprm;
using namespace cxprm::prm;
using cxprm::test::test_layout;

namespace {
bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

bool bytes_equal(const u8 *a, const u8 *b, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}
} // namespace

void cxprm_kt_layout_sizes_and_descriptors(kunit *t)
{
	KT_EXPECT_EQ(t, test_layout::size_bytes, 32);
	KT_EXPECT_EQ(t, test_layout::nfields, 6);
	KT_EXPECT(t, same(test_layout::fields[2].name, "low_23"));
	KT_EXPECT_EQ(t, test_layout::fields[2].offset, 9);
	KT_EXPECT_EQ(t, test_layout::fields[2].width, 23);
	KT_EXPECT(t, same(test_layout::desc.name, "test_layout"));
	KT_EXPECT_EQ(t, test_layout::desc.size_bits, 0x100);
	KT_EXPECT(t, fields_ordered(test_layout::fields, test_layout::nfields, test_layout::size_bits));
	/* One bit too small: the last field no longer fits. */
	KT_EXPECT(t, !fields_ordered(test_layout::fields, test_layout::nfields, 0xff));
	KT_EXPECT(t, names_unique(test_layout::fields, test_layout::nfields));
}

void cxprm_kt_layout_big_endian_placement(kunit *t)
{
	u8 b[32] = {};
	Ref<test_layout> r(b);

	cxprm::test::place_values(r);
	KT_EXPECT(t, bytes_equal(b, cxprm::test::placed_bytes, 16));
	KT_EXPECT_EQ(t, get<test_layout::top_byte>(r), 0xab);
	KT_EXPECT_EQ(t, get<test_layout::one_bit>(r), 1);
	KT_EXPECT_EQ(t, get<test_layout::low_23>(r), 0x123456);
	KT_EXPECT_EQ(t, get<test_layout::whole_dword>(r), 0xdeadbeefu);
	KT_EXPECT_EQ(t, get<test_layout::quad>(r), 0x0102030405060708ull);
	KT_EXPECT_EQ(t, bytes<test_layout::blob>(r), b + 16);
	KT_EXPECT_EQ(t, load_be32(b + 4), 0xdeadbeefu);
	KT_EXPECT_EQ(t, load_be64(b + 8), 0x0102030405060708ull);
}

void cxprm_kt_layout_set_truncates_keeps_neighbours(kunit *t)
{
	u8 b[32];

	for (u32 i = 0; i < sizeof(b); i++)
		b[i] = 0xff;
	Ref<test_layout> r(b);
	set<test_layout::one_bit>(r, 2); /* only bit 0 of the value fits */
	KT_EXPECT_EQ(t, get<test_layout::one_bit>(r), 0);
	KT_EXPECT_EQ(t, get<test_layout::top_byte>(r), 0xff);
	KT_EXPECT_EQ(t, get<test_layout::low_23>(r), 0x7fffff);
	KT_EXPECT_EQ(t, b[1], 0x7f);
	set<test_layout::low_23>(r, 0);
	KT_EXPECT_EQ(t, load_be32(b), 0xff000000u);
	KT_EXPECT_EQ(t, get<test_layout::whole_dword>(r), 0xffffffffu);
	KT_EXPECT(t, fits<test_layout::low_23>(0x7fffff));
	KT_EXPECT(t, !fits<test_layout::low_23>(0x800000));
	KT_EXPECT(t, fits<test_layout::quad>(~0ull));
}

void cxprm_kt_layout_register_helpers(kunit *t)
{
	/* cmdq_phy_addr_31_12's dword: address | nic_interface | size | stride. */
	u32 v = 0x12345000u | (1u << 8) | (5u << 4) | 6u;

	KT_EXPECT_EQ(t, dword_byte_offset<initial_seg::log_cmdq_size>(), 0x14);
	KT_EXPECT_EQ(t, from_dword<initial_seg::log_cmdq_size>(v), 5);
	KT_EXPECT_EQ(t, from_dword<initial_seg::log_cmdq_stride>(v), 6);
	KT_EXPECT_EQ(t, from_dword<initial_seg::nic_interface>(v), 1);
	KT_EXPECT_EQ(t, from_dword<initial_seg::cmdq_phy_addr_31_12>(v), 0x12345);
	KT_EXPECT_EQ(t, to_dword<initial_seg::initializing>(1), 0x80000000u);
	KT_EXPECT_EQ(t, to_dword<initial_seg::log_cmdq_size>(0x1f), 0xf0);
	KT_EXPECT_EQ(t, mailbox_blocks(16), 0);
	KT_EXPECT_EQ(t, mailbox_blocks(17), 1);
	KT_EXPECT_EQ(t, mailbox_blocks(528), 1);
	KT_EXPECT_EQ(t, mailbox_blocks(529), 2);
	KT_EXPECT_EQ(t, be32_to_cpu(0x11223344u), 0x44332211u);
}

void cxprm_kt_layout_transport_offsets(kunit *t)
{
	/* mlx5_ifc.h's cmd_queue_entry, cmd_if_box and initial_seg. */
	KT_EXPECT_EQ(t, cmd_queue_entry::size_bytes, 64);
	KT_EXPECT_EQ(t, cmd_queue_entry::token::offset / 8, 60);
	KT_EXPECT_EQ(t, cmd_queue_entry::signature::offset / 8, 61);
	KT_EXPECT_EQ(t, cmd_queue_entry::ownership::offset, 0x1ff);
	KT_EXPECT_EQ(t, cmd_queue_entry::command_input_inline_data::offset / 8, 16);
	KT_EXPECT_EQ(t, cmd_queue_entry::command_output_inline_data::offset / 8, 32);
	KT_EXPECT_EQ(t, cmd_if_box::size_bytes, 576);
	KT_EXPECT_EQ(t, cmd_if_box::next_pointer_63_32::offset / 8, 0x230);
	KT_EXPECT_EQ(t, cmd_if_box::block_number::offset / 8, 0x238);
	KT_EXPECT_EQ(t, cmd_if_box::token::offset / 8, 0x23d);
	KT_EXPECT_EQ(t, cmd_if_box::ctrl_signature::offset / 8, 0x23e);
	KT_EXPECT_EQ(t, cmd_if_box::signature::offset / 8, 0x23f);
	KT_EXPECT_EQ(t, iseg::CMDQ_ADDR_H, 0x10);
	KT_EXPECT_EQ(t, iseg::CMDQ_ADDR_L_SZ, 0x14);
	KT_EXPECT_EQ(t, iseg::DOORBELL, 0x18);
	KT_EXPECT_EQ(t, iseg::INITIALIZING, 0x1fc);
	KT_EXPECT_EQ(t, iseg::HEALTH_COUNTER, 0x1010);

	/* An entry built through the views lands where the PRM says. */
	u8 e[64] = {};
	Ref<cmd_queue_entry> r(e);
	set<cmd_queue_entry::type>(r, CMD_TYPE_PCIE);
	set<cmd_queue_entry::input_length>(r, 0x1234);
	set<cmd_queue_entry::token>(r, 0xab);
	set<cmd_queue_entry::ownership>(r, 1);
	set<cmd_queue_entry::status>(r, 0x7f);
	KT_EXPECT_EQ(t, e[0], 7);
	KT_EXPECT_EQ(t, load_be32(e + 4), 0x1234);
	KT_EXPECT_EQ(t, e[60], 0xab);
	KT_EXPECT_EQ(t, e[63], 0xff);
	set<cmd_queue_entry::status>(r, 0);
	KT_EXPECT_EQ(t, e[63], 1);
}
