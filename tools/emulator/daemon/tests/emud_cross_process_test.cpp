// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-emud across processes, the way QEMU runs it: the test creates a
// guest-RAM file and a BAR file, starts the daemon on them and then plays
// the guest driver through its own mappings of the same files -- the real
// core (cxprm::Device bring-up/teardown, Cmdq, EqRing, commands) over a
// host interface whose DMA memory is carved out of the RAM file with
// guest-physical bus addresses (below and above the 4 GiB split).  The
// test control page (control.h) is used as a guest test would: hooks
// (SET_NUM_VFS, REQUEST_PAGES), fault knobs and queries.
#include <cstdio>

#include <gtest/gtest.h>
#include "cxprm_emu/profile.h"
#include "emud_process.h"

using namespace cxprm;
using namespace cxprm::emud::test;
using cxprm::emud::GuestRam;
using cxprm::emud::MappedFile;
using namespace std::chrono_literals;

// ---------------------------------------------------------------------------
// The guest-physical mapping (no daemon)
// ---------------------------------------------------------------------------

TEST(GuestRam, Q35Split)
{
	EXPECT_EQ(GuestRam::q35_below_4g(512 * MiB), 512 * MiB);
	EXPECT_EQ(GuestRam::q35_below_4g(0xafffffffull), 0xafffffffull);
	EXPECT_EQ(GuestRam::q35_below_4g(0xb0000000ull), 0x80000000ull); // 2.75 GiB: split at 2 GiB
	EXPECT_EQ(GuestRam::q35_below_4g(4096 * MiB), 0x80000000ull);
}

TEST(GuestRam, Offsets)
{
	GuestRam small(512 * MiB, GuestRam::q35_below_4g(512 * MiB));
	uint64_t off = 0;
	EXPECT_TRUE(small.to_offset(0x1000, 4096, &off));
	EXPECT_EQ(off, 0x1000u);
	EXPECT_TRUE(small.to_offset(512 * MiB - 4096, 4096, &off));
	EXPECT_FALSE(small.to_offset(512 * MiB - 4096, 4097, &off)); // runs past the end
	EXPECT_FALSE(small.to_offset(512 * MiB, 1, &off));
	EXPECT_FALSE(small.to_offset(GuestRam::FOUR_G, 1, &off)); // no RAM above 4 GiB
	EXPECT_FALSE(small.to_offset(0x1000, 0, &off));
	EXPECT_FALSE(small.to_offset(~0ull - 10, 100, &off)); // wraps

	// 4 GiB guest: 2 GiB low, 2 GiB from 4 GiB on (the documented example:
	// bus 0x102274000 at file offset 0x82274000).
	GuestRam big(4096 * MiB, GuestRam::q35_below_4g(4096 * MiB));
	EXPECT_TRUE(big.to_offset(0x102274000ull, 4096, &off));
	EXPECT_EQ(off, 0x82274000ull);
	EXPECT_EQ(big.to_gpa(0x82274000ull), 0x102274000ull);
	EXPECT_FALSE(big.to_offset(0x80000000ull, 4, &off));          // the PCI hole
	EXPECT_FALSE(big.to_offset(0x7ffff000ull, 0x2000, &off));     // straddles into the hole
	EXPECT_TRUE(big.to_offset(0x17ffff000ull, 0x1000, &off));     // last page
	EXPECT_EQ(off, 0xfffff000ull);
	EXPECT_FALSE(big.to_offset(0x180000000ull, 1, &off));         // beyond the RAM
}

TEST(GuestRam, ArmVirtContiguousFromRamBase)
{
	// arm64 virt: 512 MiB at 1 GiB; nothing below the base is RAM.
	GuestRam virt = GuestRam::contiguous(512 * MiB, GuestRam::VIRT_RAM_BASE);
	uint64_t off = 0;
	EXPECT_FALSE(virt.to_offset(0x1000, 4096, &off));
	EXPECT_FALSE(virt.to_offset(GuestRam::VIRT_RAM_BASE - 4096, 8192, &off)); // starts below the base
	EXPECT_TRUE(virt.to_offset(GuestRam::VIRT_RAM_BASE, 4096, &off));
	EXPECT_EQ(off, 0u);
	EXPECT_TRUE(virt.to_offset(0x5ffff000ull, 4096, &off)); // last page
	EXPECT_EQ(off, 512 * MiB - 4096);
	EXPECT_FALSE(virt.to_offset(0x5ffff000ull, 4097, &off));
	EXPECT_FALSE(virt.to_offset(0x60000000ull, 1, &off));
	EXPECT_FALSE(virt.to_offset(GuestRam::FOUR_G, 1, &off));
	EXPECT_EQ(virt.to_gpa(0x1234000), 0x41234000ull);
	EXPECT_EQ(virt.above_4g(), 0u);

	// 4 GiB at 1 GiB crosses 4 GiB with no hole: one region.
	GuestRam big = GuestRam::contiguous(4096 * MiB, GuestRam::VIRT_RAM_BASE);
	EXPECT_TRUE(big.to_offset(0xfffff000ull, 0x2000, &off));
	EXPECT_EQ(off, 0xbffff000ull);
	EXPECT_TRUE(big.to_offset(0x13ffff000ull, 0x1000, &off));
	EXPECT_FALSE(big.to_offset(0x140000000ull, 1, &off));
}

// ---------------------------------------------------------------------------
// The daemon
// ---------------------------------------------------------------------------

TEST(Emud, CommandLineErrors)
{
	std::string dir = temp_dir();
	ASSERT_FALSE(dir.empty());
	std::string ram = dir + "/ram", bar = dir + "/bar", small = dir + "/small", out = dir + "/out";
	ASSERT_TRUE(make_file(ram, 4 * MiB));
	ASSERT_TRUE(make_file(bar, 1 * MiB));
	ASSERT_TRUE(make_file(small, 64 * 1024));
	auto run = [&](std::vector<std::string> a) {
		a.insert(a.begin(), emud_bin());
		pid_t pid = spawn(a, out);
		return pid < 0 ? -5 : wait_exit(pid, 5000ms);
	};
	EXPECT_EQ(run({"--help"}), 0);
	EXPECT_EQ(run({}), 2);
	EXPECT_EQ(run({"--bogus", ram, bar}), 2);
	EXPECT_EQ(run({"--profile", "cx9", ram, bar}), 2);
	EXPECT_EQ(run({"--fw-version", "1.2", ram, bar}), 2);
	EXPECT_EQ(run({"--num-vfs", "99", ram, bar}), 2); // > total VFs
	EXPECT_EQ(run({"--ram", ram}), 2);
	EXPECT_EQ(run({ram, dir + "/missing"}), 1);
	EXPECT_EQ(run({ram, small}), 1); // no room for UARs + control page
	std::string text = slurp(out);
	EXPECT_NE(text.find("unknown profile cx9"), std::string::npos) << text;
	EXPECT_NE(text.find("need a power of two"), std::string::npos) << text;
	for (auto f : {ram, bar, small, out})
		unlink(f.c_str());
	rmdir(dir.c_str());
}

// --list-profiles prints Profile::names() (the scripts take the list from
// it), each name one by_name() knows; --help names them too.
TEST(Emud, ListProfilesIsTheProfileTable)
{
	std::string dir = temp_dir();
	ASSERT_FALSE(dir.empty());
	std::string out = dir + "/out", help = dir + "/help";
	pid_t pid = spawn({emud_bin(), "--list-profiles"}, out);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(wait_exit(pid, 5000ms), 0);
	pid = spawn({emud_bin(), "--help"}, help);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(wait_exit(pid, 5000ms), 0);
	std::string want, usage = slurp(help);
	const std::vector<emu::Profile::Name> names = emu::Profile::names();
	ASSERT_GE(names.size(), 4u); // cx5, cx7, cx7vf, bf3
	for (const emu::Profile::Name &n : names) {
		want += std::string(n.short_name) + "\t" + n.name + "\n";
		emu::Profile p;
		ASSERT_TRUE(emu::Profile::by_name(n.short_name, &p)) << n.short_name;
		EXPECT_STREQ(p.name.c_str(), n.name);
		EXPECT_NE(usage.find(std::string(n.short_name) + " "), std::string::npos) << usage;
	}
	EXPECT_EQ(slurp(out), want);
	unlink(out.c_str());
	unlink(help.c_str());
	rmdir(dir.c_str());
}

TEST(Emud, InitSegmentControlPageAndSignals)
{
	Daemon d;
	ASSERT_TRUE(d.start({"--profile", "cx5", "--fw-version", "16.99.1234", "--init-delay-ms", "300"}));

	// The init segment is the emulator's from the start: fw_rev and
	// cmdif_rev as a ConnectX publishes them, initializing until the delay.
	EXPECT_EQ(d.iseg(prm::iseg::FW_REV), 99u << 16 | 16u);
	EXPECT_EQ(d.iseg(prm::iseg::CMDIF_REV), 5u << 16 | 1234u);
	EXPECT_TRUE(prm::from_dword<prm::initial_seg::initializing>(d.iseg(prm::iseg::INITIALIZING)));
	ASSERT_TRUE(wait_initialized(d, 20000ms));
	auto waited = std::chrono::steady_clock::now() - d.started();
	EXPECT_GE(waited, 300ms);

	Control c(d.control_page());
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_MAGIC), CXPRM_EMUD_MAGIC);
	EXPECT_EQ(std::memcmp(d.control_page(), "CXEM", 4), 0); // little-endian on the wire
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_VERSION), CXPRM_EMUD_VERSION);
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_PID), (uint32_t)d.pid());
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_DEVICE_ID), 0x1017u);
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_FW_REV), 16u << 24 | 99u << 16 | 1234u);
	// The daemon's loop beats: waited for with a bound no loaded host reaches.
	uint32_t hb = c.rd(CXPRM_EMUD_CTRL_HEARTBEAT);
	auto beat_end = std::chrono::steady_clock::now() + 20s;
	while (c.rd(CXPRM_EMUD_CTRL_HEARTBEAT) == hb && std::chrono::steady_clock::now() < beat_end)
		std::this_thread::sleep_for(1ms);
	EXPECT_GT(c.rd(CXPRM_EMUD_CTRL_HEARTBEAT), hb);

	auto a = c.exec(CXPRM_EMUD_CMD_NOP);
	ASSERT_TRUE(a.acked);
	EXPECT_EQ(a.status, (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(a.value, CXPRM_EMUD_VERSION);
	EXPECT_EQ(c.exec(0x7777).status, (uint32_t)CXPRM_EMUD_ST_UNKNOWN_CMD);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_QUERY, {999}).status, (uint32_t)CXPRM_EMUD_ST_UNKNOWN_CMD);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_FAULT, {999, 1}).status, (uint32_t)CXPRM_EMUD_ST_UNKNOWN_CMD);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_FAULT, {CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE, 7}).status,
		  (uint32_t)CXPRM_EMUD_ST_BAD_ARG);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_MARK, {42}).status, (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_HCA_STATE), 0u); // DISABLED
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_HELD), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COMMANDS), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_INITIALIZING), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_WANTED, 1), 0u); // nothing before ENABLE_HCA
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_DONE), 11u); // every command above was answered
	// Hooks that need an initialized device say no.
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_REQUEST_PAGES, {4}).status, (uint32_t)CXPRM_EMUD_ST_REFUSED);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_NVMF_IO, {0x40, 1, 1, 1}).status, (uint32_t)CXPRM_EMUD_ST_REFUSED);
	// The automatic NVMF tick: paused (it ran), then run (it was paused).
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_NVMF_AUTO_IO, {2}).status, (uint32_t)CXPRM_EMUD_ST_BAD_ARG);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_NVMF_AUTO_IO, {0}).value, 1u);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_NVMF_AUTO_IO, {1}).value, 0u);

	// SIGINT: clean exit, magic withdrawn, a summary in the log.
	EXPECT_EQ(d.stop(SIGINT), 0);
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_MAGIC), 0u);
	std::string log = d.log();
	EXPECT_NE(log.find("ready: ConnectX-5 (device 0x1017) fw 16.99.1234, init delay 300 ms (20 ms after a "
			   "queue address)"),
		  std::string::npos)
		<< log;
	EXPECT_NE(log.find("control page at 0xff000"), std::string::npos) << log;
	EXPECT_NE(log.find("initializing cleared"), std::string::npos) << log;
	EXPECT_NE(log.find("guest mark 42"), std::string::npos) << log;
	EXPECT_NE(log.find("exiting on Interrupt"), std::string::npos) << log;
}

// The full thing: the core's bring-up and teardown against the daemon,
// DMA memory on both sides of the 4 GiB split, an event queue in guest RAM
// receiving events caused through the control page, faults, queries.
TEST(Emud, CoreBringupTeardownAcrossProcesses)
{
	Daemon d;
	// 64 MiB "guest" with only 32 MiB below 4 GiB: the other 32 MiB are at
	// guest-physical 4 GiB, file offset 32 MiB.
	// bf3: an ECPF eswitch manager, so the ESW commands and events below exist.
	ASSERT_TRUE(d.start({"--profile", "bf3", "--fw-version", "28.41.777", "--boot-pages", "40", "--init-pages",
			     "1500", "--nvmf-auto-io-ms", "0", "--verbose"},
			    64 * MiB, 1 * MiB, 32 * MiB));
	GuestRam layout(64 * MiB, 32 * MiB);
	FileHost fh(d.ram(), layout, d.bar(), d.bar_size(), 1 * MiB);
	Control c(d.control_page());

	auto t0 = std::chrono::steady_clock::now();
	auto dev = std::make_unique<Device>();
	int rc = dev->bringup(fh.host(), config());
	auto t_up = std::chrono::steady_clock::now();
	ASSERT_EQ(rc, OK) << step_name(dev->trace().failed_step) << ": " << err_name(dev->trace().failed_err) << "\n"
			  << d.log();
	EXPECT_EQ(dev->state(), DeviceState::UP);
	EXPECT_EQ(dev->fw_version().major, 28);
	EXPECT_EQ(dev->fw_version().minor, 41);
	EXPECT_EQ(dev->fw_version().subminor, 777);
	EXPECT_EQ(dev->issi(), 1);

	// The daemon's view, through the control page.
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_HCA_STATE), 2u); // INITIALIZED
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_ISSI), 1u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_HELD), 1540u);
	EXPECT_EQ(dev->pages().live(), 1540u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_OPCODE_COUNT, prm::op::INIT_HCA), 1u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_OPCODE_COUNT, prm::op::MANAGE_PAGES), 2u);
	EXPECT_GT(fh.allocs_above_4g(), 100u); // pages above 4 GiB
	EXPECT_GT(fh.allocs_below_4g(), 100u);

	// Event queue in guest RAM.
	Cmdq &q = dev->cmdq();
	uint32_t uar = 0;
	ASSERT_EQ(cmd::alloc_uar(q, &uar), OK);
	EqRing ring;
	ASSERT_EQ(ring.init(fh.host(), 6), OK);
	std::vector<uint64_t> pas(ring.npages());
	for (uint32_t i = 0; i < ring.npages(); i++)
		pas[i] = ring.page_bus(i);
	cmd::EqParams ep;
	ep.log_eq_size = 6;
	ep.uar_page = uar;
	ep.pas = pas.data();
	ep.npas = (uint32_t)pas.size();
	cmd::eq_subscribe(ep, prm::event::ESW_FUNCTIONS_CHANGED);
	cmd::eq_subscribe(ep, prm::event::PAGE_REQUEST);
	uint8_t eqn = 0xff;
	CmdResult r{};
	ASSERT_EQ(cmd::create_eq(q, ep, &eqn, &r), OK) << std::hex << r.st.syndrome;
	ring.attach(eqn, UAR_BASE + uar * UAR_SIZE);
	ring.doorbell(true);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_EQS), 1u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_UARS), 1u);

	// SET_NUM_VFS through the control page: ESW_FUNCTIONS_CHANGED lands in
	// the ring, QUERY_ESW_FUNCTIONS reports the new count.
	auto a = c.exec(CXPRM_EMUD_CMD_SET_NUM_VFS, {4});
	ASSERT_TRUE(a.acked);
	EXPECT_EQ(a.status, (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_TRUE(wait_event(ring, prm::event::ESW_FUNCTIONS_CHANGED));
	cmd::EswFunctions f{};
	ASSERT_EQ(cmd::query_esw_functions(q, &f), OK);
	EXPECT_EQ(f.host_num_of_vfs, 4);
	EXPECT_EQ(f.host_total_vfs, 16);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_NUM_VFS), 4u);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_SET_NUM_VFS, {17}).status, (uint32_t)CXPRM_EMUD_ST_REFUSED);

	// A page request from "firmware", served by the core's page tracker.
	ASSERT_EQ(c.exec(CXPRM_EMUD_CMD_REQUEST_PAGES, {8}).status, (uint32_t)CXPRM_EMUD_ST_OK);
	uint8_t data[28];
	ASSERT_TRUE(wait_event(ring, prm::event::PAGE_REQUEST, data));
	int32_t n = (int32_t)prm::get<prm::pages_req_event::num_pages>(prm::CRef<prm::pages_req_event>(data));
	EXPECT_EQ(n, 8);
	ASSERT_EQ(dev->pages().handle_page_request(n), OK);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_HELD), 1548u);

	// Faults through the control page.
	// A forced delivery status, limited to one opcode, once.
	EXPECT_EQ(c.fault(CXPRM_EMUD_FAULT_ONLY_OPCODE, prm::op::QUERY_ISSI), (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(c.fault(CXPRM_EMUD_FAULT_ONCE, 1), (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(c.fault(CXPRM_EMUD_FAULT_DELIVERY_STATUS, 0x6), (uint32_t)CXPRM_EMUD_ST_OK);
	ASSERT_EQ(cmd::query_esw_functions(q, &f), OK); // another opcode: untouched
	cmd::IssiInfo issi{};
	r = {};
	EXPECT_EQ(cmd::query_issi(q, &issi, &r), E_IO);
	EXPECT_EQ(r.st.delivery, 0x6);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_LAST_DELIVERY), 0x6u);
	EXPECT_EQ(cmd::query_issi(q, &issi, &r), OK); // 'once': gone
	// A corrupted output signature: with checksums off (as Linux) nothing
	// verifies it, the answer is taken (A1; fidelity_test has checksums on).
	EXPECT_EQ(c.fault(CXPRM_EMUD_FAULT_ONCE, 1), (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(c.fault(CXPRM_EMUD_FAULT_CORRUPT_SIGNATURE, 1), (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(cmd::query_esw_functions(q, &f), OK);
	EXPECT_EQ(cmd::query_esw_functions(q, &f), OK);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_FAULTS_FIRED), 2u);
	// Slow commands, then cleared (slow enough that a loaded host's
	// cleared command does not look slow).
	EXPECT_EQ(c.fault(CXPRM_EMUD_FAULT_SLOW_MS, 400), (uint32_t)CXPRM_EMUD_ST_OK);
	auto ts = std::chrono::steady_clock::now();
	EXPECT_EQ(cmd::query_esw_functions(q, &f, nullptr, 0, &r), OK);
	EXPECT_GE(std::chrono::steady_clock::now() - ts, 400ms);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_FAULT_CLEAR).status, (uint32_t)CXPRM_EMUD_ST_OK);
	ts = std::chrono::steady_clock::now();
	EXPECT_EQ(cmd::query_esw_functions(q, &f), OK);
	EXPECT_LT(std::chrono::steady_clock::now() - ts, 400ms);

	// Tear the EQ down, then the device.
	ASSERT_EQ(cmd::destroy_eq(q, eqn), OK);
	ring.fini();
	ASSERT_EQ(cmd::dealloc_uar(q, uar), OK);
	auto t_down0 = std::chrono::steady_clock::now();
	dev->teardown();
	auto t_down = std::chrono::steady_clock::now();
	EXPECT_EQ(dev->state(), DeviceState::OFF);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_HELD), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_HCA_STATE), 0u); // DISABLED
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_PAGES_LEAKED), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_OBJECTS_LEAKED), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_DMA_REFUSED), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_DELIVERY_ERRORS), 1u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_GIVEN), 1548u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_PAGES_TAKEN), 1548u);
	EXPECT_GE(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_EQES_WRITTEN), 2u);
	EXPECT_EQ(fh.dma_live(), 0u);
	EXPECT_EQ(fh.mem_live(), 0u);
	dev.reset();

	std::string log = stop_and_log(d);
	EXPECT_NE(log.find("HCA DISABLED -> ENABLED"), std::string::npos) << log;
	EXPECT_NE(log.find("-> INITIALIZED"), std::string::npos) << log;
	EXPECT_NE(log.find("exiting on Terminated: HCA DISABLED"), std::string::npos) << log;
	// The daemon did DMA above 4 GiB (the pages there), refused none.
	EXPECT_NE(log.find(" above 4 GiB, 0 refused)"), std::string::npos) << log;
	EXPECT_EQ(log.find("(0 above 4 GiB"), std::string::npos) << log;
	using ms = std::chrono::duration<double, std::milli>;
	std::printf("[ timing ] bring-up %.1f ms (1540 pages), teardown %.1f ms (1548 pages)\n",
		    ms(t_up - t0).count(), ms(t_down - t_down0).count());
}

// --trace: one line per command in the stable format of README.md
// ("Trace"); the log ends with the key=value exit summary the mlx5 stage
// reads (0 unknown opcodes, 0 delivery errors, 0 pages held).
TEST(Emud, TraceFileAndExitSummary)
{
	char tpl[] = "/tmp/cxprm-emud-trace-XXXXXX";
	int fd = mkstemp(tpl);
	ASSERT_GE(fd, 0);
	close(fd);
	std::string trace_path = tpl;
	Daemon d;
	ASSERT_TRUE(d.start({"--profile", "cx5", "--boot-pages", "8", "--init-pages", "8", "--trace", trace_path}));
	GuestRam layout(64 * MiB, 64 * MiB);
	FileHost fh(d.ram(), layout, d.bar(), d.bar_size(), 1 * MiB);
	{
		Device dev;
		ASSERT_EQ(dev.bringup(fh.host(), config()), OK) << d.log();
		dev.teardown();
	}
	EXPECT_EQ(d.stop(), 0);
	std::string t = slurp(trace_path);
	unlink(trace_path.c_str());
	EXPECT_EQ(t.rfind("seq=1 t=", 0), 0u) << t;
	EXPECT_NE(t.find(" slot=0 op=ENABLE_HCA(0x104) op_mod=0x0 in=16 out=16 fn=0 ec=0 delivery=0x0 status=0x0 "
			 "syndrome=0x0 seen="),
		  std::string::npos)
		<< t;
	EXPECT_NE(t.find("op=MANAGE_PAGES(0x108) op_mod=0x1 in=80 out=16 fn=0 ec=0 delivery=0x0 status=0x0 "
			 "syndrome=0x0 pages=8 seen="),
		  std::string::npos)
		<< t;
	EXPECT_NE(t.find("op=ACCESS_REG(0x805) op_mod=0x0 in=32 out=32 fn=- ec=- delivery=0x0 status=0x0"),
		  std::string::npos)
		<< t;
	EXPECT_NE(t.find("op=QUERY_PAGES(0x107) op_mod=0x1 in=16 out=16 fn=0 ec=0 delivery=0x0 status=0x0 "
			 "syndrome=0x0 pages=8 seen="),
		  std::string::npos)
		<< t;
	EXPECT_NE(t.find("op=DISABLE_HCA(0x105)"), std::string::npos) << t;
	// Every line ends with the doorbell-seen time and the answer time from
	// there: seen=S.NNNNNNNNN answer_ns=N, seen no later than t.
	for (size_t at = 0, nl; (nl = t.find('\n', at)) != std::string::npos; at = nl + 1) {
		std::string line = t.substr(at, nl - at);
		unsigned long long ts, tu, ss, sn, ans;
		ASSERT_EQ(std::sscanf(line.c_str(), "seq=%*u t=%llu.%llu", &ts, &tu), 2) << line;
		size_t s = line.find(" seen=");
		ASSERT_NE(s, std::string::npos) << line;
		ASSERT_EQ(std::sscanf(line.c_str() + s, " seen=%llu.%llu answer_ns=%llu", &ss, &sn, &ans), 3) << line;
		EXPECT_EQ(line.find(' ', line.find(" answer_ns=") + 1), std::string::npos) << line;
		EXPECT_LE(ss * 1000000 + sn / 1000, ts * 1000000 + tu) << line;
	}
	std::string log = d.log();
	size_t at = log.find("cxprm-emud: summary: ");
	ASSERT_NE(at, std::string::npos) << log;
	EXPECT_NE(log.find("summary: hca=DISABLED commands=", at), std::string::npos) << log;
	EXPECT_NE(log.find(" unknown_opcodes=0 delivery_errors=0 pages_held=0 pages_given=16 pages_taken=16 "
			   "pages_leaked=0 ",
			   at),
		  std::string::npos)
		<< log;
	EXPECT_NE(log.find("0 unknown opcodes"), std::string::npos) << log;
}

// An unknown opcode is counted in the exit line and the summary.
TEST(Emud, UnknownOpcodeCounted)
{
	Daemon d;
	ASSERT_TRUE(d.start({"--trace", "-"}));
	GuestRam layout(64 * MiB, 64 * MiB);
	FileHost fh(d.ram(), layout, d.bar(), d.bar_size(), 1 * MiB);
	{
		Device dev;
		ASSERT_EQ(dev.bringup(fh.host(), config()), OK) << d.log();
		uint8_t in[16] = {0x07, 0xff}, out[16] = {};
		CmdResult r{};
		EXPECT_EQ(dev.cmdq().exec(in, sizeof(in), out, sizeof(out), &r), E_REMOTEIO);
		EXPECT_EQ(r.st.status, cmd_status::BAD_OP_ERR);
		dev.teardown();
	}
	std::string log = stop_and_log(d);
	EXPECT_NE(log.find(" unknown_opcodes=1 "), std::string::npos) << log;
	EXPECT_NE(log.find("trace seq=1 t="), std::string::npos) << log;
	EXPECT_NE(log.find("op=UNKNOWN(0x7ff) op_mod=0x0 in=16 out=16 fn=- ec=- delivery=0x0 status=0x2 "
			   "syndrome=0xe3000001"),
		  std::string::npos)
		<< log;
}

// DMA the device must not do: a command queue outside guest RAM.  The
// daemon refuses the access (nothing outside the RAM file is touched), the
// emulator counts the entry as unreachable.
TEST(Emud, DmaOutsideGuestRamIsRefused)
{
	Daemon d;
	ASSERT_TRUE(start_initialized(d));
	Control c(d.control_page());
	// Queue at 8 GiB: beyond a 64 MiB guest (which has nothing above 4 GiB).
	auto wr = [&](uint32_t off, uint32_t v) {
		__atomic_store_n(reinterpret_cast<uint32_t *>(d.bar() + off), __builtin_bswap32(v), __ATOMIC_SEQ_CST);
	};
	wr(prm::iseg::CMDQ_ADDR_H, 0x2);
	wr(prm::iseg::CMDQ_ADDR_L_SZ, 0);
	__atomic_fetch_or(reinterpret_cast<uint32_t *>(d.bar() + prm::iseg::DOORBELL), __builtin_bswap32(1u),
			  __ATOMIC_SEQ_CST);
	auto end = std::chrono::steady_clock::now() + 20s;
	while (c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_UNREACHABLE_ENTRIES) == 0 &&
	       std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(1ms);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_UNREACHABLE_ENTRIES), 1u);
	EXPECT_GE(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_DMA_REFUSED), 1u);
	// The main loop logs refusals every 10 ms (of its own time: bounded here
	// generously for a loaded host).
	const char *want = "DMA outside guest RAM refused: 1 so far, last [0x200000000, +0x40)";
	end = std::chrono::steady_clock::now() + 20s;
	while (d.log().find(want) == std::string::npos && std::chrono::steady_clock::now() < end)
		std::this_thread::sleep_for(1ms);
	std::string log = stop_and_log(d);
	EXPECT_NE(log.find(want), std::string::npos) << log;
}

// A firmware restart (CXPRM_EMUD_CMD_FW_RESTART, emuctl fw-restart) and
// the driver's own request (nic_interface SW_RESET on a crashed firmware):
// 'initializing' for --fw-reset-ms, nic_interface DISABLED, and the core
// brings the device up again.
TEST(Emud, FirmwareRestart)
{
	Daemon d;
	ASSERT_TRUE(d.start({"--init-delay-ms", "0", "--fw-reset-ms", "300"}));
	ASSERT_TRUE(wait_initialized(d, 20000ms));
	Control c(d.control_page());
	auto nic = [&] { return (d.iseg(prm::iseg::CMDQ_ADDR_L_SZ) >> 8) & 7; };
	auto wait_for = [&](uint32_t what, uint32_t a1, uint64_t want) {
		auto end = std::chrono::steady_clock::now() + 20s;
		while (c.query(what, a1) != want && std::chrono::steady_clock::now() < end)
			std::this_thread::sleep_for(1ms);
		return c.query(what, a1) == want;
	};
	EXPECT_TRUE(prm::from_dword<prm::initial_seg::fw_reset_supported>(d.iseg(prm::iseg::INITIALIZING)));

	ASSERT_EQ(c.exec(CXPRM_EMUD_CMD_FAULT, {CXPRM_EMUD_FAULT_CRASH, 1}).status, (uint32_t)CXPRM_EMUD_ST_OK);
	ASSERT_TRUE(wait_for(CXPRM_EMUD_Q_CRASHED, 0, 1));
	auto t0 = std::chrono::steady_clock::now();
	auto a = c.exec(CXPRM_EMUD_CMD_FW_RESTART, {0}); // 0: the daemon's --fw-reset-ms
	ASSERT_TRUE(a.acked);
	EXPECT_EQ(a.status, (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_CRASHED), 0u);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_HCA_STATE), 0u); // DISABLED
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS), 1u);
	EXPECT_EQ(nic(), 1u); // DISABLED
	ASSERT_TRUE(wait_initialized(d, 20000ms));
	EXPECT_GE(std::chrono::steady_clock::now() - t0, 300ms);

	// The driver asks: crashed firmware, nic_interface SW_RESET (7) written
	// into cmdq_addr_l_sz.
	ASSERT_EQ(c.exec(CXPRM_EMUD_CMD_FAULT, {CXPRM_EMUD_FAULT_CRASH, 1}).status, (uint32_t)CXPRM_EMUD_ST_OK);
	ASSERT_TRUE(wait_for(CXPRM_EMUD_Q_CRASHED, 0, 1));
	uint32_t v = d.iseg(prm::iseg::CMDQ_ADDR_L_SZ);
	__atomic_store_n(reinterpret_cast<uint32_t *>(d.bar() + prm::iseg::CMDQ_ADDR_L_SZ),
			 __builtin_bswap32((v & ~(7u << 8)) | 7u << 8), __ATOMIC_SEQ_CST);
	ASSERT_TRUE(wait_for(CXPRM_EMUD_Q_COUNTER, CXPRM_EMUD_COUNTER_FW_RESTARTS, 2));
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_CRASHED), 0u);
	EXPECT_EQ(nic(), 1u);
	ASSERT_TRUE(wait_initialized(d, 20000ms));

	// A whole bring-up and teardown afterwards.
	GuestRam layout(64 * MiB, 64 * MiB);
	FileHost fh(d.ram(), layout, d.bar(), d.bar_size(), 1 * MiB);
	{
		Device dev;
		ASSERT_EQ(dev.bringup(fh.host(), config()), OK) << d.log();
		EXPECT_EQ(c.query(CXPRM_EMUD_Q_HCA_STATE), 2u); // INITIALIZED
		dev.teardown();
	}
	// A gone device is not restarted.
	ASSERT_EQ(c.exec(CXPRM_EMUD_CMD_FAULT, {CXPRM_EMUD_FAULT_DEVICE_GONE, 1}).status, (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(c.exec(CXPRM_EMUD_CMD_FW_RESTART, {50}).status, (uint32_t)CXPRM_EMUD_ST_REFUSED);
	std::string log = stop_and_log(d);
	EXPECT_NE(log.find("control: firmware restart (state lost, crash/stall cleared; nic_interface DISABLED, "
			   "initializing for 300 ms)"),
		  std::string::npos)
		<< log;
	EXPECT_NE(log.find("control: firmware restart refused (device gone)"), std::string::npos) << log;
}

// device_gone: the device part of the BAR reads all ones, the control page
// keeps working (it is not part of the device).
TEST(Emud, DeviceGoneKeepsTheControlPage)
{
	Daemon d;
	ASSERT_TRUE(start_initialized(d));
	Control c(d.control_page());
	EXPECT_NE(d.iseg(prm::iseg::FW_REV), 0xffffffffu);
	auto a = c.exec(CXPRM_EMUD_CMD_FAULT, {CXPRM_EMUD_FAULT_DEVICE_GONE, 1});
	ASSERT_TRUE(a.acked);
	EXPECT_EQ(a.status, (uint32_t)CXPRM_EMUD_ST_OK);
	EXPECT_EQ(d.iseg(prm::iseg::FW_REV), 0xffffffffu); // already, when the answer came
	EXPECT_EQ(d.iseg(CXPRM_EMUD_CTRL_OFFSET(d.bar_size()) - 4), 0xffffffffu);
	EXPECT_EQ(c.rd(CXPRM_EMUD_CTRL_MAGIC), CXPRM_EMUD_MAGIC);
	EXPECT_EQ(c.query(CXPRM_EMUD_Q_GONE), 1u);
	// And a core bring-up sees a gone device.
	GuestRam layout(64 * MiB, GuestRam::q35_below_4g(64 * MiB));
	FileHost fh(d.ram(), layout, d.bar(), d.bar_size(), 1 * MiB);
	Device dev;
	EXPECT_EQ(dev.bringup(fh.host(), config()), E_NODEV);
	EXPECT_EQ(fh.dma_live(), 0u);
	EXPECT_EQ(d.stop(), 0);
}
