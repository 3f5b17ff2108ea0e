import Hummingbird
import MarketCore
import MarketModel

/// How one door (an API dialect) writes the names of the market's fields.
package typealias FieldSpelling = @Sendable (MarketField) -> String

/// A refusal as one door says it: the field, and the message that names it, in that door's spelling.
package struct SpelledRefusal: Error {
    package var error: MarketError
    package var message: String
    package var field: String?

    package init(_ error: MarketError, fieldName: FieldSpelling) {
        self.error = error
        message = error.message(naming: fieldName)
        field = error.field.map(fieldName)
    }
}

/// Spells the market's refusals in one door's names before `APIErrorMiddleware` answers them.
package struct FieldSpellingMiddleware<Context: RequestContext>: RouterMiddleware {
    let fieldName: FieldSpelling

    package init(_ fieldName: @escaping FieldSpelling) {
        self.fieldName = fieldName
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as MarketError {
            throw SpelledRefusal(error, fieldName: fieldName)
        }
    }
}
