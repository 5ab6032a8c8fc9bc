// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-emud's --help text (its options are parsed in cxprm-emud.cpp).
#include "emud_usage.h"

#include "cxprm_emu/emulator.h"

namespace cxprm::emud {

namespace emu = cxprm::emu;

void usage(FILE *f)
{
	std::fputs(
		"usage: cxprm-emud [options] --ram FILE --bar FILE\n"
		"       cxprm-emud [options] RAM_FILE BAR_FILE      (run-guest.sh --emulator form)\n"
		"\n"
		"  --ram FILE            guest-RAM file (QEMU memory-backend-file, share=on)\n"
		"  --bar FILE            ivshmem BAR2 file (power of two, >= 128 KiB)\n"
		"  --profile NAME        adapter profile (default cx7), one of:\n",
		f);
	for (const emu::Profile::Name &n : emu::Profile::names())
		std::fprintf(f, "                          %-7s %s\n", n.short_name, n.name);
	std::fputs(
		"  --list-profiles       print the profile names, one a line (name TAB profile)\n"
		"  --init-delay-ms N     'initializing' clears N ms after the start (profile: 5)\n"
		"  --health-tick-ms N    the health counter ticks every N ms (default 100; 0 = every step)\n"
		"  --fw-reset-ms N       a firmware restart holds 'initializing' N ms (default 200)\n"
		"  --boot-pages N        pages QUERY_PAGES(BOOT) asks for\n"
		"  --init-pages N        pages QUERY_PAGES(INIT) asks for\n"
		"  --regular-pages N     pages QUERY_PAGES(REGULAR) asks for after INIT_HCA\n"
		"  --num-vfs N           eswitch host_num_of_vfs at start\n"
		"  --total-vfs N         eswitch host_total_vfs\n"
		"  --fw-version A.B.C    firmware version in the init segment\n"
		"  --nvmf-auto-io-ms N   automatic NVMF namespace I/O period (0 = off)\n"
		"  --fw-latency          the firmware latency model on (profile's per-opcode\n"
		"                        service times on K engines; Documentation/prm-notes.rst)\n"
		"  --fw-engines K        K parallel firmware engines, 1..32 (implies --fw-latency)\n"
		"  --fw-latency-us [OP=]US  service time in us of opcode OP (number or PRM name),\n"
		"                        or of every other opcode (repeatable; implies --fw-latency)\n"
		"  --spin-us N           the emulator spins N us after each piece of work (200)\n"
		"  --idle-sleep-us N     longest sleep between doorbell looks when idle (1000)\n"
		"  --deep-sleep-us N     the same after a quiet second (20000)\n"
		"  --early-grace-ms N    doorbells rung within N ms of a new queue address are\n"
		"                        served when 'initializing' clears, later ones dropped\n"
		"                        (default: the whole window; the profile's is 10)\n"
		"  --lenient             the lenient alternative of every strict fidelity default\n"
		"                        (Profile::make_lenient(); Documentation/prm-notes.rst)\n"
		"  --lenient-objects     only the object model's: any nonzero PD, CQ, SRQ or XRQ\n"
		"                        number exists (ObjectProfile::check_refs false)\n"
		"  --provision           at each INIT_HCA, objects another kernel user would have\n"
		"                        set up (uid 0, not the driver's): PD, CQ, NVMF XRQ with a\n"
		"                        backend controller and namespaces 1 and 2, an ACTIVE DCT\n"
		"                        (Documentation/prm-notes-uctx.rst)\n"
		"  --below-4g BYTES      guest RAM below 4 GiB (default $CXPRM_RAM_BELOW_4G,\n"
		"                        else QEMU q35's rule for the RAM file's size)\n"
		"  --ram-base ADDR       all guest RAM in one piece from guest-physical ADDR\n"
		"                        (arm64 virt: 0x40000000; default $CXPRM_RAM_BASE;\n"
		"                        excludes --below-4g)\n"
		"  --ivshmem-server SOCK be the ivshmem server of QEMU's ivshmem-doorbell on the\n"
		"                        UNIX socket SOCK: MSI-X interrupts (QEMU: -chardev\n"
		"                        socket,path=SOCK,id=ivsh -device ivshmem-doorbell,\n"
		"                        chardev=ivsh,vectors=N); exits when QEMU disconnects\n"
		"  --vectors N           MSI-X vectors the server offers, 1..64 (default 8)\n"
		"  --ready-file FILE     create FILE once serving (default $CXPRM_READY_FILE)\n"
		"  --log FILE            log there (appending) instead of stdout\n"
		"  --trace FILE          one line per command there (truncated first; '-' = the log)\n"
		"  --verbose             log every control command and opcode counts\n"
		"  -h, --help\n"
		"\n"
		"Exit status: 0 after SIGTERM/SIGINT/SIGHUP or QEMU's disconnect from the\n"
		"ivshmem server, 2 usage, 1 setup failure (also: the ivshmem socket in use).\n",
		f);
}

} // namespace cxprm::emud
