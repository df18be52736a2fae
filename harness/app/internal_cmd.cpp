// The commands a person rarely types: `references` (the registered reference functions), and the
// hidden `__unit` (one unit in this process, for `check`) and `__ctest` (CTest registrations).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/app.hpp"
#include "core/reference.hpp"
#include "run/check.hpp"
#include "run/ctest_script.hpp"
#include "run/units.hpp"

void addInternalCommands(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto* refs = app.add_subcommand("references", "list the registered reference functions");
  refs->callback([] {
    clh::finishCommand("references", [] {
      for (const auto& n : clh::ReferenceRegistry::instance().names()) std::cout << n << "\n";
      return clh::kExitOk;
    });
  });

  struct UnitArgs {
    clh::UnitChildOptions unit;
    std::string seed = "1";
    bool no_shrink = false;
  };
  auto u = std::make_shared<UnitArgs>();
  auto* unit =
      app.add_subcommand("__unit", "(internal) run one spec on one device in this process");
  unit->group("");
  unit->add_option("--spec", u->unit.spec_file)->required();
  unit->add_option("--device-id", u->unit.device_id)->required();
  unit->add_option("--seed", u->seed);
  unit->add_option("--cases", u->unit.cases);
  unit->add_option("--sizes", u->unit.sizes);
  unit->add_option("--out", u->unit.out)->required();
  unit->add_flag("--no-shrink", u->no_shrink);
  unit->add_option("--buffer-mode", u->unit.buffer_mode);
  unit->add_option("--read-mode", u->unit.read_mode);
  unit->add_flag("--control-build", u->unit.control_build);
  unit->callback([u, config] {
    clh::finishCommand("__unit", [&] {
      if (!clh::parseSeed(u->seed, u->unit.seed)) return int(clh::kExitUsage);
      u->unit.shrink = !u->no_shrink;
      return clh::runUnitChild(config(), u->unit);
    });
  });

  struct CtestArgs {
    std::vector<std::string> paths;
    std::string exe;
    std::vector<std::string> pools;
  };
  auto c = std::make_shared<CtestArgs>();
  auto* ctest =
      app.add_subcommand("__ctest", "(internal) print CTest registrations of spec x device");
  ctest->group("");
  ctest->add_option("paths", c->paths)->required();
  ctest->add_option("--exe", c->exe)->required();
  ctest
      ->add_option("--pool", c->pools,
                   "KIND=TYPE (repeatable): one test per spec for the devices of KIND, on the "
                   "device ctest allocates from its resources of TYPE")
      ->allow_extra_args(false);  // one KIND=TYPE each, never the specs that follow
  ctest->callback([c, config] {
    clh::finishCommand("__ctest", [&] {
      std::vector<clh::CtestPool> pools;
      for (const auto& p : c->pools) pools.push_back(clh::parseCtestPool(p));
      return clh::runCtestScript(config(), c->paths, c->exe, pools);
    });
  });
}
