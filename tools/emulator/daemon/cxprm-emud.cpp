// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// cxprm-emud: the ConnectX firmware emulator as the host process behind
// QEMU.  Maps the guest-RAM file and the ivshmem BAR file (both MAP_SHARED,
// the same files QEMU maps with share=on), runs cxprm::emu::Emulator over
// them (BAR = the init segment and UAR pages, DMA = guest-physical
// addresses in the RAM file), serves the test control page in the BAR's
// last 4 KiB (control.h), and exits cleanly on SIGTERM/SIGINT/SIGHUP.
// Start it before the guest boots: it owns the init segment from the start
// (initializing = 1 until the init delay has passed).  See README.md.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <pthread.h>
#include <sys/resource.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "control.h"
#include "control_server.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm_emu/emulator.h"
#include "file_platform.h"
#include "guest_ram.h"
#include "emud_usage.h"
#include "log.h"

using namespace cxprm;
using namespace cxprm::emud;

namespace {

bool parse_u64(const char *s, uint64_t *v)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	unsigned long long x = std::strtoull(s, &end, 0);
	if (errno || *end || *s == '-')
		return false;
	*v = x;
	return true;
}

bool parse_fw(const char *s, emu::Profile &p)
{
	unsigned a, b, c;
	char tail;
	if (std::sscanf(s, "%u.%u.%u%c", &a, &b, &c, &tail) != 3 || a > 0xffff || b > 0xffff || c > 0xffff)
		return false;
	p.fw_rev.major = (uint16_t)a;
	p.fw_rev.minor = (uint16_t)b;
	p.fw_rev.subminor = (uint16_t)c;
	return true;
}

std::string latency_text(const emu::Profile &p)
{
	if (!p.latency.enabled)
		return "off";
	std::string t = std::to_string(p.latency.engines) + " engines, " + std::to_string(p.latency.default_us) +
			" us default";
	for (auto &[op, us] : p.latency.per_opcode_us) {
		const char *n = prm::opcode_name(op);
		t += ", " + (n ? std::string(n) : std::to_string(op)) + " " + std::to_string(us);
	}
	return t;
}

const char *state_name(emu::HcaState s) { return emu::hca_state_name(s); }

// What the main loop reports when it changes.
struct Watch {
	emu::HcaState state = emu::HcaState::DISABLED;
	bool initializing = true;
	bool crashed = false;
	bool gone = false;
	uint64_t refused = 0;
	uint64_t cmds = 0;
	uint16_t vfs = 0;
	std::map<uint16_t, uint64_t> ops;
};

// A numeric option: given or not, and its value.
struct Override {
	bool set = false;
	uint64_t v = 0;
	// The profile's value, replaced when the option was given.
	template <typename T> void apply(T &field) const
	{
		if (set)
			field = (T)v;
	}
};

} // namespace

int main(int argc, char **argv)
{
	std::string ram_path, bar_path, log_path, ready_path, ivsh_path, trace_path, profile_name = "cx7";
	emu::Profile prof;
	bool have_below = false, have_base = false, verbose = false, lenient = false, lenient_objects = false;
	bool provision = false;
	uint64_t below = 0, ram_base = 0;
	Override fw_engines, spin_us, idle_sleep_us, deep_sleep_us, early_grace, init_delay, health_tick, fw_reset, boot_pages, init_pages, regular_pages, num_vfs, total_vfs, auto_io, vectors;
	const char *fw = nullptr;
	std::vector<std::string> pos, latency_specs;
	bool fw_latency = false;

	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto need = [&](const char *what) -> const char * {
			if (i + 1 >= argc) {
				std::fprintf(stderr, "cxprm-emud: %s needs %s\n", a.c_str(), what);
				std::exit(2);
			}
			return argv[++i];
		};
		auto num = [&](Override &o, uint64_t max) {
			const char *s = need("a number");
			if (!parse_u64(s, &o.v) || o.v > max) {
				std::fprintf(stderr, "cxprm-emud: bad value for %s: %s\n", a.c_str(), s);
				std::exit(2);
			}
			o.set = true;
		};
		if (a == "--ram")
			ram_path = need("a file");
		else if (a == "--bar")
			bar_path = need("a file");
		else if (a == "--profile")
			profile_name = need("a profile name (--list-profiles)");
		else if (a == "--init-delay-ms")
			num(init_delay, 24 * 3600 * 1000ull);
		else if (a == "--health-tick-ms")
			num(health_tick, 60 * 1000ull);
		else if (a == "--fw-reset-ms")
			num(fw_reset, 3600 * 1000ull);
		else if (a == "--boot-pages")
			num(boot_pages, 1u << 22);
		else if (a == "--init-pages")
			num(init_pages, 1u << 22);
		else if (a == "--regular-pages")
			num(regular_pages, 1u << 22);
		else if (a == "--num-vfs")
			num(num_vfs, 0xffff);
		else if (a == "--total-vfs")
			num(total_vfs, 0xffff);
		else if (a == "--nvmf-auto-io-ms")
			num(auto_io, 3600 * 1000);
		else if (a == "--fw-latency")
			fw_latency = true;
		else if (a == "--fw-engines")
			num(fw_engines, 32);
		else if (a == "--fw-latency-us")
			latency_specs.push_back(need("[OPCODE=]MICROSECONDS"));
		else if (a == "--spin-us")
			num(spin_us, 1000 * 1000);
		else if (a == "--idle-sleep-us")
			num(idle_sleep_us, 1000 * 1000);
		else if (a == "--deep-sleep-us")
			num(deep_sleep_us, 1000 * 1000);
		else if (a == "--early-grace-ms")
			num(early_grace, 3600 * 1000);
		else if (a == "--fw-version")
			fw = need("MAJOR.MINOR.SUBMINOR");
		else if (a == "--below-4g") {
			const char *s = need("a byte count");
			if (!parse_u64(s, &below)) {
				std::fprintf(stderr, "cxprm-emud: bad value for --below-4g: %s\n", s);
				return 2;
			}
			have_below = true;
		} else if (a == "--ram-base") {
			const char *s = need("a guest-physical address");
			if (!parse_u64(s, &ram_base) || ram_base > GuestRam::FOUR_G || (ram_base & 0xfff)) {
				std::fprintf(stderr, "cxprm-emud: bad value for --ram-base: %s\n", s);
				return 2;
			}
			have_base = true;
		} else if (a == "--ivshmem-server")
			ivsh_path = need("a socket path");
		else if (a == "--vectors")
			num(vectors, IvshmemServer::MAX_VECTORS);
		else if (a == "--ready-file")
			ready_path = need("a file");
		else if (a == "--log")
			log_path = need("a file");
		else if (a == "--trace")
			trace_path = need("a file (or -)");
		else if (a == "--verbose" || a == "-v")
			verbose = true;
		else if (a == "--lenient")
			lenient = true;
		else if (a == "--lenient-objects")
			lenient_objects = true;
		else if (a == "--provision")
			provision = true;
		else if (a == "-h" || a == "--help") {
			usage(stdout);
			return 0;
		} else if (a == "--list-profiles") {
			for (const emu::Profile::Name &n : emu::Profile::names())
				std::printf("%s\t%s\n", n.short_name, n.name);
			return 0;
		} else if (a.size() > 1 && a[0] == '-') {
			std::fprintf(stderr, "cxprm-emud: unknown option %s\n", a.c_str());
			usage(stderr);
			return 2;
		} else
			pos.push_back(a);
	}
	if (!pos.empty()) {
		if (pos.size() != 2 || !ram_path.empty() || !bar_path.empty()) {
			std::fprintf(stderr, "cxprm-emud: give the files as --ram/--bar or as RAM_FILE BAR_FILE\n");
			return 2;
		}
		ram_path = pos[0];
		bar_path = pos[1];
	}
	if (ram_path.empty() || bar_path.empty()) {
		usage(stderr);
		return 2;
	}
	if (vectors.set && (ivsh_path.empty() || vectors.v < 1)) {
		std::fprintf(stderr, "cxprm-emud: --vectors needs --ivshmem-server and is 1..%u\n",
			     IvshmemServer::MAX_VECTORS);
		return 2;
	}

	if (!emu::Profile::by_name(profile_name, &prof)) {
		std::fprintf(stderr, "cxprm-emud: unknown profile %s (cxprm-emud --list-profiles)\n",
			     profile_name.c_str());
		return 2;
	}
	if (lenient)
		prof.make_lenient();
	if (lenient_objects)
		prof.objects.check_refs = false;
	prof.provision.enabled = provision;
	init_delay.apply(prof.init_delay_ms);
	health_tick.apply(prof.health_tick_ms);
	fw_reset.apply(prof.fw_reset_ms);
	boot_pages.apply(prof.boot_pages);
	init_pages.apply(prof.init_pages);
	regular_pages.apply(prof.regular_pages);
	total_vfs.apply(prof.esw.total_vfs);
	num_vfs.apply(prof.esw.num_vfs);
	if (prof.esw.num_vfs > prof.esw.total_vfs) {
		std::fprintf(stderr, "cxprm-emud: --num-vfs %u exceeds total VFs %u\n", prof.esw.num_vfs,
			     prof.esw.total_vfs);
		return 2;
	}
	auto_io.apply(prof.nvmf.auto_io_ms);
	if (fw_latency || fw_engines.set || !latency_specs.empty())
		prof.latency.enabled = true;
	if (fw_engines.set) {
		if (!fw_engines.v) {
			std::fprintf(stderr, "cxprm-emud: --fw-engines is 1..32\n");
			return 2;
		}
		prof.latency.engines = (uint32_t)fw_engines.v;
	}
	for (const std::string &spec : latency_specs)
		if (!prof.latency.set_from_text(spec)) {
			std::fprintf(stderr, "cxprm-emud: bad --fw-latency-us %s ([OPCODE=]MICROSECONDS, at most 10 s)\n",
				     spec.c_str());
			return 2;
		}
	spin_us.apply(prof.poll.spin_us);
	// Longer idle sleeps cost less CPU; the first doorbell after a quiet
	// stretch waits up to one sleep (performance-emulator.rst, "Emulator").
	idle_sleep_us.apply(prof.poll.idle_sleep_us);
	deep_sleep_us.apply(prof.poll.deep_sleep_us);
	// The guest reads 'initializing' as 0 before this process notices a
	// new queue address, and a TCG vCPU can be descheduled for tens of ms
	// before it rings: no grace short of the whole window tells a driver
	// that never waits from a correct one here (prm-notes-transport.rst A2/B2).
	prof.early_grace_ms = early_grace.set ? (uint32_t)early_grace.v : prof.cmdq_init_delay_ms;
	if (fw && !parse_fw(fw, prof)) {
		std::fprintf(stderr, "cxprm-emud: bad --fw-version %s (MAJOR.MINOR.SUBMINOR)\n", fw);
		return 2;
	}
	if (ready_path.empty() && std::getenv("CXPRM_READY_FILE"))
		ready_path = std::getenv("CXPRM_READY_FILE");
	if (!have_below && std::getenv("CXPRM_RAM_BELOW_4G")) {
		if (!parse_u64(std::getenv("CXPRM_RAM_BELOW_4G"), &below)) {
			std::fprintf(stderr, "cxprm-emud: bad CXPRM_RAM_BELOW_4G\n");
			return 2;
		}
		have_below = true;
	}
	if (!have_base && !have_below && std::getenv("CXPRM_RAM_BASE")) {
		if (!parse_u64(std::getenv("CXPRM_RAM_BASE"), &ram_base) || ram_base > GuestRam::FOUR_G ||
		    (ram_base & 0xfff)) {
			std::fprintf(stderr, "cxprm-emud: bad CXPRM_RAM_BASE\n");
			return 2;
		}
		have_base = true;
	}
	if (have_base && have_below) {
		std::fprintf(stderr, "cxprm-emud: --ram-base and --below-4g exclude each other\n");
		return 2;
	}

	Log log;
	FILE *logf = nullptr;
	if (!log_path.empty()) {
		logf = std::fopen(log_path.c_str(), "ae");
		if (!logf) {
			std::fprintf(stderr, "cxprm-emud: %s: %s\n", log_path.c_str(), std::strerror(errno));
			return 1;
		}
		log.set_file(logf);
	}
	log.set_verbose(verbose);
	FILE *tracef = nullptr;
	if (!trace_path.empty() && trace_path != "-") {
		tracef = std::fopen(trace_path.c_str(), "we");
		if (!tracef) {
			std::fprintf(stderr, "cxprm-emud: %s: %s\n", trace_path.c_str(), std::strerror(errno));
			return 1;
		}
	}

	// Signals are taken synchronously by the main loop (sigtimedwait); block
	// them before any thread exists so the emulator thread never gets one.
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

	MappedFile ram, bar;
	std::string err;
	if (!ram.open(ram_path, &err) || !bar.open(bar_path, &err)) {
		log.info("error: %s", err.c_str());
		return 1;
	}
	const size_t bar_size = bar.size();
	if ((bar_size & (bar_size - 1)) || bar_size < 2 * (size_t)emu::bar_map::MIN_BAR_SIZE) {
		log.info("error: BAR file %s is %zu bytes: need a power of two of at least %zu (init segment, "
			 "UAR pages, control page)",
			 bar_path.c_str(), bar_size, 2 * (size_t)emu::bar_map::MIN_BAR_SIZE);
		return 1;
	}
	const size_t ctrl_off = CXPRM_EMUD_CTRL_OFFSET(bar_size);
	GuestRam layout = have_base ? GuestRam::contiguous(ram.size(), ram_base)
				    : GuestRam(ram.size(), have_below ? below : GuestRam::q35_below_4g(ram.size()));

	FilePlatform plat(ram, layout, bar, ctrl_off);
	// Listening before the ready file: QEMU connects as it starts.
	IvshmemServer ivsh(log);
	int shm_fd = -1;
	if (!ivsh_path.empty()) {
		shm_fd = open(bar_path.c_str(), O_RDWR | O_CLOEXEC);
		if (shm_fd < 0) {
			log.info("error: %s: %s", bar_path.c_str(), std::strerror(errno));
			return 1;
		}
		if (!ivsh.start(ivsh_path, shm_fd, vectors.set ? (uint32_t)vectors.v : 8, &err)) {
			log.info("error: %s", err.c_str());
			close(shm_fd);
			return 1;
		}
		plat.set_ivshmem(&ivsh);
	}
	std::unique_ptr<emu::Emulator> emu;
	try {
		emu = std::make_unique<emu::Emulator>(plat, prof);
	} catch (const std::exception &e) {
		log.info("error: %s", e.what());
		return 1;
	}
	if (tracef)
		emu->set_trace([tracef](const emu::TraceRecord &t) {
			std::string line = emu::trace_line(t);
			line += '\n';
			std::fputs(line.c_str(), tracef);
			std::fflush(tracef);
		});
	else if (!trace_path.empty())
		emu->set_trace([&log](const emu::TraceRecord &t) { log.info("trace %s", emu::trace_line(t).c_str()); });
	ControlServer ctrl(bar.data() + ctrl_off, *emu, plat, log);
	ctrl.publish();
	emu->start();

	const emu::Profile &p = emu->profile();
	uint32_t uars = (uint32_t)((ctrl_off - emu::bar_map::UAR_BASE) / emu::bar_map::UAR_SIZE);
	if (uars > p.max_uars)
		uars = p.max_uars;
	log.info("ready: %s (device 0x%04x) fw %u.%u.%u, init delay %u ms (%u ms after a queue address), "
		 "pages boot %d init %d regular %d, "
		 "VFs %u/%u; RAM %s (%zu MiB at 0x%llx, %llu MiB in its first region), BAR %s (%zu KiB: %u UAR pages, control "
		 "page at 0x%zx); firmware latency %s; pid %d",
		 p.name.c_str(), p.device_id, p.fw_rev.major, p.fw_rev.minor, p.fw_rev.subminor, p.init_delay_ms,
		 p.cmdq_init_delay_ms, p.boot_pages, p.init_pages, p.regular_pages, p.esw.num_vfs, p.esw.total_vfs, ram_path.c_str(),
		 ram.size() >> 20, (unsigned long long)layout.base(), (unsigned long long)(layout.low_size() >> 20),
		 bar_path.c_str(), bar_size >> 10,
		 uars, ctrl_off, latency_text(p).c_str(), (int)getpid());

	if (!ready_path.empty()) {
		int fd = open(ready_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			log.info("error: %s: %s", ready_path.c_str(), std::strerror(errno));
			emu->stop();
			return 1;
		}
		close(fd);
	}

	using clock = std::chrono::steady_clock;
	auto last_beat = clock::now(), last_watch = last_beat, last_ops = last_beat;
	Watch w;
	w.initializing = p.init_delay_ms != 0;
	w.vfs = p.esw.num_vfs;
	int sig = 0;
	std::string why;
	// Control page latency: 0.1 ms within 100 ms of the last request, 10 ms
	// otherwise (the guest's devmem takes far longer either way; an idle
	// daemon wakes 100 times a second here, and the state watch below
	// must see a bring-up's DISABLED -> ENABLED: tools/qemu/smoke.sh
	// counts them).  The heartbeat counts milliseconds whenever it wakes.
	const struct timespec fast = {0, 100 * 1000}, slow = {0, 10 * 1000 * 1000};
	auto last_req = clock::now() - std::chrono::seconds(1);
	for (;;) {
		siginfo_t si;
		auto before = clock::now();
		int s = sigtimedwait(&sigs, &si, before - last_req < std::chrono::milliseconds(100) ? &fast : &slow);
		if (s > 0) {
			sig = s;
			why = strsignal(sig);
			break;
		}
		if (!ivsh.poll()) {
			why = "QEMU's disconnect";
			break;
		}
		if (ctrl.poll()) {
			last_req = clock::now();
			emu->wake(); // a knob it changed is seen now, not after a deep-idle sleep
		}
		auto now = clock::now();
		auto beats = std::chrono::duration_cast<std::chrono::milliseconds>(now - last_beat);
		if (beats.count() >= 1) {
			ctrl.heartbeat((uint32_t)beats.count());
			last_beat += beats;
		}
		if (now - last_watch < std::chrono::milliseconds(10))
			continue;
		last_watch = now;
		bool ini = emu->initializing();
		if (ini != w.initializing && !ini)
			log.info("initializing cleared");
		w.initializing = ini;
		emu::HcaState st = emu->hca_state();
		if (st != w.state) {
			log.info("HCA %s -> %s (pages held %llu, commands %llu, ISSI %u)", state_name(w.state),
				 state_name(st), (unsigned long long)emu->pages_held(),
				 (unsigned long long)emu->commands_processed(), emu->current_issi());
			w.state = st;
			emu::Provisioned pv;
			if (st == emu::HcaState::INITIALIZED && emu->provisioned(&pv))
				log.info("provisioned (--provision; uid 0's, not the driver's): PD %u, CQ 0x%x, XRQ 0x%x, "
					 "backend controller %u, NVMF namespaces %u and %u, DCT 0x%x (0 = not on this model)",
					 pv.pd, pv.cqn, pv.xrqn, pv.backend_ctrl, pv.nsids[0], pv.nsids[1], pv.dctn);
		}
		uint16_t vfs = emu->num_vfs();
		if (vfs != w.vfs)
			w.vfs = vfs;
		if (!w.crashed && emu->crashed()) {
			w.crashed = true;
			log.info("firmware crashed (fault)");
		}
		if (!w.gone && emu->gone()) {
			w.gone = true;
			log.info("device gone (fault): the device part of the BAR reads 0xff");
		}
		uint64_t refused = plat.dma_refused();
		if (refused != w.refused) {
			uint64_t b, l;
			plat.last_refused(&b, &l);
			log.info("DMA outside guest RAM refused: %llu so far, last [0x%llx, +0x%llx) (RAM "
				 "[0x%llx, 0x%llx), above 4 GiB: %llu MiB)",
				 (unsigned long long)refused, (unsigned long long)b, (unsigned long long)l,
				 (unsigned long long)layout.base(), (unsigned long long)(layout.base() + layout.low_size()),
				 (unsigned long long)(layout.above_4g() >> 20));
			w.refused = refused;
		}
		if (verbose && now - last_ops >= std::chrono::milliseconds(100)) {
			last_ops = now;
			uint64_t cmds = emu->commands_processed();
			if (cmds != w.cmds) {
				std::string line;
				for (auto &[op, n] : emu->opcode_counts()) {
					uint64_t d = n - w.ops[op];
					if (d) {
						line += " ";
						line += prm::opcode_name(op);
						line += " +" + std::to_string(d);
					}
					w.ops[op] = n;
				}
				log.debug("commands %llu:%s (last status 0x%x syndrome 0x%x, delivery 0x%x)",
					  (unsigned long long)cmds, line.c_str(), emu->last_status(), emu->last_syndrome(),
					  emu->last_delivery_status());
				w.cmds = cmds;
			}
		}
	}

	ctrl.withdraw();
	emu->stop();
	emu::Counters c = emu->counters();
	struct rusage ru = {};
	getrusage(RUSAGE_SELF, &ru);
	double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		     ru.ru_stime.tv_usec / 1e6;
	// Pages still held at DISABLE_HCA: the driver freed (or lost) memory
	// the device still had; an error, said so first on the exit line.
	log.info("exiting on %s: %sHCA %s, %llu commands (%llu delivery errors, %llu unknown opcodes), pages held %llu "
		 "(given %llu, taken %llu, held at DISABLE_HCA %llu, dropped by function reset %llu), %llu EQEs, "
		 "%llu EQ overruns, %llu control commands, DMA %llu "
		 "accesses (%llu above 4 GiB, %llu refused), %llu interrupts raised (%s%llu dropped), %.2f s CPU",
		 why.c_str(), c.pages_leaked ? "ERROR pages still held at DISABLE_HCA, " : "",
		 state_name(emu->hca_state()), (unsigned long long)c.commands_processed,
		 (unsigned long long)c.delivery_errors, (unsigned long long)c.unknown_opcodes,
		 (unsigned long long)emu->pages_held(),
		 (unsigned long long)emu->pages_given_total(), (unsigned long long)emu->pages_taken_total(),
		 (unsigned long long)c.pages_leaked, (unsigned long long)c.pages_dropped_at_reset,
		 (unsigned long long)c.eqes_written, (unsigned long long)c.eq_overruns,
		 (unsigned long long)ctrl.answered(), (unsigned long long)plat.dma_ops(),
		 (unsigned long long)plat.dma_ops_above_4g(), (unsigned long long)plat.dma_refused(),
		 (unsigned long long)plat.irqs(), ivsh_path.empty() ? "no MSI-X: all " : "",
		 (unsigned long long)(ivsh_path.empty() ? plat.irqs() : ivsh.dropped()), cpu);
	// The machine-readable summary (README.md "Exit summary"; scripts grep it).
	log.info("summary: hca=%s commands=%llu unknown_opcodes=%llu delivery_errors=%llu pages_held=%llu "
		 "pages_given=%llu pages_taken=%llu pages_leaked=%llu fast_teardowns=%llu "
		 "pages_released_fast_teardown=%llu objects_leaked=%llu irqs=%llu",
		 state_name(emu->hca_state()), (unsigned long long)c.commands_processed,
		 (unsigned long long)c.unknown_opcodes, (unsigned long long)c.delivery_errors,
		 (unsigned long long)emu->pages_held(), (unsigned long long)emu->pages_given_total(),
		 (unsigned long long)emu->pages_taken_total(), (unsigned long long)c.pages_leaked,
		 (unsigned long long)c.fast_teardowns, (unsigned long long)c.pages_released_fast_teardown,
		 (unsigned long long)c.objects_leaked, (unsigned long long)plat.irqs());
	emu->set_trace(nullptr);
	log.info("doorbells: %llu rung while initializing (dropped), %llu in its grace (served late), "
		 "%llu entries served without one (lost), "
		 "%llu for slots not owned, %llu EQ arms a shared UAR dword may have lost; %s profile",
		 (unsigned long long)c.early_doorbells, (unsigned long long)c.deferred_doorbells,
		 (unsigned long long)c.lost_doorbells,
		 (unsigned long long)c.ignored_doorbells, (unsigned long long)c.eq_arms_rescued,
		 lenient ? "lenient" : lenient_objects ? "strict (lenient objects)" : "strict");
	emu.reset();
	plat.set_ivshmem(nullptr);
	if (shm_fd >= 0)
		close(shm_fd);
	if (tracef)
		std::fclose(tracef);
	bar.close();
	ram.close();
	if (logf)
		std::fclose(logf);
	return 0;
}
