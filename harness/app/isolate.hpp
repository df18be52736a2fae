// Running work in a child process: the one runner lives in proc/child.hpp (shared with the
// semantics layer); this header keeps the app's includes unchanged.
#pragma once

#include "proc/child.hpp"
