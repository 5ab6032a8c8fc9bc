// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What the emulated adapter is: the Profile an Emulator is built from
// (Emulator(platform, profile)), its sub-profiles and the fidelity knobs
// (Documentation/prm-notes.rst), with the built-in adapters
// (Profile::connectx5() ..., by_name()) and make_lenient().
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "latency.h"
#include "nvme_ssd.h"
#include "roce_profile.h"

namespace cxprm::emu {

// ---------------------------------------------------------------------------
// Profile: what the emulated adapter is
// ---------------------------------------------------------------------------

// One capability type: the 4096-byte images QUERY_HCA_CAP returns for
// op_mod (type << 1) | 0 (MAX) and | 1 (CUR).
struct CapImages {
	std::array<uint8_t, 4096> max{};
	std::array<uint8_t, 4096> cur{};
};

struct EswProfile {
	bool supported = true; // QUERY_ESW_FUNCTIONS + ESW_FUNCTIONS_CHANGED
	// Served to (and posted for) an ECPF eswitch manager only, as Linux
	// uses them (mlx5_esw_is_funcs_handler).  false (lenient): to any
	// eswitch manager, the old plain-PF behaviour.
	bool ecpf_only = true;
	uint16_t num_vfs = 0;
	uint16_t total_vfs = 8;
	uint8_t host_number = 0;
	uint16_t pci_bus = 0x03;
	uint16_t pci_device = 0x00;
	uint16_t pci_function = 0x0;
	bool pf_disabled = false;
};

// The functions behind the BAR (B5).  Function keys are Linux's
// get_function(): function_id | embedded_cpu_function << 16.
struct FunctionsProfile {
	// The BAR's own function is an ECPF (a BlueField's Arm side): the init
	// segment's embedded_cpu bit is set and the function is addressed as
	// function_id 0, embedded_cpu_function 1.
	bool embedded_cpu = false;
	// An ECPF's external host PF (function_id 0, embedded_cpu_function 0),
	// whose pages the ECPF provides.  Strict (real firmware, Linux 6.1
	// eswitch.c host_pf_enable_hca): held in 'initializing' -- disabled --
	// until the ECPF sends ENABLE_HCA(0, 0).  Lenient (host_pf_enabled):
	// enabled from the start, as if its own driver had done it (the
	// ECPF's ENABLE_HCA is then refused with FUNCTION_STATE).
	bool external_host_pf = false;
	bool host_pf_enabled = false;
	// The BAR's own function is a VF (a PCI id Linux flags
	// MLX5_PCI_DEV_IS_VF): no eswitch or vport group manager, no VFs of
	// its own, and ACCESS_REG HOST_ENDIANNESS refused
	// (REG_VF_HOST_ENDIANNESS): Linux's set_hca_ctrl writes it from a PF
	// only; what a VF's firmware answers is unknown, so the strictest
	// (prm-notes-functions.rst, "VF identity").  It addresses itself as function 0.
	bool vf = false;
	// VFs of the BAR's function: function_id 1..num_vfs, ec 0; DISABLED
	// until the BAR's function (INITIALIZED) sends ENABLE_HCA for them.
	uint16_t num_vfs = 0;
};

struct DctProfile {
	uint32_t first_dctn = 0x100; // DCT numbers handed out: [first, first + max)
	uint32_t max_dcts = 64;
	uint32_t drain_delay_us = 0; // DRAINING -> DRAINED after this (next poll at the earliest)
	// DESTROY_DCT of a DCT that is not DRAINED: refused with BAD_RES_STATE
	// and syndrome DCT_NOT_DRAINED (strict: Linux always drains first);
	// false accepts it in any state (the old, lenient model).
	bool destroy_requires_drained = true;
};

struct NvmfProfile {
	bool supported = true;
	// CREATE_XRQ numbers: [first, first + num); with the lenient object
	// model every number there also "exists" without CREATE_XRQ.
	uint32_t first_xrqn = 0x40;
	uint32_t num_xrqs = 16;
	uint32_t max_namespaces = 64;
	uint32_t auto_io_ms = 50; // every this many ms each namespace sees some I/O; 0 = off
	// CREATE_XRQ (prm-notes-nvmf.rst, "NVMF offload"): what Linux and the vendor
	// driver send is known, what firmware refuses is not: strict defaults,
	// make_lenient() accepts.  wq.log_wq_stride is log2 bytes and must fit
	// cap max_wqe_sz_rq and hold a data segment (16 B) in any case.
	bool xrq_min_stride_32 = true;    // a 16-byte stride refused (Linux's WQEs are >= 32 B)
	bool xrq_linked_list_only = true; // wq_type CYCLIC refused (Linux leaves LINKED_LIST)
	bool xrq_requires_staging = true; // no staging buffer refused (the vendor always passes one)
	bool xrq_rwf_offload_only = true; // nvmf_offload_type other than 4 refused; lenient: 1..4
	// CREATE_NVMF_BACKEND_CTRL sq/cq_log_page_size too small for the
	// XRQ's nvme_queue_size entries refused (NVMF_BE_QUEUE_SIZE), and
	// ATTACH_NVMF_NAMESPACE lba_data_size not a power of two from 512
	// bytes refused (NVMF_BAD_LBA_SIZE; lenient: only 0).  Unknown for
	// real firmware (prm-notes-nvmf.rst "NVMF backend"): strict; make_lenient().
	bool be_queue_size_checked = true;
	bool lba_size_in_bytes = true;
	// The NVMe device backend controllers drive (nvme_ssd.h).
	NvmeSsdProfile ssd;
};


// PDs, CQs, SRQs and QPs (XRQ numbers: NvmfProfile), and how strictly
// references between objects are checked (B7/B8, prm-notes-objects.rst "Objects").
struct ObjectProfile {
	// A PD, CQ, SRQ, XRQ or NVMF backend controller that CREATE_DCT,
	// CREATE_SRQ/XRQ/QP, CREATE_NVMF_BACKEND_CTRL or ATTACH_NVMF_NAMESPACE
	// names must exist (created and not destroyed) and be of the right
	// kind, else BAD_RES with a syndrome per site.  false (lenient, the old
	// model): any nonzero number is taken and every xrqn in the NVMF
	// profile's range exists.  Destroying an object another one names is
	// refused either way.
	bool check_refs = true;
	// CREATE_CQ naming an EQ subscribed to async events (a nonzero
	// event_bitmask) is refused (CQ_ON_ASYNC_EQ).  Unknown for real
	// firmware: mlx5_core only ever puts CQs on its completion EQs
	// (core/cq.c), so strict refuses; false takes any EQ.
	bool cq_needs_completion_eq = true;
	uint32_t max_pds = 256, max_cqs = 256, max_srqs = 256, max_qps = 256;
	// Numbers handed out: [first, first + max).  PDs start at 1.
	uint32_t first_cqn = 0x400, first_srqn = 0x800, first_qpn = 0x1000;
	// User contexts (handlers_uctx.cpp, prm-notes-uctx.rst).  Every object
	// records the uid that created it; a command naming an object of
	// another uid is refused (OBJ_NOT_OWNED), a QUERY from a uid with
	// TOOLS_RESOURCES excepted.  uid0_acts_on_any (lenient): uid 0 (the
	// kernel) may act on any uid's objects.  uctx_destroy_requires_empty
	// (strict): DESTROY_UCTX refused while the context owns objects
	// (UCTX_IN_USE); lenient: destroyed, its objects stay.
	bool uid0_acts_on_any = false;
	bool uctx_destroy_requires_empty = true;
};

// Objects another user of the device (a second kernel driver on the same
// function) set up: made by the emulator itself, uid 0, no commands and no
// pages, each time INIT_HCA succeeds (handlers_provision.cpp; the numbers:
// Emulator::provisioned(), prm-notes-uctx.rst).  Not the driver's: never
// counted as leaked nor in object_counts(); gone at teardown.
struct ProvisionProfile {
	bool enabled = false;
};

// The registers ACCESS_REG serves (handlers_reg.cpp).  HOST_ENDIANNESS is
// stored and read back; PCAM (cap pcam_reg), MCAM (cap mcam_reg) and DTOR
// (cap dtor) are read-only and come from here.  Zero bitmaps = no optional
// registers or features (mlx5_core then uses none).
struct RegisterProfile {
	// PCAM, feature group 0 / access-register group 0.
	std::array<uint8_t, 16> pcam_port_access_reg_cap_mask{};
	std::array<uint8_t, 16> pcam_feature_cap_mask{};
	// MCAM access-register groups 0..3 (0x9000.., 0x9080.., 0x9100..,
	// 0x9180..; Linux 6.1 reads 0, 1, 2, and 6.12/7.3 0, 2, 3); feature
	// group 0.
	std::array<std::array<uint8_t, 16>, 4> mcam_access_reg_cap_mask{};
	std::array<uint8_t, 16> mcam_feature_cap_mask{};
	// DTOR timeouts in ms, in dtor_reg field order: pcie_toggle, health_poll,
	// full_crdump, fw_reset, flush_on_err, pci_sync_update, tear_down,
	// fsm_reactivate, reclaim_pages, reclaim_vfs_pages (Linux's defaults).
	std::array<uint32_t, 10> dtor_ms{2000, 2000, 60000, 60000, 2000, 5000, 3000, 5000, 5000, 120000};
	// Port registers (handlers_reg_port.cpp), the same for every local_port.
	// PTYS Ethernet protocol masks: bits of Linux's mlx5e_link_mode
	// (eth_*) and mlx5e_ext_link_mode (ext_eth_*); admin starts as the
	// capability, oper is eth_proto_oper while it is in admin and the port
	// is up (PAOS), else the highest bit of admin.  connector_type is
	// mlx5e_connector_type (7: direct attach copper).
	uint32_t eth_proto_capability = 0, ext_eth_proto_capability = 0;
	uint32_t eth_proto_oper = 0, ext_eth_proto_oper = 0;
	uint8_t connector_type = 7;
	// PMTU, hardware MTU bytes (Linux's software MTU + 22): admin_mtu
	// writable within min_mtu..max_mtu, oper_mtu follows it.
	uint16_t max_mtu = 10000, min_mtu = 90, admin_mtu = 1522;
	// MGIR hardware info: the device's hardware revision, process
	// technology (3 = 16nm, 4 = 7nm) and recovery-mode device id.
	uint16_t hw_revision = 0, hw_dev_id = 0;
	uint8_t technology = 0;
	// MCIA: the QSFP28 (SFF-8636) module in every port's cage, page 0.
	std::string module_vendor = "CXPRM EMU", module_pn = "CXPRM-QSFP28-DAC", module_sn = "EMU00000001";
	uint32_t mcia_max_bytes = 48; // per MCIA read
	// The register values of the adapter with PCI device id device_id
	// (profiles_regs.cpp); the masks and DTOR keep their defaults.
	static RegisterProfile for_device(uint16_t device_id);
	// Strict: register data longer than the register -> BAD_INP/OUTP_LEN.
	// Lenient (false): longer is accepted, the rest ignored / zero.
	bool exact_length = true;
};

struct Profile {
	std::string name;
	uint16_t vendor_id = 0x15b3;
	uint16_t device_id = 0;
	struct {
		uint16_t major = 0, minor = 0, subminor = 0;
	} fw_rev;
	uint16_t cmdif_rev = 5;
	uint8_t log_cmdq_size = 5;   // 32 entries
	uint8_t log_cmdq_stride = 6; // 64 bytes
	uint32_t init_delay_ms = 0;  // 'initializing' clears this long after start
	int32_t boot_pages = 0;
	int32_t init_pages = 0;
	int32_t regular_pages = 0; // wanted after INIT_HCA (QUERY_PAGES regular)
	uint32_t issi_mask = 0x3;  // supported_issi_dw0: bit n = ISSI n
	bool init_requires_issi = true; // INIT_HCA refused until SET_ISSI(1) when ISSI 1 is supported

	// Capability images per type (cap::GENERAL = 0 at least).
	std::map<uint16_t, CapImages> caps;
	CapImages &cap(uint16_t type) { return caps[type]; }

	EswProfile esw;
	RegisterProfile regs;
	FunctionsProfile functions;
	DctProfile dct;
	NvmfProfile nvmf;
	ObjectProfile objects;
	RoceProfile roce;
	ProvisionProfile provision;

	// QUERY_ADAPTER
	uint32_t ieee_vendor_id = 0x0002c9;
	std::string psid = "MT_0000000008";
	std::string vsd = "cxprm emulator";

	// Transport limits.
	uint32_t max_msg_bytes = 16 + 4096 * 512; // per direction; longer -> IN/OUT_LENGTH_ERR
	// Shorter output_length -> OUT_LENGTH_ERR.  8 = status + syndrome:
	// ENABLE/DISABLE_HCA outputs are 12 bytes and mlx5_core sends 12.
	uint32_t min_out_bytes = 8;
	bool check_entry_reserved = true;         // reserved entry bits -> RES_FLD_NOT_CLR_ERR
	// SET_HCA_CAP uar_4k = 1 with log_uar_page_sz = 0 refused (strict; no
	// reference driver sends it).  Lenient: taken.
	bool strict_uar_page_size = true;

	// --- Fidelity knobs (Documentation/prm-notes-transport.rst).  The defaults are
	// what the reference drivers show firmware does, or where that is
	// unknown the strictest plausible behaviour; make_lenient() flips each
	// to its alternative.  The driver must work under both. ---
	//
	// Signatures (A1/B1).  With CUR cmdif_checksum 0 nothing is signed on
	// output (the entry's signature byte keeps what the driver wrote) and
	// the input entry signature is not checked (rdma-core sends none).
	// always_check_entry_signature: check the input entry XOR even with
	// checksums off.  sign_outputs_always: sign the output entry and
	// blocks even with checksums off (the emulator's old behaviour).
	bool always_check_entry_signature = false;
	bool sign_outputs_always = false;
	// Command-queue initialization (A2/B2).  'initializing' clears
	// init_delay_ms after reset (FW_PRE_INIT); when the driver writes a new
	// command-queue address it is set again and clears cmdq_init_delay_ms
	// later (FW_INIT).  A doorbell rung while it is set is dropped (counted
	// in Counters::early_doorbells) unless serve_early_doorbells, except in
	// the first early_grace_ms after the emulator noticed the write (a
	// driver polling the bit may not have seen it set yet): those are
	// served late (Counters::deferred_doorbells).  cxprm-emud, whose driver
	// is a QEMU TCG guest, widens the grace to the whole window.
	// cmdq_init_delay_ms = 0: the address write does not raise it.
	uint32_t cmdq_init_delay_ms = 20;
	uint32_t early_grace_ms = 10;
	bool serve_early_doorbells = false;
	// Published in the init segment (device.h struct mlx5_init_seg
	// cmd_exec_to / cmd_q_init_to; Linux lib/tout.c): 0 = not published.
	uint32_t cmd_exec_to_ms = 60000;
	uint32_t cmd_q_init_to_ms = 2000;
	// Lost doorbells: the emulated BAR is RAM, so a doorbell written with
	// a plain store can overwrite another slot's pending bit.  An entry
	// owned by hardware when another slot's doorbell is taken, and still
	// owned this long after, is served anyway (0 = never).  Not a knob of make_lenient(): hardware sees
	// every doorbell write, this only undoes what RAM loses.
	uint32_t lost_doorbell_us = 1000;

	// Resources.
	uint32_t max_uars = 16;       // also bounded by the BAR size
	uint32_t num_irq_vectors = 64; // eqc.intr must be below this
	bool strict_eq_arm = true;     // raise_irq only when the EQ is armed (false: on every EQE)
	// An EQE that finds its EQ full: true (firmware's behaviour) raises the
	// fatal health syndrome ASYNC_EQ_BUF_OVERRUN (0xc) with rfr; false only
	// drops the event and counts it (the old model).
	bool eq_overrun_fatal = true;

	// Health.  The health counter ticks every health_tick_ms (0: on every
	// processing step).  100 ms: well inside Linux's 2 s poll (3 misses =
	// a warning), slow enough that a driver polling faster sees the
	// counter "stall" between ticks and must not call that death.
	uint32_t health_tick_ms = 100;
	// Firmware death also copies the syndrome into initial_seg
	// health_syndrome (0x1010[31:24]), as the old model did.  Default off:
	// Linux never reads that byte and rdma-core masks it off, so nothing
	// says firmware writes it.
	bool crash_copies_iseg_syndrome = false;
	// Firmware reset after an assert (Linux health.c reset_fw_if_needed):
	// the init segment advertises fw_reset_supported (bit 30 of the
	// 'initializing' dword), and a crashed firmware (fatal syndrome with
	// rfr) that sees the driver write nic_interface SW_RESET (7) restarts:
	// Emulator::firmware_restart(fw_reset_ms).  How long real firmware
	// takes is not documented; 200 ms is well inside Linux's PCI_TOGGLE
	// and FW_INIT waits.  false: the bit reads 0 and a crashed firmware
	// never restarts by itself (only the host or emuctl fw-restart does).
	bool fw_reset_supported = true;
	uint32_t fw_reset_ms = 200;

	// Page reclaim.  After TEARDOWN_HCA, QUERY_PAGES(REGULAR) answers 0
	// (strict: nothing documents that firmware reports what it still
	// holds; Linux never asks); true answers -held (the old model).
	bool torn_down_query_reports_held = false;

	// Firmware timing (latency.h): service times on K engines (off unless
	// latency.enabled) and how the emulator's thread polls.
	LatencyModel latency;
	PollPolicy poll;

	static Profile connectx5();
	static Profile connectx7();
	// BlueField-3 Arm side: an ECPF eswitch manager with an external host
	// PF and ESW functions (QUERY_ESW_FUNCTIONS, ESW_FUNCTIONS_CHANGED).
	static Profile bluefield3();
	static Profile connectx7_vf(); // a VF (FunctionsProfile::vf), PCI id 0x101e
	// By name ("cx5", "cx7", "bf3", or the profile's name); false if unknown.
	static bool by_name(const std::string &name, Profile *out);
	// Every profile by_name() knows, in its order: the short name (what
	// cxprm-emud --profile and run-guest.sh take) and the profile's name.
	struct Name {
		const char *short_name, *name;
	};
	static std::vector<Name> names();

	// Switches every knob that has a strict default (where real firmware's
	// behaviour is unknown) to its lenient alternative; the driver must work
	// under both (Documentation/prm-notes.rst lists them).
	void make_lenient();
};

} // namespace cxprm::emu
