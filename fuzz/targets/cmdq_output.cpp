// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Fuzz target: the command engine's handling of what firmware hands back
// (cmdq.cpp collect(), mailbox.cpp MailboxChain::read(), the capture for
// `cxprm raw --dump`, stuck slots, device gone, dead firmware).
//
// A queue runs against the synchronous fake device; the input is a
// configuration byte, a count and then a list of up to 12 commands.  For each command the
// firmware answers with bytes from the input, and the input may corrupt
// the completed entry and output blocks (optionally re-signing them so the
// corruption gets past the signature checks), hold the completion back (a
// timeout, completed at a later doorbell), make the device vanish or its
// firmware die.
//
// After the list, typed commands (QUERY_HCA_CAP, QUERY_ESW_FUNCTIONS,
// MANAGE_PAGES TAKE, QUERY_ADAPTER, QUERY_DCT, QUERY_PAGES,
// QUERY_NVMF_NAMESPACE_CONTEXT) over the same queue, answered with input
// bytes: nothing may be written past the caller's buffers.
//
// Checks: the result is one of the engine's documented codes; an
// untouched completion is delivered byte for byte; a capture never holds
// more blocks than its buffer; after fini() no DMA memory, allocation or
// lock is left.
#include <cstring>

#include "fake_host.h"
#include "fuzz_input.h"

#include "cxprm/cmdq.h"
#include "cxprm/commands/adapter.h"
#include "cxprm/commands/dct.h"
#include "cxprm/commands/esw.h"
#include "cxprm/commands/hca.h"
#include "cxprm/commands/nvmf.h"
#include "cxprm/commands/pages.h"
#include "cxprm/mailbox.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using cxprm::fuzz::FakeHost;
using cxprm::fuzz::FuzzInput;

namespace {

bool documented(int err)
{
	switch (err) {
	case OK: case E_REMOTEIO: case E_IO: case E_BADMSG: case E_PROTO: case E_OVERFLOW:
	case E_TIMEDOUT: case E_NODEV: case E_HOSTDOWN: case E_BUSY: case E_NOMEM:
		return true;
	default:
		return false;
	}
}

struct Edit {
	uint8_t where; // 0: the entry, k: output block k - 1
	uint16_t offset;
	uint8_t value; // XORed in
};

void resign_entry(uint8_t *e)
{
	prm::Ref<prm::cmd_queue_entry> r(e);
	prm::set<prm::cmd_queue_entry::signature>(r, 0);
	prm::set<prm::cmd_queue_entry::signature>(r, (u8)~xor8(e, 64));
}

// The typed commands over the same queue, the firmware answering each with
// input bytes: what their wrappers make of any answer (buffer sizes,
// counts, strings), beyond what the offline decoders see.
void typed_commands(Cmdq &q, FakeHost &dev, FuzzInput &in)
{
	dev.complete = true;
	dev.set_gone(false);
	for (int i = 0; i < 8 && !in.empty(); i++) {
		uint8_t which = in.u8();
		std::vector<uint8_t> body = in.bytes(in.u16() % 5000);
		dev.handler = [&](FakeHost::Command &c) {
			for (size_t k = 0; k < c.out.size(); k++)
				c.out[k] = k < body.size() ? body[k] : 0;
		};
		CmdResult res{};
		int err;
		switch (which % 7) {
		case 0: {
			std::vector<uint8_t> image(cmd::CAP_IMAGE_BYTES + 1, 0xa5);
			err = cmd::query_hca_cap(q, which >> 3, (which & 8) ? prm::cap::CUR : prm::cap::MAX,
						 image.data(), &res);
			FUZZ_CHECK(image.back() == 0xa5);
			break;
		}
		case 1: {
			uint32_t words = in.u8() % 70;
			std::vector<u64> sf(words + 1, 0x5a5a5a5a5a5a5a5aull);
			cmd::EswFunctions f;
			err = cmd::query_esw_functions(q, &f, words ? sf.data() : nullptr, words, &res);
			FUZZ_CHECK(sf[words] == 0x5a5a5a5a5a5a5a5aull);
			break;
		}
		case 2: {
			uint32_t n = in.u16() % 700, got = 0;
			std::vector<u64> pas(n + 1, 7);
			err = cmd::manage_pages_take(q, {}, n, pas.data(), &got, &res);
			FUZZ_CHECK(got <= n && pas[n] == 7);
			break;
		}
		case 3: {
			cmd::AdapterInfo a;
			err = cmd::query_adapter(q, &a, &res);
			if (!err) {
				FUZZ_CHECK(std::memchr(a.vsd, 0, sizeof(a.vsd)) != nullptr);
				FUZZ_CHECK(std::memchr(a.psid, 0, sizeof(a.psid)) != nullptr);
			}
			break;
		}
		case 4: {
			cmd::DctContext d;
			err = cmd::query_dct(q, in.u32() & 0xffffff, &d, &res);
			break;
		}
		case 5: {
			cmd::PagesQuery pq;
			err = cmd::query_pages(q, cmd::PagesKind::REGULAR, {}, &pq, &res);
			break;
		}
		default: {
			cmd::NvmfNsCounters c;
			err = cmd::query_nvmf_namespace(q, in.u32() & 0xffffff, in.u32(), &c, &res);
			break;
		}
		}
		FUZZ_CHECK(documented(err) || err == E_INVAL || err == E_RANGE);
	}
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput in(data, size);
	uint8_t cfgb = in.u8();
	uint32_t log_size = (cfgb >> 2) % 6;           // 1..32 entries
	uint32_t log_stride = 5 + (cfgb >> 5) % 5;    // 32..512 bytes
	FakeHost dev(4u << 20, log_size, log_stride);
	dev.model = false; // the handlers below are the whole firmware
	CmdqConfig cfg;
	cfg.timeout_ns = 20ull * 1000 * 1000;
	cfg.slot_wait_ns = 40ull * 1000 * 1000;
	cfg.verify_signatures = !(cfgb & 1);
	cfg.reserve_page_slot = !(cfgb & 2);
	bool use_capture = cfgb & 0x80;

	Health health;
	Cmdq q(health);
	int err = q.init(dev.host(), cfg);
	if (log_stride < 6 || log_size + log_stride > 12) {
		// A geometry firmware must not report: refused, nothing kept.
		FUZZ_CHECK(err == E_PROTO);
		q.fini();
		FUZZ_CHECK(dev.dma_live() == 0 && dev.mem_live() == 0 && dev.locks_live() == 0);
		return 0;
	}
	FUZZ_CHECK(err == OK);

	int ncmds = in.u8() % 13;
	for (int cmd = 0; cmd < ncmds && !in.empty(); cmd++) {
		uint8_t f = in.u8();
		uint32_t inlen = 8 + in.u16() % 3000;
		uint32_t outlen = 16 + in.u16() % 6000;
		uint8_t status = (f & 0x40) ? in.u8() : 0;
		uint8_t delivery = (f & 0x80) ? (uint8_t)(in.u8() & 0x7f) : 0;
		std::vector<Edit> edits(in.u8() % 8);
		for (Edit &e : edits)
			e = {in.u8(), in.u16(), in.u8()};
		std::vector<uint8_t> body = in.bytes(in.u16() % 1024);

		std::vector<uint8_t> msg(inlen);
		for (uint32_t i = 0; i < inlen; i++)
			msg[i] = (uint8_t)(i * 7 + cmd);
		std::vector<uint8_t> answers[32]; // what the firmware wrote, by slot
		dev.handler = [&](FakeHost::Command &c) {
			for (size_t i = 0; i < c.out.size(); i++)
				c.out[i] = i < body.size() ? body[i] : (uint8_t)(i ^ 0x5a);
			prm::Ref<prm::cmd_out> h(c.out.data());
			prm::set<prm::cmd_out::status>(h, status);
			c.delivery = delivery;
			answers[c.slot] = c.out;
		};
		dev.after_complete = [&](FakeHost::Completed &d) {
			for (const Edit &e : edits) {
				if (!e.value)
					continue;
				if (e.where % 4 == 0)
					d.entry[e.offset % 64] ^= e.value;
				else if (!d.blocks.empty())
					d.blocks[(e.where / 4) % d.blocks.size()][e.offset % prm::MAILBOX_SIZE] ^= e.value;
			}
			if (f & 0x10)
				resign_entry(d.entry);
			if (f & 0x20)
				for (uint8_t *b : d.blocks)
					mailbox_sign(b);
		};
		bool hold = f & 1, gone = f & 4, dead = f & 8;
		dev.complete = !hold;
		if (gone)
			dev.set_gone(true);
		if (dead)
			dev.set_fw_dead(true);

		std::vector<uint8_t> out(outlen, 0xee);
		CmdResult res{};
		CmdCapture cap{};
		std::vector<uint8_t> blocks;
		if (use_capture) {
			cap.blocks_cap = in.u8() % 8;
			blocks.resize((size_t)cap.blocks_cap * prm::MAILBOX_SIZE + 1);
			cap.blocks = cap.blocks_cap ? blocks.data() : nullptr;
		}
		err = q.exec(msg.data(), inlen, out.data(), outlen, &res, (f & 2) ? (u32)EXEC_PAGE_SLOT : 0u,
				 use_capture ? &cap : nullptr);
		FUZZ_CHECK(documented(err));
		if (use_capture) {
			FUZZ_CHECK(cap.hdr.in_blocks + cap.hdr.out_blocks <= cap.blocks_cap);
			if (cap.blocks_cap)
				FUZZ_CHECK(blocks.back() == 0); // nothing beyond the caller's blocks
		}
		const std::vector<uint8_t> &answer = answers[res.slot];
		bool clean = edits.empty() && !hold && !gone && !dead && !answer.empty();
		if (clean && cfg.verify_signatures) {
			if (delivery) {
				FUZZ_CHECK(err == E_IO && res.st.delivery == delivery);
			} else {
				FUZZ_CHECK(err == (status ? E_REMOTEIO : OK));
				FUZZ_CHECK(res.st.status == status);
				FUZZ_CHECK(out == answer);
			}
		}
		if (err == OK || err == E_REMOTEIO)
			FUZZ_CHECK(res.st.delivery == 0);

		// Undo the device-wide faults; a held command completes at the
		// next doorbell (or stays stuck until fini).
		dev.complete = true;
		if (gone)
			dev.set_gone(false);
		if (dead)
			dev.set_fw_dead(false);
	}
	dev.after_complete = nullptr;
	typed_commands(q, dev, in);
	q.fini();
	FUZZ_CHECK(dev.dma_live() == 0);
	FUZZ_CHECK(dev.mem_live() == 0);
	FUZZ_CHECK(dev.locks_live() == 0);
	return 0;
}
