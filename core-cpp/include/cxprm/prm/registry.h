/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The registry of every PRM layout the core defines: for the layout dump,
 * the mlx5_ifc.h cross-check and anything else that walks all layouts.
 * The list is CXPRM_LAYOUTS(X), X(layout, field X-list macro), generated
 * with the layouts from layouts.sel in its order (layouts_gen.h): a layout
 * added there is registered.  This header includes every prm/ header, so
 * their constants come with it.
 */
#pragma once

#include <cxprm/prm/layouts_gen.h>

#include "transport.h"
#include "flex.h"
#include "hca_cap.h"
#include "adapter.h"
#include "issi.h"
#include "hca.h"
#include "pages.h"
#include "eq.h"
#include "esw.h"
#include "dct.h"
#include "pd_cq.h"
#include "srq.h"
#include "rmp.h"
#include "qp.h"
#include "nvmf.h"
#include "caps.h"
#include "reg.h"
#include "vport.h"
#include "uctx.h"

namespace cxprm::prm {

/* Every registered layout, in CXPRM_LAYOUTS' order; *count gets their number. */
const LayoutDesc *const *all_layouts(u32 *count);

/* The layout called name, or nullptr. */
const LayoutDesc *find_layout(const char *name);

} // namespace cxprm::prm
