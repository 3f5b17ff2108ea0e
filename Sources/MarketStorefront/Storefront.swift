import Foundation
import Hummingbird
import MarketCore
import MarketHTTPShared
import MarketModel
import MarketPages

/// The web pages people browse, buy and sell with, served beside the API from the same service.
/// Pages are rendered on the server and work without scripts; the script only makes them smoother.
package struct Storefront: Sendable {
    static var pageSize: Int { 20 }

    let website: Website
    /// Fills an emptied market with the demo catalogue again; returns how many products it added.
    let fillWithDemo: @Sendable () async throws -> Int
    /// The newest requests that named no vendor, as the inspector lists them, for the console.
    let anonymousRequests: @Sendable (Localization) -> [PageContent]
    let classBoard: any ClassBoardSource

    var service: MarketService { website.service }
    var renderer: PageRenderer { website.renderer }

    package init(
        website: Website, fillWithDemo: @escaping @Sendable () async throws -> Int,
        anonymousRequests: @escaping @Sendable (Localization) -> [PageContent], classBoard: any ClassBoardSource
    ) {
        self.website = website
        self.fillWithDemo = fillWithDemo
        self.anonymousRequests = anonymousRequests
        self.classBoard = classBoard
    }

    /// The folder of the storefront's templates and phrases, for the page renderer.
    package static var resources: URL? { Bundle.module.resourceURL?.appendingPathComponent("storefront") }

    package func addRoutes(to router: Router<MarketRequestContext>, cache: ResponseCache) {
        let pages = website.pages(on: router)
        let browsing = pages.caching(in: cache, version: service.catalogueVersion) { $0.browser.cachePolicy }
        browsing.get("/", use: catalogue)
        browsing.get("suggestions", use: suggestions)
        pages.get("products/new", use: newProduct)
        pages.post("products/new", use: createProduct)
        browsing.get("products/{id}", use: productPage)
        pages.get("products/{id}/edit", use: editProduct)
        pages.post("products/{id}/edit", use: saveProduct)
        pages.post("products/{id}/edit/unlock", use: unlockEditing)
        pages.get("products/{id}/delete", use: confirmDelete)
        pages.post("products/{id}/delete", use: deleteProduct)
        pages.get("sign-in", use: signInPage)
        pages.post("sign-in", use: signIn)
        pages.post("sign-out", use: signOut)
        pages.get("operator", use: console)
        pages.get("operator/board", use: board)
        pages.get("operator/board.json", use: boardJSON)
        pages.get("operator/board.csv", use: boardCSV)
        pages.post("operator/sign-in", use: operatorSignIn)
        pages.post("operator/sign-out", use: operatorSignOut)
        pages.post("operator/vendors", use: registerVendor)
        pages.post("operator/vendors/secret", use: rekeyVendor)
        pages.post("operator/products/remove", use: removeProduct)
        pages.post("operator/products/hide", use: hideProduct)
        pages.post("operator/products/show", use: showProduct)
        pages.post("operator/reset", use: resetMarket)
        pages.post("operator/rehearsal", use: rehearseForEveryTeam)
    }
}
