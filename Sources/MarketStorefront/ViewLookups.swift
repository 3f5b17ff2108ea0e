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

extension ProductFormPage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "action": action
        case "isEdit": isEdit
        case "heading": heading
        case "cancel": cancel
        case "name": name
        case "description": description
        case "price": price
        case "discount": discount
        case "stock": stock
        case "currency": currency
        case "images": images
        case "currencies": currencies
        case "buyerPays": buyerPays
        case "currentPhotos": currentPhotos
        case "photosHint": photosHint
        case "descriptionCount": descriptionCount
        case "descriptionLimit": descriptionLimit
        case "imageLimit": imageLimit
        case "formError": formError
        case "sending": sending
        default: nil
        }
    }
}

extension ProductFormPage.Field: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": id
        case "label": label
        case "hint": hint
        case "required": required
        case "isNumber": isNumber
        case "value": value
        case "original": original
        case "error": error
        case "changed": changed
        default: nil
        }
    }
}

extension ProductFormPage.Thumbnail: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "url": url
        case "alt": alt
        default: nil
        }
    }
}

extension ProductFormPage.CurrencyOption: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "code": code
        case "selected": selected
        default: nil
        }
    }
}
