/// Rows as a terminal lines them up: each column as wide as its widest cell and two spaces, the last as it is.
enum TextTable {
    static func lines(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row.dropLast(), widths).map { $0.padding(toLength: $1 + 2, withPad: " ", startingAt: 0) }.joined()
                + (row.last ?? "")
        }
    }
}
