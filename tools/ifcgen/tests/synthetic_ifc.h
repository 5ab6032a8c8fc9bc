/* A made-up header in mlx5_ifc.h's conventions, for ifc_tables_test.py. */
#define SYN_NUM_ITEMS (2 + \
		       1)

enum {
	MLX5_CMD_OP_SYN_QUERY = 0x901,
	MLX5_CMD_OP_SYN_SET   = 0x902, /* trailing comment */
	MLX5_CMD_OP_MAX
};

struct mlx5_ifc_syn_pair_bits {
	u8         hi[0x10];
	u8         lo[0x10];
};

struct mlx5_ifc_syn_short {
	u8         reserved_at_0[0x1c];
	u8         nibble[0x4];
};

union mlx5_ifc_syn_choice_bits {
	struct mlx5_ifc_syn_pair_bits pair;
	u8         wide[0x40];
};

struct mlx5_ifc_syn_query_in_bits {
	u8         opcode[0x10];
	u8         reserved_at_10[0x10];

	u8         reserved_at_20[0x8];
	u8         straddle[0x10];	/* crosses no dword: 0x28..0x37 */
	u8         reserved_at_38[0x8];

	struct mlx5_ifc_syn_pair_bits pair;

	union mlx5_ifc_syn_choice_bits choice;

	struct mlx5_ifc_syn_short small;

	u8         table[4][0x8];

	struct mlx5_ifc_syn_pair_bits items[SYN_NUM_ITEMS];

	union {
		struct mlx5_ifc_syn_pair_bits a;
		u8         b[0x20];
	} inline_u;

	u8         odd[0x30];	/* 33..64 bits but not whole dwords: left out */

	u8         reserved_at_190[0x10];

	struct mlx5_ifc_syn_pair_bits tail[0];
};

struct mlx5_ifc_syn_query_out_bits {
	u8         status[0x8];
	u8         reserved_at_8[0x18];
	DECLARE_FLEX_ARRAY(struct mlx5_ifc_syn_pair_bits, rest);
};
