import MarketHTTPShared
import Mustache

// The templates find a value by name. Without these lookups the renderer reflects on the value with
// `Mirror` for every name in every card, which made the catalogue page four times slower than the
// API's list of the same products (bench/run).

extension PriceTag: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "price": price
        case "salePrice": salePrice
        case "stock": stock
        case "soldOut": soldOut
        default: nil
        }
    }
}

extension ProductCard: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "name": name
        case "thumbnail": thumbnail
        case "tag": tag
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
