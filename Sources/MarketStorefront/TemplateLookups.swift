// What each value the templates show calls its parts. A template looks a name up here, from the
// innermost section out; a part that is nil is not there, and the template looks further out.

extension LanguageLink: TemplateObject {
    func value(named name: String) -> TemplateValue? {
        switch name {
        case "language": .text(language)
        case "name": .text(self.name)
        case "url": .text(url)
        default: nil
        }
    }
}

extension PriceTag: TemplateObject {
    func value(named name: String) -> TemplateValue? {
        switch name {
        case "price": .text(price)
        case "salePrice": salePrice.map(TemplateValue.text)
        case "stock": .text(stock)
        case "soldOut": .flag(soldOut)
        default: nil
        }
    }
}

extension ProductCard: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "id": .number(id)
        case "name": .text(name)
        case "thumbnail": .text(thumbnail)
        case "tag": .object(tag)
        default: nil
        }
    }
}

extension ProductSheet: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "id": .number(id)
        case "name": .text(name)
        case "vendor": .text(vendor)
        case "description": description.map(TemplateValue.text)
        case "tag": .object(tag)
        case "photos": .objects(photos)
        case "hasSeveralPhotos": .flag(hasSeveralPhotos)
        case "isOwner": .flag(isOwner)
        case "carouselLabel": .text(carouselLabel)
        case "deleteQuestion": .text(deleteQuestion)
        default: nil
        }
    }
}

extension ProductSheet.Photo: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "number": .number(number)
        case "count": .number(count)
        case "url": .text(url)
        case "width": .number(width)
        case "height": .number(height)
        case "isFirst": .flag(isFirst)
        case "srcset": srcset.map(TemplateValue.text)
        case "webpSrcset": webpSrcset.map(TemplateValue.text)
        case "alt": .text(alt)
        case "position": .text(position)
        case "dotLabel": .text(dotLabel)
        default: nil
        }
    }
}

extension ProductFormPage: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "action": .text(action)
        case "isEdit": .flag(isEdit)
        case "heading": .text(heading)
        case "cancel": .text(cancel)
        case "name": .object(name)
        case "description": .object(description)
        case "price": .object(price)
        case "discount": .object(discount)
        case "stock": .object(stock)
        case "currency": .object(currency)
        case "images": .object(images)
        case "currencies": .objects(currencies)
        case "buyerPays": .text(buyerPays)
        case "currentPhotos": .objects(currentPhotos)
        case "photosHint": .text(photosHint)
        case "descriptionCount": .number(descriptionCount)
        case "descriptionLimit": .number(descriptionLimit)
        case "imageLimit": .number(imageLimit)
        case "formError": formError.map(TemplateValue.text)
        case "sending": .text(sending)
        default: nil
        }
    }
}

extension ProductFormPage.Field: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "id": .text(id)
        case "label": .text(label)
        case "hint": hint.map(TemplateValue.text)
        case "required": .flag(required)
        case "isNumber": .flag(isNumber)
        case "value": .text(value)
        case "original": .text(original)
        case "error": error.map(TemplateValue.text)
        case "changed": .flag(changed)
        default: nil
        }
    }
}

extension ProductFormPage.Thumbnail: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "url": .text(url)
        case "alt": .text(alt)
        default: nil
        }
    }
}

extension ProductFormPage.CurrencyOption: TemplateObject {
    func value(named key: String) -> TemplateValue? {
        switch key {
        case "code": .text(code)
        case "selected": .flag(selected)
        default: nil
        }
    }
}
