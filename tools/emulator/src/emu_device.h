// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The device model behind the command interface: the HCA state machine,
// ISSI, page accounting, capabilities, UARs, EQs (and event delivery),
// DCTs, the eswitch and NVMF namespaces.  Handlers live in handlers_*.cpp,
// one file per area; dispatch and the generic checks in dispatch.cpp;
// event delivery in event_queue.cpp.
//
// Not thread-safe by itself: the Emulator serialises every call under its
// lock.  Interrupts to raise are queued in pending_irqs and raised by the
// Emulator after it drops the lock.
#pragma once

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "bar.h"
#include "nvme_ssd_model.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/srq.h"
#include "cxprm_emu/emulator.h"
#include "cxprm/prm/hca.h"

namespace cxprm::emu {

// Which capability type a capability layout describes.
template <class L> struct CapTypeOf;
template <> struct CapTypeOf<prm::cmd_hca_cap> {
	static constexpr uint16_t value = prm::cap::GENERAL;
};
template <> struct CapTypeOf<prm::nvmf_cap> {
	static constexpr uint16_t value = prm::cap::NVMF;
};
template <> struct CapTypeOf<prm::e_switch_cap> {
	static constexpr uint16_t value = prm::cap::ESWITCH;
};
template <> struct CapTypeOf<prm::roce_cap> {
	static constexpr uint16_t value = prm::cap::ROCE;
};

// The outcome of a handler: cmd_out.status and .syndrome.
struct Result {
	uint8_t status = 0;
	uint32_t syndrome = 0;
	static Result ok() { return {}; }
};
// A failure with one of our syndromes; the status comes from syndromes.h.
Result fail(uint32_t syndrome);
uint8_t syndrome_status(uint32_t syndrome);

// One command as the handlers see it.
struct Cmd {
	const uint8_t *in;
	uint32_t inlen;
	uint8_t *out;
	uint32_t outlen;
	uint16_t opcode, op_mod, uid;
};

struct Eq {
	uint8_t eqn = 0;
	uint8_t log_size = 0;
	uint8_t log_page_size = 0;
	uint32_t uar = 0;
	uint16_t intr = 0;
	bool oi = false, ec = false;
	bool armed = false;
	uint16_t uid = 0;
	std::vector<uint64_t> pas;
	std::array<uint64_t, 4> mask{};
	uint32_t producer = 0; // EQEs written, free running
	uint32_t consumer = 0; // consumer index from the doorbell, 24 bits
	uint64_t overruns = 0;
	// Since it last fired (or was created), an arm doorbell for another
	// EQ on its UAR was seen: it may have overwritten this EQ's arm
	// (event_queue.cpp, lost arms).
	bool arm_maybe_lost = false;

	bool subscribed(uint8_t type) const { return (mask[type / 64] >> (type % 64)) & 1; }
};

struct Dct {
	std::array<uint8_t, 64> ctx{}; // dctc as created (state kept separately)
	DctState state = DctState::ACTIVE;
	uint64_t drained_at_ns = 0;
};

// A function other than the BAR's own: a VF, or an ECPF's external host
// PF (handlers_other_functions.cpp).  Its pages are the BAR function's driver's
// to provide, and are accounted here, apart from the BAR function's.
struct OtherFunction {
	bool enabled = false;
	std::vector<uint64_t> pages; // held, in the order given
	std::set<uint64_t> page_set;
	int32_t owed = 0;    // wanted by page requests, not given yet
	int32_t release = 0; // asked back by page requests, not taken yet
};

// The objects DCTs, QPs and NVMF offload name (handlers_objects.cpp,
// handlers_qp.cpp, handlers_xrq.cpp).  What CREATE set, for QUERY and for
// the reference checks.
struct Cq {
	bool provisioned = false; // ProvisionProfile's: its EQ and UAR are not modelled
	uint8_t log_size = 0;
	uint32_t uar = 0, eqn = 0;
	uint64_t dbr = 0;
	std::vector<uint64_t> pas;
};

struct Srq {
	bool rmp = false; // made by CREATE_RMP: only the _RMP commands see it
	uint8_t log_size = 0, log_stride = 0; // log_stride: 16-byte units
	uint32_t pd = 0, cqn = 0;
	uint16_t lwm = 0;
	uint64_t dbr = 0;
};

struct Xrq { // with NVMF offload: no other kind is emulated
	uint32_t pd = 0, cqn = 0;
	uint8_t log_max_namespace = 0;
	XrqInfo info;
};

struct Qp {
	uint8_t state = 0; // qpc.state: 0 RST, 1 INIT, 2 RTR, 3 RTS
	uint32_t pd = 0, cqn_snd = 0, cqn_rcv = 0, srqn = 0; // srqn 0: no SRQ
};

struct Namespace {
	// ProvisionProfile's: its backend always answers (nvmf_backend_io.cpp).
	bool provisioned = false;
	uint32_t backend_nsid = 0;
	uint16_t lba_data_size = 0;
	uint16_t backend_ctrl = 0;
	uint64_t next_lba = 0; // where the next frontend command starts (a sequential initiator)
	NvmfCounters c;
};

// A user context (CREATE_UCTX): its uctx.cap.
struct Uctx {
	uint32_t cap = 0;
};

// A free object number in [first, first + max) and below 2^24 (PRM
// numbers are 24 bits) that none of objects (maps or sets by number)
// holds, or 0 when there is none.
// One walk of every container in number order from 'first': no lookup
// per candidate (a batch creates dozens of QPs or DCTs among the live ones).
inline uint32_t number_of(uint32_t n) { return n; }
template <class V> uint32_t number_of(const std::pair<const uint32_t, V> &e) { return e.first; }
// Whether c holds n, it moved up to n (the calls come with n rising).
template <class C> bool holds(const C &c, typename C::const_iterator &it, uint32_t n)
{
	while (it != c.end() && number_of(*it) < n)
		++it;
	return it != c.end() && number_of(*it) == n;
}
// The walk from 'from' (>= first): every number in [first, from) is taken.
template <class... M> uint32_t free_number_from(uint32_t first, uint32_t from, uint32_t max, const M &...objects)
{
	std::tuple<typename M::const_iterator...> at{objects.lower_bound(from)...};
	for (uint32_t n = from; n - first < max && n < (1u << 24); n++)
		if (!std::apply([&](auto &...it) { return (holds(objects, it, n) || ...); }, at))
			return n;
	return 0;
}
template <class... M> uint32_t free_number(uint32_t first, uint32_t max, const M &...objects)
{
	return free_number_from(first, first, max, objects...);
}
// A number space's floor: every number from its first below n is taken,
// so the lowest free one is found from there (the same number as
// free_number's, without walking the live objects below it: O(n) a
// create, with hundreds of QPs alive).  A create moves it past its
// number; every destroy of the space's objects lowers it (freed()).
struct NumberFloor {
	uint32_t n = 0;
	template <class... M> uint32_t take(uint32_t first, uint32_t max, const M &...objects)
	{
		uint32_t r = free_number_from(first, std::max(first, n), max, objects...);
		if (r)
			n = r + 1;
		return r;
	}
	void freed(uint32_t number) { n = std::min(n, number); }
};

// The kinds of object whose creating uid the Device records (owners).
// EQs are always uid 0's (only the kernel creates them): never recorded.
enum class Obj : uint8_t { PD, CQ, SRQ, XRQ, QP, DCT, NVMF_BE, EQ };

class Device {
public:
	Device(Platform &platform, Bar &bar, const Profile &profile);

	// Runs one delivered command (the transport's ExecFn).
	void execute(const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen);
	// Answers every command with INT_ERR (crashed firmware).
	void execute_crashed(const uint8_t *in, uint32_t inlen, uint8_t *out, uint32_t outlen);

	// Timed work: DCT drains, NVMF auto I/O.  Returns whether it did anything.
	bool tick(uint64_t now_ns);
	// Reads the EQ doorbells of every UAR in use.  Returns whether any moved.
	bool scan_eq_doorbells();

	// Posts an event to every EQ subscribed to 'type'; returns how many got it.
	unsigned post_event(uint8_t type, uint8_t sub_type, const uint8_t *data28);
	// A set of EQ numbers (eqn is 8 bits).
	using EqSet = std::bitset<256>;
	void post_cmd_completion(uint32_t vector, const EqSet &eligible);
	// EQs that exist now and take CMD events (completion events go only to
	// EQs that existed when the command was fetched).
	EqSet cmd_eq_snapshot() const;

	bool set_num_vfs(uint16_t n);
	bool request_pages(int32_t n);
	bool request_pages(int32_t n, uint32_t key);
	bool release_all_pages(uint32_t key);

	// Functions: Linux's get_function() key, id | ec << 16.
	static uint32_t fn_key(uint32_t id, bool ec) { return (id & 0xffff) | (ec ? 1u << 16 : 0); }
	// The key of the function a command's input In names.
	template <class In> static uint32_t fn_key_of(const Cmd &c)
	{
		prm::CRef<In> in(c.in);
		return fn_key((uint32_t)prm::get<typename In::function_id>(in),
			      prm::get<typename In::embedded_cpu_function>(in) != 0);
	}
	uint32_t self_key() const;
	// The other function of key, or null (the BAR's own or unknown).
	OtherFunction *other(uint32_t key);
	const OtherFunction *other(uint32_t key) const;
	// Whether any function holds page pa.
	bool page_held(uint64_t pa) const;
	uint64_t pages_held(uint32_t key) const;
	// A function reset (FLR) from outside: what DISABLE_HCA does, ISSI 0.
	void function_reset();
	bool simulate_nvmf_io(uint32_t xrqn, uint32_t nsid, const NvmfIo &io);
	// The NVMe device backend controllers drive, peer to peer.
	NvmeSsd ssd;
	// The adapter's DMA: the SSD's BAR when it claims the range, else the
	// platform (host memory).
	bool bus_read(uint64_t bus, void *dst, size_t len);
	bool bus_write(uint64_t bus, const void *src, size_t len);

	bool checksums_enabled() const;
	int32_t pages_wanted(uint16_t op_mod) const;

	// State, readable by the Emulator under its lock.
	HcaState state = HcaState::DISABLED;
	uint16_t issi = 0;
	std::map<uint16_t, CapImages> caps;
	std::vector<uint64_t> pages;  // held, in the order given
	std::set<uint64_t> page_set;
	int32_t owed_boot = 0, owed_init = 0, owed_regular = 0;
	// Pages negative page requests asked back and TAKE has not returned
	// yet: kept apart from owed_regular, so +N then -M is a GIVE of N and
	// a TAKE of M (as each request is its own for firmware), not N - M.
	int32_t owed_release = 0;
	uint64_t pages_given = 0, pages_taken = 0;
	std::set<uint32_t> uars;
	std::map<uint8_t, Eq> eqs;
	std::map<uint32_t, Dct> dcts;
	std::map<uint32_t, OtherFunction> others; // by fn_key
	std::map<std::pair<uint32_t, uint32_t>, Namespace> namespaces; // (xrqn, nsid)
	std::set<uint32_t> pds;
	std::map<uint32_t, Cq> cqs;
	std::map<uint32_t, Srq> srqs;
	std::map<uint32_t, Xrq> xrqs;
	std::map<uint32_t, Qp> qps;
	// QPs and DCTs share the numbers: each create's floor (NumberFloor),
	// both lowered by a QP's or a DCT's destroy (qpn_freed()).
	NumberFloor qpn_floor, dctn_floor;
	void qpn_freed(uint32_t n)
	{
		qpn_floor.freed(n);
		dctn_floor.freed(n);
	}
	// RoCE (handlers_roce.cpp): the BAR's function's roce_en, and the GID
	// table's populated entries (roce_addr_layout) by (port, index).
	bool roce_en = false;
	std::map<std::pair<uint8_t, uint16_t>, std::array<uint8_t, 32>> gids;
	std::map<std::pair<uint32_t, uint16_t>, NvmfBackendInfo> backends; // (xrqn, backend_controller_id)
	// User contexts by uid, and the creating uid of every object a nonzero
	// uid made ((kind, number); absent: uid 0).  handlers_uctx.cpp.
	std::map<uint16_t, Uctx> uctxs;
	std::map<std::pair<Obj, uint64_t>, uint16_t> owners;
	static uint64_t be_key(uint32_t xrqn, uint16_t id) { return (uint64_t)xrqn << 16 | id; }
	uint16_t owner_of(Obj kind, uint64_t n) const;
	void own(Obj kind, uint64_t n, uint16_t uid);
	// An object destroyed: its owner forgotten, and if it was provisioned
	// it is no longer one of prov's (its number may come back as the
	// driver's).
	void disown(Obj kind, uint64_t n);
	// Whether command c may act on object (kind, n): its owner, a QUERY
	// (query) from a TOOLS_RESOURCES uid, uid 0 with uid0_acts_on_any.
	Result owned(const Cmd &c, Obj kind, uint64_t n, bool query) const;
	// The object (kind, n) a command names: 'unknown' unless it is known
	// (exists, and is of the kind the command acts on), then owned().
	Result known_owned(const Cmd &c, bool known, uint32_t unknown, Obj kind, uint64_t n, bool query) const;
	// DESTROY / DEALLOC of object n of objects (a map or a set):
	// known_owned(), 'busy' while another object names it, then it is
	// erased and disowned.
	template <class M>
	Result destroy_object(const Cmd &c, M &objects, Obj kind, uint32_t n, bool known, uint32_t unknown,
			      bool in_use, uint32_t busy)
	{
		if (Result r = known_owned(c, known, unknown, kind, n, false); r.status)
			return r;
		if (in_use)
			return fail(busy);
		objects.erase(n);
		disown(kind, n);
		return Result::ok();
	}
	// ProvisionProfile's objects (handlers_provision.cpp), and how many
	// of them are still alive (dcts / namespaces through the pointers).
	Provisioned prov;
	ObjectCounts provisioned_alive(uint32_t *dcts_alive, uint32_t *ns_alive) const;
	uint16_t num_vfs = 0;
	uint8_t host_endianness = 0;        // HOST_ENDIANNESS.he (ACCESS_REG)
	// Port registers by local_port (handlers_reg_port.cpp), made from
	// Profile::regs on a port's first access.  ppcnt_ticks counts the
	// port's PPCNT reads since the last clr; the counters derive from it.
	struct PortRegs {
		uint8_t admin_status; // PAOS: 1 up, 2 down
		uint32_t eth_admin, ext_admin;
		uint16_t admin_mtu;
		uint64_t ppcnt_ticks;
	};
	std::map<uint8_t, PortRegs> port_regs;
	bool tracer_owner = false;          // MTRC_CAP.trace_owner
	std::array<uint32_t, 4> sw_owner_id{}; // of the last INIT_HCA
	std::map<uint16_t, uint64_t> opcode_counts;
	uint8_t last_status = 0;
	uint32_t last_syndrome = 0;
	Counters counters;
	std::vector<uint32_t> pending_irqs;
	// An arm doorbell for eqn seen on uar: every other EQ there may have
	// lost its arm under it (event_queue.cpp).
	void note_arm_overwrite(uint32_t uar, uint32_t eqn);
	// A fatal health syndrome the model raised (EQ overrun: 0xc); the
	// emulator moves it into the health buffer (with rfr) and crashes.
	uint8_t fatal_synd = 0;
	uint64_t now_ns = 0;          // time of the current step
	// No DRAINING DCT turns DRAINED before this (tick() walks dcts only then).
	uint64_t next_drained_ns = UINT64_MAX;
	uint64_t last_nvmf_tick_ns = 0;
	bool nvmf_auto_io_paused = false; // Emulator::set_nvmf_auto_io(false)

	// Capability field F in the CUR / MAX image (0 when the type is absent).
	template <class F> uint64_t cap_cur() const { return cap_get<F>(true); }
	template <class F> uint64_t cap_max() const { return cap_get<F>(false); }
	template <class F> uint64_t cap_get(bool cur) const
	{
		auto it = caps.find(CapTypeOf<typename F::layout>::value);
		if (it == caps.end())
			return 0;
		const auto &img = cur ? it->second.cur : it->second.max;
		return prm::get<F>(prm::CRef<typename F::layout>(img.data()));
	}

private:
	Result dispatch(Cmd &c);

	// handlers_hca.cpp
	Result enable_hca(Cmd &c);
	Result disable_hca(Cmd &c);
	Result query_issi(Cmd &c);
	Result set_issi(Cmd &c);
	Result init_hca(Cmd &c);
	Result teardown_hca(Cmd &c);
	Result query_hca_cap(Cmd &c);
	Result set_hca_cap(Cmd &c);
	Result query_adapter(Cmd &c);
	Result set_driver_version(Cmd &c);
	Result nop(Cmd &c);
	void drop_objects(); // TEARDOWN/DISABLE: everything still alive is gone
	// DISABLE_HCA's effect: pages not reclaimed counted as leaked and
	// dropped, objects dropped, DISABLED.
	void release_function(bool reset = false);

public:
	// nic_interface = DISABLED written after PREPARE_FAST_TEARDOWN: pages
	// released, objects dropped, DISABLED.
	void finish_fast_teardown();
	bool fast_teardown_prepared = false;

private:

	// handlers_uctx.cpp: CREATE/DESTROY_UCTX and the header uid's rules.
	Result create_uctx(Cmd &c);
	Result destroy_uctx(Cmd &c);
	Result uid_check(const Cmd &c) const;
	// handlers_provision.cpp: ProvisionProfile's objects at INIT_HCA.
	void provision();

	// handlers_pages.cpp
	Result query_pages(Cmd &c);
	Result manage_pages(Cmd &c);
	void reset_pages();
	// GIVE's n pages, checked, added to a function's held pages (none
	// when any is refused).
	Result given_pages(const Cmd &c, uint32_t n, std::vector<uint64_t> *held, std::set<uint64_t> *held_set);
	// TAKE of k pages before INIT_HCA: that much boot/init demand is owed again.
	void owe_again(uint32_t k);

	// handlers_other_functions.cpp: ENABLE/DISABLE_HCA and MANAGE_PAGES for
	// another function, and what happens to them with the BAR's function.
	Result enable_other(OtherFunction &f);
	Result disable_other(uint32_t key, OtherFunction &f);
	Result manage_other_pages(Cmd &c, uint32_t key, OtherFunction &f);
	void post_page_request(uint32_t key, int32_t n, bool release_all);
	void init_functions();
	void drop_other_pages(); // the BAR's function went away: count as leaked

	// handlers_eq.cpp
	Result alloc_uar(Cmd &c);
	Result dealloc_uar(Cmd &c);
	Result create_eq(Cmd &c);
	Result destroy_eq(Cmd &c);
	Result query_eq(Cmd &c);

	// handlers_dct.cpp
	Result create_dct(Cmd &c);
	Result destroy_dct(Cmd &c);
	Result drain_dct(Cmd &c);
	Result query_dct(Cmd &c);
	Result arm_dct(Cmd &c);

	// handlers_objects.cpp: PD, CQ, SRQ and the reference checks
	Result alloc_pd(Cmd &c);
	Result dealloc_pd(Cmd &c);
	Result create_cq(Cmd &c);
	Result destroy_cq(Cmd &c);
	Result query_cq(Cmd &c);
	Result create_srq(Cmd &c);
	Result destroy_srq(Cmd &c); // and DESTROY_RMP
	Result query_srq(Cmd &c);   // and QUERY_RMP
	Result create_rmp(Cmd &c);
	// CREATE_SRQ's and CREATE_RMP's last steps (RMPs are SRQs): the pas[]
	// of npages after the fixed input, a number among the SRQs', s kept as
	// c's uid's, the number answered in the output's field Num.
	template <class Num> Result add_srq(const Cmd &c, uint32_t fixed, uint64_t npages, const Srq &s);
	// Whether a reference names an object of that kind (lenient: nonzero).
	bool have_pd(uint32_t pd) const;
	bool have_cq(uint32_t cqn) const;
	bool have_srq_or_xrq(uint32_t n) const;
	// Whether an object is named by another one (destroy refused).
	bool pd_in_use(uint32_t pd) const;
	bool cq_in_use(uint32_t cqn) const;
	bool srq_in_use(uint32_t n) const; // SRQ or XRQ number, by QPs/DCTs
	// pas[] entries after fixed part 'fixed' (bytes) of an input: false
	// when the input is too short for n of them.
	static bool read_pas(const Cmd &c, uint32_t fixed, uint64_t n, std::vector<uint64_t> *pas);

	// handlers_qp.cpp
	Result create_qp(Cmd &c);
	Result qp_transition(Cmd &c);
	Result qp_2rst(Cmd &c);
	Result destroy_qp(Cmd &c);

	// handlers_roce.cpp
	Result query_nic_vport(Cmd &c);
	Result modify_nic_vport(Cmd &c);
	Result set_roce_address(Cmd &c);
	bool port_is_eth() const;
	// INIT2RTR_QP / CREATE_DCT on port naming source GID gid_index.
	Result roce_path_ok(uint64_t port, uint64_t gid_index) const;

	// handlers_xrq.cpp: XRQs with NVMF offload, backend controllers
	Result create_xrq(Cmd &c);
	Result check_xrq_nvmf(prm::CRef<prm::xrqc> ctx, XrqInfo *x) const;
	Result destroy_xrq(Cmd &c);
	Result create_nvmf_be(Cmd &c);
	Result destroy_nvmf_be(Cmd &c);

	// handlers_esw.cpp
	Result query_esw_functions(Cmd &c);

	// handlers_reg.cpp; the registers of handlers_reg_port.cpp (PAOS, PTYS,
	// PMTU, PPCNT) and handlers_reg_mng.cpp (MGIR, MTRC_CAP, MCIA) answer
	// through reg_port / reg_mng with the register data in and out.
	Result access_reg(Cmd &c);
	Result reg_port(uint16_t id, bool write, const uint8_t *in, uint8_t *out);
	Result reg_mng(uint16_t id, bool write, const uint8_t *in, uint8_t *out);
	PortRegs &port_regs_of(uint8_t port);

	// handlers_nvmf.cpp
	Result attach_nvmf_ns(Cmd &c);
	Result detach_nvmf_ns(Cmd &c);
	Result query_nvmf_ns(Cmd &c);
	bool xrq_exists(uint32_t xrqn) const;
	Result nvmf_xrq(uint32_t xrqn) const;
	// nvmf_xrq(), and the command's uid owns the XRQ (attach, detach, backends).
	Result nvmf_xrq_owned(const Cmd &c, uint32_t xrqn) const;
	// What ATTACH, DETACH and CREATE_NVMF_BACKEND_CTRL read first: the
	// input (layout In), the XRQ it names (In::xrqn) and nvmf_xrq_owned().
	template <class In> struct NvmfIn {
		Result r;
		prm::CRef<In> in;
		uint32_t xrqn;
	};
	template <class In> NvmfIn<In> nvmf_owned_in(const Cmd &c) const
	{
		prm::CRef<In> in(c.in);
		uint32_t xrqn = (uint32_t)prm::get<typename In::xrqn>(in);
		return {nvmf_xrq_owned(c, xrqn), in, xrqn};
	}

	// nvmf_backend_io.cpp: io's commands through backend be (null: none),
	// data to the XRQ's staging buffer; ns's counters move with the answers.
	void backend_io(Namespace &ns, NvmfBackendInfo *be, uint64_t staging, const NvmfIo &io);

	// event_queue.cpp
	bool write_eqe(Eq &eq, uint8_t type, uint8_t sub_type, const uint8_t *data28);
	void eq_doorbell(uint32_t value, bool arm);

	uint32_t uar_limit() const;

public:
	struct OpDesc;

private:
	static const OpDesc *find_op(uint16_t opcode);

	Platform &p_;
	Bar &bar_;
	const Profile &prof_;
};

} // namespace cxprm::emu
