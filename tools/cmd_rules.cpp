#include <algorithm>
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/rules_options.hpp"

namespace fano::cli {

int cmd_rules(const Args& args) {
  po::options_description desc("options");
  add_json_option(desc, "print JSON: {\"options\": [...], \"readings\": [...]}");
  const auto vm = parse("rules", "[--json]",
                        "The rules options every rules-dependent command takes (as flags, or "
                        "together as --rules NAME), and every reading of the rules with its "
                        "name: every combination of the options' values.",
                        desc, nullptr, args);
  if (!vm) return 0;
  if (vm->count("json")) {
    print_json(rules_catalog_json());
    return 0;
  }
  std::string options = "options:";
  for (const RulesOption& option : rules_options()) {
    options += "\n  --" + std::string(option.flag) + ": " + std::string(option.help) + ", " +
               option.values_text(true) + "; default ";
    options.append(option.text_of(option.default_code));
  }
  std::cout << wrap_paragraphs(options, help_width()) << "\n";
  const std::vector<Variant> readings = every_rules();
  std::cout << "\nreadings (" << readings.size() << "; --rules NAME):\n";
  std::size_t width = 0;
  for (const Variant& v : readings) width = std::max(width, variant_short_name(v).size());
  for (const Variant& v : readings) {
    std::string name = variant_short_name(v);
    name.resize(width, ' ');
    std::cout << "  " << name << "  " << variant_description(v) << "\n";
  }
  return 0;
}

}  // namespace fano::cli
