// The tables and the Api the API's tests (test_api.cpp) and the HTTP
// server's (test_server.cpp) answer from: the four named variants, solved
// once per test process into a temporary folder.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fano/api.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "support.hpp"

namespace fano::testing {

using server::Api;
using server::Request;
using server::Response;

// The tables of every variant, solved once per test process into a
// temporary folder (tables are not committed; test_verify checks the solver).
inline const std::string& tables_folder() {
  static TempDir dir;
  static const std::string path = [] {
    for (const Variant& v : kAllVariants)
      write_file_atomically(default_tablebase_path(v, dir.path().string()),
                            encode_solution(solve(v)));
    return dir.path().string();
  }();
  return path;
}

inline std::string table_path(const Variant& v) {
  return default_tablebase_path(v, tables_folder());
}

// The tables of every variant, loaded once.
inline const Api& api() {
  static const Api a = [] {
    std::vector<server::ServedTable> tables;
    for (const Variant& v : kAllVariants)
      tables.push_back({open_tablebase(table_path(v), v), table_path(v)});
    return Api(std::move(tables), "test");
  }();
  return a;
}

inline const Tablebase& table_of(const Variant& v) {
  for (const auto& t : api().tables())
    if (t->table.variant() == v) return t->table;
  throw std::logic_error("no table");
}

inline Response get(const std::string& path, std::multimap<std::string, std::string> params = {}) {
  Request r;
  r.path = path;
  r.params = std::move(params);
  return api().handle(r);
}

inline nlohmann::json get_json(const std::string& path,
                               std::multimap<std::string, std::string> params = {},
                               int status = 200) {
  const Response r = get(path, std::move(params));
  EXPECT_EQ(r.status, status) << path << ": " << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  return parse_json(r.body);
}

// A POST of the batch route.
inline Response post_batch(const std::string& path, const std::string& body) {
  Request r;
  r.method = "POST";
  r.path = path;
  r.body = body;
  return api().handle(r);
}

}  // namespace fano::testing
