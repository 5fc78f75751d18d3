// Elapsed wall time for the reports that state it (a solve's stage times,
// the command's "seconds" fields); never read by a result.
#pragma once

#include <chrono>

namespace fano {

// Seconds on the steady clock since `t0`.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace fano
