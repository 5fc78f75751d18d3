// The rules of one reading in plain sentences, for a player: the page's
// rules panel shows them (through GET /api/v2/rules), so that no front end
// spells a rule itself and every reading reads right (its material, its cap,
// its adjacency and its lines).
#pragma once
#include <string>
#include <vector>

#include "fano/board.hpp"

namespace fano {

// The sentences, in the order of the rules themselves: material and start, placing,
// moving, what counts, losing by a line, no move and repetition.
std::vector<std::string> rules_text(const Variant& v);

}  // namespace fano
