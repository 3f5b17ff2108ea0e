import Mustache

// Template values name their parts, so that swift-mustache finds them without reflecting (`Mirror`)
// at every look-up. A nil part is not there, and the template looks further out.

extension PriceTag: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "price": price
        case "salePrice": salePrice
        case "stock": stock
        case "soldOut": soldOut
        default: nil
        }
    }
}

extension ProductSheet: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "name": name
        case "vendor": vendor
        case "description": description
        case "tag": tag
        case "photos": photos
        case "hasSeveralPhotos": hasSeveralPhotos
        case "isOwner": isOwner
        case "carouselLabel": carouselLabel
        case "deleteQuestion": deleteQuestion
        default: nil
        }
    }
}

extension ProductSheet.Photo: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "number": number
        case "count": count
        case "url": url
        case "width": width
        case "height": height
        case "isFirst": isFirst
        case "srcset": srcset
        case "webpSrcset": webpSrcset
        case "alt": alt
        case "position": position
        case "dotLabel": dotLabel
        default: nil
        }
    }
}
