// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The PCI functions a cxprm user cares about, as sysfs shows them: which
// driver holds a function, its network interfaces (up or not), its RDMA
// devices and whether a process has one open, and the driver_override
// hand-over between drivers.  The root is /sys, or $CXPRM_SYSFS (tests);
// /proc (open RDMA files) is $CXPRM_PROCFS or /proc.
#pragma once

#include <string>
#include <vector>

namespace cxprm::tool {

struct PciFunction {
	std::string bdf;                // "0000:00:03.0"
	std::string vendor, device;     // "15b3", "1021"
	std::string driver;             // "" when none
	std::vector<std::string> netdevs_up, netdevs_down;
	std::vector<std::string> rdma;  // RDMA device names (mlx5_0)
	std::vector<std::string> rdma_open; // those a process holds open
};

std::string sysfs_root();
// The function at bdf (normalised); OsError when there is none.
PciFunction pci_function(const std::string &bdf);
// Every function with the Mellanox vendor id (0x15b3), or held by
// mlx5_core or cxprm under another id, by address.
std::vector<PciFunction> connectx_functions();

// Unbinds bdf from its driver (if any) and binds it to 'driver' through
// driver_override ("" override: the id table decides).  OsError when the
// kernel refused or another driver ended up with it.
void pci_rebind(const std::string &bdf, const std::string &override_to, const std::string &driver);

// Where bind remembers the previous driver for unbind --restore:
// $CXPRM_RUN_DIR or /run/cxprm, file <bdf>.driver ("driver override" line).
std::string handover_file(const std::string &bdf);

} // namespace cxprm::tool
