// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Seeds of the eq_events target: cfg, then operations.
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hex.h"
#include "seed_bytes.h"

#include "cxprm/capi.h"
#include "cxprm/layout.h"
#include "cxprm/prm/adapter.h"
#include "cxprm/prm/dct.h"
#include "cxprm/prm/eq.h"
#include "cxprm/prm/esw.h"
#include "cxprm/prm/hca.h"
#include "cxprm/prm/hca_cap.h"
#include "cxprm/prm/issi.h"
#include "cxprm/prm/nvmf.h"
#include "cxprm/prm/opcodes.h"
#include "cxprm/prm/pages.h"
#include "cxprm/prm/registry.h"
#include "cxprm/prm/transport.h"

using namespace cxprm;
using namespace cxprm::prm;
namespace fs = std::filesystem;

namespace cxprm::seeds {

// ---- eq_events: cfg, then operations ----

void eq_seed(const std::string &name, uint8_t cfg, const Bytes &ops)
{
	Bytes b;
	put8(b, cfg);
	append(b, ops);
	write("eq_events", name, b);
}

void op_event(Bytes &b, uint8_t type, const Bytes &data28)
{
	put8(b, 0);
	put8(b, type);
	put8(b, 0);
	Bytes d = data28;
	d.resize(28);
	append(b, d);
}

void op_pages(Bytes &b, int16_t n)
{
	put8(b, 1);
	put16(b, (uint16_t)n);
	put8(b, 0);
}

void op_poll(Bytes &b, uint8_t budget) { put8(b, 3), put8(b, budget); }

void eq()
{
	const uint8_t LOG8 = 7 << 1; // log_eq_size 8
	Bytes esw(28, 0);
	esw[3] = 1;
	Bytes dct(28, 0);
	dct[25] = 0x10; // dct_number 0x1000
	Bytes a;
	op_event(a, event::ESW_FUNCTIONS_CHANGED, esw);
	op_event(a, event::DCT_DRAINED, dct);
	op_poll(a, 16);
	put8(a, 7);
	eq_seed("esw_and_dct_events", LOG8, a);

	Bytes p;
	op_pages(p, 5);
	op_poll(p, 8);
	put8(p, 4); // service: give 5
	op_pages(p, -3);
	op_poll(p, 8);
	put8(p, 4); // service: take 3 back
	put8(p, 6), put16(p, 4000), put8(p, CXPRM_TEXT_EQ);
	eq_seed("page_requests", LOG8, p);

	Bytes c;
	for (int i = 0; i < 4; i++)
		put8(c, 5); // commands completed by CMD events
	op_poll(c, 255);
	put8(c, 6), put16(c, 100), put8(c, CXPRM_TEXT_CMDQ); // truncated text
	eq_seed("command_events", 1 | LOG8, c);

	Bytes w;
	for (int i = 0; i < 9; i++) { // 2-entry ring: wraps, phase flips
		op_event(w, (uint8_t)(i & 1 ? event::PAGE_REQUEST : 0x03), {});
		op_poll(w, 1);
	}
	put8(w, 7);
	eq_seed("wrap_two_entries", 0, w);

	Bytes g;
	put8(g, 2), put16(g, 0);
	Bytes junk(64, 0xff);
	append(g, junk);
	op_poll(g, 4);
	put8(g, 2), put16(g, 1);
	junk.assign(64, 0);
	junk[1] = event::CMD;
	junk[0x20] = 0xff;
	append(g, junk);
	op_poll(g, 4);
	eq_seed("raw_entries", 2 << 1, g);

	Bytes dies;
	op_pages(dies, 7);
	op_poll(dies, 8);
	put8(dies, 4); // pages given ...
	put8(dies, 0xff), put8(dies, 0); // ... then the firmware dies: they strand
	eq_seed("firmware_dies_pages_strand", LOG8, dies);
	Bytes gone;
	op_pages(gone, 3);
	op_poll(gone, 8);
	put8(gone, 4);
	put8(gone, 0xff), put8(gone, 1); // the device goes away
	eq_seed("device_gone_with_pages", LOG8, gone);
	Bytes lies;
	op_pages(lies, 6);
	op_poll(lies, 8);
	put8(lies, 4); // GIVE 6
	op_pages(lies, -4);
	op_poll(lies, 8);
	put8(lies, 4); // TAKE 4: the answer is doctored from here on
	put8(lies, 2); // two addresses replaced ...
	put8(lies, 0), put16(lies, 0x0001);
	put8(lies, 1), put16(lies, 0x0001); // ... with one never given, twice
	put8(lies, 1), put16(lies, 0x0100); // and a count beyond the answer
	eq_seed("firmware_lies_about_pages", LOG8 | 0x40, lies);

	Bytes t;
	for (int i = 0; i < CXPRM_TEXT_COUNT; i++)
		put8(t, 6), put16(t, 19999), put8(t, (uint8_t)i);
	put8(t, 6), put16(t, 1), put8(t, CXPRM_TEXT_HEALTH);
	eq_seed("texts", LOG8 | 0x80, t);
}

} // namespace cxprm::seeds
