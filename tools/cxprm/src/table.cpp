// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Tables and key/value lists (table.h).
#include "table.h"

#include <algorithm>
#include <ostream>

namespace cxprm::tool {

void Table::print(std::ostream &out, int indent) const
{
	std::vector<size_t> w(cols_.size());
	for (size_t c = 0; c < cols_.size(); c++)
		w[c] = cols_[c].name.size();
	for (const auto &r : rows_)
		for (size_t c = 0; c < r.size() && c < w.size(); c++)
			w[c] = std::max(w[c], r[c].size());
	auto line = [&](const std::vector<std::string> &cells, bool header) {
		std::string s(indent, ' ');
		for (size_t c = 0; c < cols_.size(); c++) {
			const std::string &v = c < cells.size() ? cells[c] : std::string();
			bool last = c + 1 == cols_.size();
			std::string pad(w[c] - v.size(), ' ');
			if (cols_[c].right && !header)
				s += pad + v;
			else if (cols_[c].right)
				s += pad + v;
			else
				s += last ? v : v + pad;
			if (!last)
				s += "  ";
		}
		out << s << "\n";
	};
	std::vector<std::string> head;
	for (const Col &c : cols_)
		head.push_back(c.name);
	line(head, true);
	for (const auto &r : rows_)
		line(r, false);
}

void print_kv(std::ostream &out, const KvList &kv, int indent)
{
	size_t w = 0;
	for (const auto &p : kv)
		w = std::max(w, p.first.size());
	for (const auto &p : kv)
		out << std::string(indent, ' ') << p.first << ":" << std::string(w - p.first.size() + 1, ' ')
		    << p.second << "\n";
}

void print_lines(std::ostream &out, const std::vector<std::string> &lines, int indent)
{
	for (const auto &l : lines)
		out << std::string(indent, ' ') << l << "\n";
}

} // namespace cxprm::tool
