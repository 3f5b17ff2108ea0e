/// What a path's first segment says a request is for, in either case.
package enum AppPaths {
    /// The first segment of `path`, leading slashes skipped.
    package static func firstSegment(of path: String) -> Substring.UTF8View {
        path.utf8.drop { $0 == UInt8(ascii: "/") }.prefix { $0 != UInt8(ascii: "/") }
    }

    /// Either API: `api`, or 2021's `item` and `items`.
    package static func isAPI(_ segment: Substring.UTF8View) -> Bool {
        ["api", "item", "items"].contains { segment.caselessEquals($0.utf8) }
    }

    /// What an app asks for: either API, `healthChecker` and the pictures; not the storefront, the
    /// inspector or the console that a person opens on the same address.
    package static func isAppRequest(_ segment: Substring.UTF8View) -> Bool {
        isAPI(segment) || ["healthChecker", "images"].contains { segment.caselessEquals($0.utf8) }
    }
}
