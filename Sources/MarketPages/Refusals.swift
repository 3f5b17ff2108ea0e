import MarketCore
import MarketModel

/// The market's refusals in the visitor's language, from their typed reasons, numbers grouped.
extension Localization {
    package func refusal(_ error: MarketError) -> String {
        switch error.reason {
        case .rule(let broken): rule(broken, field: error.field ?? .sent(""))
        case let reason: Self.sentence(said(reason))
        }
    }

    /// A reason that is a whole sentence, in this language.
    package func said(_ reason: MarketError.Reason) -> String {
        switch reason {
        case .rule(let rule): said(rule, field: .sent(""))
        case .noProduct(let id): self("noProductWithID", ["id": String(id)])
        case .noProductCalled(let text): self("noProductWithID", ["id": text])
        case .hiddenByOperator(let id): self("hiddenByOperator", ["id": String(id)])
        case .notOwner(let id): self("notYourProduct", ["id": String(id)])
        case .wrongCredentials: self("wrongCredentials")
        case .wrongItemPassword: self("wrongItemPassword")
        case .throttled(let seconds, let cause, let failures):
            self(
                cause.map { "tooManyGuesses.\($0.rawValue)" } ?? "tooManyGuesses",
                ["seconds": Self.grouped(Int64(seconds)), "failures": String(failures ?? 0)])
        case .sessionEnded: self("sessionEnded")
        case .noVendor(let identifier): self("noVendorWithIdentifier", ["identifier": identifier])
        case .noTeam(let id): self("noTeamAtAddress", ["path": TeamAddress.path(of: id)])
        case .vendorIDTaken(let id): self("vendorIDTaken", ["id": String(id)])
        case .vendorIdentifierTaken(let identifier): self("vendorIdentifierTaken", ["identifier": identifier])
        case .operatorTaken(let name): self("operatorTaken", ["name": name])
        case .noPage(let text): self("noPage", ["page": text])
        case .noImage(let key): self("noImage", ["key": key])
        case .bodyTooLarge(let bytes): self("bodyTooLarge", ["bytes": Self.grouped(Int64(bytes))])
        case .noBoundary(let boundary): self("multipartNoBoundary", ["boundary": boundary])
        case .lineBreaksReversed: self("multipartLineBreaksReversed")
        case .createTakesMultipart: self("createTakesMultipart")
        case .itemsTakeMultipart: self("itemsTakeMultipart")
        case .databaseUnreachable: self("databaseUnreachable")
        case .databaseReadOnly: self("databaseReadOnly")
        case .imagesNotWritable: self("imagesNotWritable")
        case .notFaultsJSON:
            self(
                "notFaultsJSON",
                ["example": #"{"latency_ms":800,"jitter_ms":400,"fail_percent":10,"status":503,"seed":7}"#])
        case .tooManyUploads: self("tooManyUploads")
        case .tooManyPictures: self("tooManyPictures")
        case .tooManyFollowers(let count): self("tooManyFollowers", ["count": String(count)])
        }
    }

    /// What is wrong with `field`, as a sentence: "Discount must not be more than the price (15,000)".
    package func rule(_ rule: Rule, field: MarketField) -> String { Self.sentence(said(rule, field: field)) }

    /// What is wrong with `field`, its name as it is: "discounted_price: 가격(15,000)보다 클 수 없습니다".
    package func said(_ rule: Rule, field: MarketField) -> String {
        let number = { (value: Int) in Self.grouped(Int64(value)) }
        let (key, values): (String, [String: String]) =
            switch rule {
            case .required: ("rule.required", [:])
            case .notEmpty: ("rule.empty", [:])
            case .noControlCharacter(let character): ("rule.control", ["character": character])
            case .maximumCharacters(let limit): ("rule.maxCharacters", ["limit": number(limit)])
            case .notNegative: ("rule.notNegative", [:])
            case .atLeastOne: ("rule.atLeastOne", [:])
            case .atMost(let limit): ("rule.atMost", ["limit": Self.grouped(limit)])
            case .notAbovePrice(let price): ("rule.notMoreThanPrice", ["price": Self.grouped(price)])
            case .between(let low, let high, let unit):
                ("rule.range", ["low": number(low), "high": number(high), "unit": unit])
            case .upToLatency(let latency): ("rule.upToLatency", ["latency": number(latency)])
            case .errorStatus: ("rule.errorStatus", [:])
            case .minimumImages(let count): ("rule.atLeastImages", ["count": number(count)])
            case .maximumImages(let count): ("rule.atMostImages", ["count": number(count)])
            case .ownImage: ("rule.ownImage", [:])
            case .uuid(let example): ("rule.uuid", ["example": example])
            case .minimumLength(let length): ("rule.minimumLength", ["length": number(length)])
            case .maximumBytes(let bytes): ("rule.maximumBytes", ["bytes": number(bytes)])
            case .deleteSecret: ("rule.deleteSecret", [:])
            case .jsonObject: ("rule.jsonObject", [:])
            case .notJSON(let problem, let byte): ("rule.notJSON", ["problem": problem, "byte": number(byte)])
            case .text: ("rule.text", [:])
            case .number: ("rule.number", [:])
            case .numberNot(let sent): ("rule.numberNot", ["sent": sent])
            case .wholeNumber: ("rule.wholeNumber", [:])
            case .wholeNumberNot(let sent): ("rule.wholeNumberNot", ["sent": sent])
            case .wholeNumberFromZero: ("rule.wholeNumberFromZero", [:])
            case .oneOf(let spellings): ("rule.oneOf", ["allowed": spellings.joined(separator: "/")])
            case .nameAmong(let names, let sent), .brokenKindAmong(let names, let sent):
                ("rule.nameAmong", ["allowed": names.joined(separator: ", "), "sent": sent])
            case .sameItem(let named, let path): ("rule.sameItem", ["named": String(named), "path": String(path)])
            case .imageBytes(let size, let limit):
                ("rule.imageBytes", ["size": Self.megabytes(size), "limit": String(limit / 1_048_576)])
            case .notAnImage: ("rule.notAnImage", [:])
            case .heicUnreadable: ("rule.heicUnreadable", [:])
            case .damaged: ("rule.damaged", [:])
            case .tooManyPixels(_, let limit): ("rule.tooManyPixels", ["limit": number(limit)])
            case .notReencoded: ("rule.notReencoded", [:])
            case .unreadable: ("rule.unreadable", [:])
            }
        var filled = values
        filled["field"] = name(of: field)
        return self(key, filled)
    }

    /// A field as the storefront's forms name it: "photo 2", "사진 2".
    package func name(of field: MarketField) -> String {
        if case .image(let index) = field { return self("field.image", ["number": String(index + 1)]) }
        return Self.fieldPhrases[field].map { self($0) } ?? field.description
    }

    private static let fieldPhrases: [MarketField: String] = [
        .name: "field.name", .description: "field.description", .price: "field.price", .discount: "field.discount",
        .stock: "field.stock", .currency: "field.currency", .images: "field.images", .thumbnail: "field.thumbnail",
        .secret: "field.secret", .productSecret: "field.secret", .latency: "field.latency", .jitter: "field.jitter",
        .failPercent: "field.failPercent", .failStatus: "field.failStatus", .dropPercent: "field.dropPercent",
        .slowBody: "field.slowBody", .brokenPercent: "field.brokenPercent", .brokenKinds: "field.brokenKinds",
        .hardCases: "field.hardCases",
        .sent("vendor-id"): "field.vendorID",
    ]

    /// A message that begins like a sentence.
    package static func sentence(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}

extension Localization {
    /// An operator's act in this language: "teacher hid product 7 “Lamp”" or "teacher님이 7번 상품 “Lamp”을 숨겼습니다".
    package func logEntry(by who: String, _ act: OperatorAction.Act) -> String {
        switch act {
        case .registeredVendor(let name, let id): self("log.registered", ["who": who, "name": name, "id": String(id)])
        case .gaveNewSecret(let identifier): self("log.rekeyed", ["who": who, "identifier": identifier])
        case .removedProduct(let id, let name, let vendor):
            self("log.removed", ["who": who, "id": String(id), "name": name, "vendor": vendor])
        case .hidProduct(let id, let name): self("log.hid", ["who": who, "id": String(id), "name": name])
        case .showedProduct(let id, let name): self("log.showed", ["who": who, "id": String(id), "name": name])
        case .emptiedMarket(let products): self("log.emptied", ["who": who, "count": String(products)])
        case .filledMarket(let products): self("log.filled", ["who": who, "count": String(products)])
        case .rehearsedForEveryTeam(let faults): self("log.rehearsed", ["who": who, "faults": describe(faults)])
        case .endedRehearsalForEveryTeam: self("log.rehearsalEnded", ["who": who])
        case .said(let text): "\(who) \(text)"
        }
    }
}
