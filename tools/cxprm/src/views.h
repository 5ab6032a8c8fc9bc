// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The UAPI structs as output: each as a JSON object (stable keys, the
// schema of README-json.md) and as "key: value" lines for people.
#pragma once

#include <string>

#include <uapi/linux/cxprm.h>

#include "cli_device.h"
#include "json.h"
#include "table.h"

namespace cxprm::tool {

// struct cxprm_info (+ the path it came from).
Json info_json(const cxprm_info &i, const DevPath &where);
KvList info_kv(const cxprm_info &i, const DevPath &where);
// The same over fwctl: identity, firmware version, the function's driver
// and the file's firmware user context (uid, uctx caps by name).
Json fwctl_info_json(const cxprm_info &i, const DevPath &where, const DevFile::FwctlInfo &u);
KvList fwctl_info_kv(const cxprm_info &i, const DevPath &where, const DevFile::FwctlInfo &u);
// "ConnectX-7" for 15b3:1021, "" when unknown.
std::string model_name(uint16_t vendor, uint16_t device);
std::string fw_version(const cxprm_info &i);

// struct cxprm_esw_functions (the firmware status is shown by the caller).
Json esw_json(const cxprm_esw_functions &f);
KvList esw_kv(const cxprm_esw_functions &f);

// struct cxprm_nvmf_ns counters.
Json nvmf_json(const cxprm_nvmf_ns &n);
KvList nvmf_kv(const cxprm_nvmf_ns &n);

// struct cxprm_dctc.
Json dctc_json(const cxprm_dctc &c);
KvList dctc_kv(const cxprm_dctc &c);

// struct cxprm_event: payload decoded with the event's layout when the
// core has one (DCT_DRAINED/DCT_KEY_VIOLATION: dct_events, PAGE_REQUEST:
// pages_req_event, CMD: cmd_inter_comp_event).
Json event_json(const cxprm_event &e);
// "[   12.345678901] seq 7 ESW_FUNCTIONS_CHANGED (0x0e) sub 0x00 dct_number=0x1000"
std::string event_line(const cxprm_event &e);
// INFO's recovery fields in one line.
std::string recovery_text(const cxprm_info &i);

// "0-3,7" for a bitmap, "none" when empty.
std::string ranges(const std::vector<uint32_t> &v);

} // namespace cxprm::tool
