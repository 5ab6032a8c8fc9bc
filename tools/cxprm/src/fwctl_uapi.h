// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fwctl UAPI the tool uses, declared here because the build host's
// kernel headers may predate it (fwctl is Linux 6.15+).  Facts from
// include/uapi/fwctl/fwctl.h and include/uapi/fwctl/mlx5.h of Linux 7.3:
// ioctl type 0x9A, FWCTL_INFO = _IO(0x9A, 0), FWCTL_RPC = _IO(0x9A, 1)
// (the structs carry their own size), device type MLX5 = 1, and the mlx5
// driver's info: the file's firmware user context (uid, its caps).
#pragma once

#include <cstdint>
#include <sys/ioctl.h>

namespace cxprm::tool::fwctl {

inline constexpr unsigned TYPE = 0x9A;
inline constexpr unsigned long IOC_INFO = _IO(TYPE, 0);
inline constexpr unsigned long IOC_RPC = _IO(TYPE, 1);
inline constexpr uint32_t DEVICE_TYPE_MLX5 = 1;
// drivers/fwctl/main.c: MAX_RPC_LEN (SZ_2M) for in_len and out_len.
inline constexpr uint32_t MAX_RPC_LEN = 2u << 20;
// uctx.cap bit the mlx5 driver asks for when firmware offers it.
inline constexpr uint32_t UCTX_CAP_TOOLS_RESOURCES = 0x4;

struct Info { // struct fwctl_info
	uint32_t size;
	uint32_t flags;
	uint32_t out_device_type;
	uint32_t device_data_len;
	uint64_t out_device_data;
};
static_assert(sizeof(Info) == 24);

struct Rpc { // struct fwctl_rpc
	uint32_t size;
	uint32_t scope;
	uint32_t in_len;
	uint32_t out_len;
	uint64_t in;
	uint64_t out;
};
static_assert(sizeof(Rpc) == 32);

struct InfoMlx5 { // struct fwctl_info_mlx5
	uint32_t uid;
	uint32_t uctx_caps;
};

} // namespace cxprm::tool::fwctl
