import Foundation
import MarketModel

/// The catalogue a team's hard cases make: the cases' own products first in the list's order, then filler
/// products enough for the paging cases, and the team's own products where its dialect lists new ones. Every
/// product is made from its id and the seed, so a page and a detail agree and a run repeats.
struct RehearsedCatalogue: Sendable {
    /// Far above any real product's id: a rehearsed id never names one of the market's.
    static let firstID: Int64 = 2_000_000_000
    static let firstFillerID = firstID + 10_000
    /// A page of filler products, when no case says how many.
    static let fillerPerCatalogue = 20
    static let listedAt = Date(timeIntervalSince1970: 1_764_547_200)

    let cases: [HardCase]
    let seed: UInt64

    var vendor: VendorSummary { VendorSummary(id: Self.firstID, name: "연습 상점", createdAt: Self.listedAt) }

    /// The cases' own products, in the order the list shows them.
    var caseProducts: [HardCaseProduct] {
        cases.contains(.empty) ? [] : cases.flatMap { hardCase in HardCaseProduct.all(of: hardCase) }
    }

    /// How many filler products there are, for pages of `itemsPerPage` besides `others` (the cases' and the team's own).
    func fillerCount(itemsPerPage per: Int, others: Int) -> Int {
        guard !cases.contains(.empty) else { return 0 }
        let halfPage = cases.contains(.halfLastPage) ? max(1, per / 2) : 0
        let wholePages =
            [(HardCase.thousandPages, 1000), (.halfLastPage, 2), (.shifting, 5)].first {
                cases.contains($0.0)
            }?.1 ?? 0
        let total = wholePages == 0 ? others + Self.fillerPerCatalogue : wholePages * per + halfPage
        return max(0, total - others)
    }

    /// How many items already given each next page begins with, under `shifting`: as many products as arrived
    /// meanwhile, pushed down from the top of the list.
    func repeatedPerPage(itemsPerPage per: Int) -> Int { cases.contains(.shifting) && per > 1 ? max(1, per / 5) : 0 }

    /// The product with this id as the catalogue holds it; nil when it holds none.
    func product(id: Int64) -> Product? {
        if let caseProduct = HardCaseProduct(id: id), caseProducts.contains(caseProduct) {
            return caseProduct.product(self)
        }
        // As many as the largest page size lists, so that every product a list showed has its detail.
        let most = fillerCount(itemsPerPage: PageRequest.maximumItemsPerPage, others: 0)
        guard id >= Self.firstFillerID, id - Self.firstFillerID < most else { return nil }
        return filler(Int(id - Self.firstFillerID))
    }

    func filler(_ index: Int) -> Product {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
        let words = ["머그컵", "우산", "키보드", "에코백", "텀블러", "운동화", "책상 조명", "블루투스 스피커", "Notebook", "Desk Fan"]
        let word = words[Int(random.next() % UInt64(words.count))]
        let price = Int64(random.next() % 200 + 1) * 500
        let discount = random.next() % 4 == 0 ? price / 10 : 0
        return product(
            id: Self.firstFillerID + Int64(index), name: "\(word) \(index + 1)",
            description: "연습용 상품 \(index + 1)번이에요.\nA product to practise with.", price: price,
            discount: discount, stock: Int64(random.next() % 30 + 1),
            pictures: [.filler(Int(random.next() % UInt64(RehearsalPicture.fillerCount)))])
    }

    func product(
        id: Int64, name: String, description: String, currency: Currency = .krw, price: Int64, discount: Int64 = 0,
        stock: Int64 = 5, pictures: [RehearsalPicture]
    ) -> Product {
        let shown = Self.listedAt.addingTimeInterval(-Double(id - Self.firstID) * 60)
        return Product(
            id: id, vendor: vendor, name: name, description: description, currency: currency, price: price,
            discount: discount, stock: stock,
            images: pictures.enumerated().map { $1.image(id: id * 10 + Int64($0), at: shown) },
            coverImageID: pictures.isEmpty ? nil : id * 10, createdAt: shown, updatedAt: shown)
    }
}

/// One of a hard case's own products, named by its case and its place among them.
struct HardCaseProduct: Hashable, Sendable {
    let hardCase: HardCase
    let number: Int

    static func all(of hardCase: HardCase) -> [HardCaseProduct] {
        (0..<count(of: hardCase)).map { HardCaseProduct(hardCase: hardCase, number: $0) }
    }

    static func count(of hardCase: HardCase) -> Int {
        switch hardCase {
        case .longText: 2
        case .edgePrices: 6
        case .soldOut: 2
        case .missingPicture, .slowPicture, .hugePicture, .pngPicture, .heicPicture, .vanishing, .noPictures,
            .fivePictures:
            1
        case .empty, .halfLastPage, .thousandPages, .shifting: 0
        }
    }

    init(hardCase: HardCase, number: Int) { (self.hardCase, self.number) = (hardCase, number) }

    init?(id: Int64) {
        guard id >= RehearsedCatalogue.firstID, id < RehearsedCatalogue.firstFillerID else { return nil }
        let offset = id - RehearsedCatalogue.firstID
        let cases = HardCase.allCases
        guard Int(offset / 100) < cases.count, Int(offset % 100) < Self.count(of: cases[Int(offset / 100)]) else {
            return nil
        }
        (hardCase, number) = (cases[Int(offset / 100)], Int(offset % 100))
    }

    var id: Int64 {
        RehearsedCatalogue.firstID + Int64(HardCase.allCases.firstIndex(of: hardCase) ?? 0) * 100 + Int64(number)
    }

    func product(_ catalogue: RehearsedCatalogue) -> Product {
        let plain: [RehearsalPicture] = [.filler(number % RehearsalPicture.fillerCount)]
        func make(
            _ name: String, _ description: String, currency: Currency = .krw, price: Int64 = 12_000,
            discount: Int64 = 0, stock: Int64 = 5, pictures: [RehearsalPicture]? = nil
        ) -> Product {
            catalogue.product(
                id: id, name: name, description: description, currency: currency, price: price, discount: discount,
                stock: stock, pictures: pictures ?? plain)
        }
        switch (hardCase, number) {
        case (.longText, 0):
            return make(Self.longKoreanName, Self.longDescription)
        case (.longText, _):
            return make(Self.unbrokenName, Self.unbrokenDescription)
        case (.edgePrices, 0): return make("무료 나눔 화분", "가격이 0원이에요. Free: the price is 0.", price: 0)
        case (.edgePrices, 1): return make("1원 스티커", "가격이 1원이에요. The price is 1 won.", price: 1)
        case (.edgePrices, 2):
            return make("십억 원 그림", "가격이 10억 원이에요. A billion won.", price: 1_000_000_000, stock: 1)
        case (.edgePrices, 3):
            return make("할인가 0원 쿠폰", "할인이 가격과 같아 0원이에요. The discount is the whole price.", discount: 12_000)
        case (.edgePrices, 4):
            return make(
                "Imported Lamp", "19.99 dollars, listed as 19: both dialects carry whole numbers only.",
                currency: .usd, price: 19, discount: 4)
        case (.edgePrices, _):
            var product = make(
                "계산이 안 맞는 할인", "bargain_price is not price minus discounted_price here.", price: 3500, discount: 100)
            product.statedSalePrice = 3300
            return product
        case (.soldOut, 0): return make("품절된 운동화", "재고가 없어요. Sold out.", stock: 0)
        case (.soldOut, _):
            return make("품절된 할인 상품", "할인 중이지만 재고가 없어요. Discounted and sold out.", discount: 2000, stock: 0)
        case (.missingPicture, _):
            return make("사진이 사라진 상품", "썸네일이 404로 답해요. Its thumbnail answers 404.", pictures: [.missing])
        case (.slowPicture, _):
            return make("사진이 느린 상품", "썸네일이 3초 늦게 와요. Its thumbnail takes 3 seconds.", pictures: [.slow])
        case (.hugePicture, _):
            return make("사진이 아주 큰 상품", "사진이 6000×4000 픽셀이에요. A 6,000-pixel picture.", pictures: [.huge])
        case (.pngPicture, _): return make("PNG 사진 상품", "사진이 PNG예요. Its picture is a PNG.", pictures: [.png])
        case (.heicPicture, _): return make("HEIC 사진 상품", "사진이 HEIC예요. Its picture is a HEIC.", pictures: [.heic])
        case (.vanishing, _):
            return make("곧 사라질 상품", "목록에는 있지만 상세는 404예요. Listed, then gone.")
        case (.noPictures, _): return make("사진 없는 상품", "사진이 하나도 없어요. No pictures at all.", pictures: [])
        case (.fivePictures, _):
            return make(
                "사진 다섯 장 상품", "사진을 넘겨 보세요. Five pictures to swipe.",
                pictures: (0..<5).map { .filler($0) })
        case (.empty, _), (.halfLastPage, _), (.thousandPages, _), (.shifting, _):
            preconditionFailure("the paging cases have no products of their own")
        }
    }

    /// 100 characters, the most a name holds: Korean and emoji. Line breaks are for descriptions: a name holds none.
    static let longKoreanName = String(
        String(repeating: "🎁 아주아주 긴 이름의 한정판 수제 가죽 지갑 ", count: 5).prefix(100))
    static let longDescription = String(
        String(repeating: "손으로 한 땀 한 땀 꿰맨 가죽 지갑이에요 😊 카드 여덟 장과 지폐가 들어가요.\n", count: 40).prefix(1000))
    /// No space to break a line at.
    static let unbrokenName = String(String(repeating: "띄어쓰기없는아주긴상품이름", count: 10).prefix(100))
    static let unbrokenDescription = String(String(repeating: "Supercalifragilistic", count: 50).prefix(1000))
}
