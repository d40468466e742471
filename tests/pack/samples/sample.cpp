#include <string>
#include <vector> // PLAIN-COMMENT trailing

/// Store DOC-COMMENT.
class Store {
 public:
  /// Load DOC-COMMENT.
  std::vector<std::string> load(const std::vector<std::string>& lines, bool strict) {
    std::vector<std::string> result;
    std::string url = "http://x//not-a-comment";
    // PLAIN-COMMENT own line
    for (const auto& raw : lines) {
      if (raw.empty()) {
        continue;
      }
      auto pos = raw.find('=');
      std::string key = raw.substr(0, pos);
      std::string value = pos == std::string::npos ? "" : raw.substr(pos + 1);
      if (strict && value.empty()) {
        throw std::runtime_error(key);
      }
      result.push_back(key + value);
    }
    auto raw = R"(multi
    line // in raw
    end)";
    int total = result.size();
    int extra = total * 2;
    log(total, extra, url, raw);
    return result;
  }
};
