// Text for commands a person pastes: replay lines name a spec file and a device by regex.
#pragma once

#include <string>

namespace clh {

/// `s` as one shell word: unchanged when it is made only of safe characters, else single-quoted.
std::string shellQuote(const std::string& s);

/// `s` with every ECMAScript regex metacharacter escaped (a device name matched exactly).
std::string regexEscape(const std::string& s);

/// "^" + regexEscape(name) + "$": the `--device` value that selects exactly this device.
std::string exactDeviceRegex(const std::string& display_name);

}  // namespace clh
