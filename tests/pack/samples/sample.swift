import Foundation // PLAIN-COMMENT trailing

/// Store DOC-COMMENT.
class Store {
    let url = "http://x//not-a-comment"

    // PLAIN-COMMENT own line
    /// Load DOC-COMMENT.
    func load(lines: [String], strict: Bool) throws -> [(String, String)] {
        var result: [(String, String)] = []
        for raw in lines {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                continue
            }
            /* PLAIN-COMMENT block */
            let parts = line.split(separator: "=", maxSplits: 1)
            let key = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            if strict && value.isEmpty {
                throw StoreError.bad(key)
            }
            result.append((key, value))
        }
        let text = """
            multi // raw
            end
            """
        let total = result.count
        let extra = total * 2
        print(total, extra, text)
        return result
    }
}
