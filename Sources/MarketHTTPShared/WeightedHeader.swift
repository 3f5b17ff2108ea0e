/// The choices a header such as `Accept-Language` or `Accept-Encoding` lists, each with its weight:
/// `ko-KR, en;q=0.5` is `[("ko-kr", 1), ("en", 0.5)]`. Names are lowercased; a missing `q` is 1.
package func weightedChoices(_ header: String?) -> [(name: String, weight: Double)] {
    (header ?? "").split(separator: ",").compactMap { choice in
        let parts = choice.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let name = parts.first, !name.isEmpty else { return nil }
        let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
        return (name, weight)
    }
}
