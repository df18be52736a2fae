// The commands a person rarely types: `references` (the registered reference functions), and the
// hidden `__ctest` (CTest registrations).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/app.hpp"
#include "core/reference.hpp"
#include "run/check.hpp"
#include "run/ctest_script.hpp"

void addInternalCommands(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto* refs = app.add_subcommand("references", "list the registered reference functions");
  refs->callback([] {
    clh::finishCommand("references", [] {
      for (const auto& n : clh::ReferenceRegistry::instance().names()) std::cout << n << "\n";
      return clh::kExitOk;
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
