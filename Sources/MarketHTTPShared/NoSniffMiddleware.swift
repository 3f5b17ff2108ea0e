import HTTPTypes
import Hummingbird

/// Tells browsers to take every answer as the type it says it is (`X-Content-Type-Options:
/// nosniff`): JSON, pictures, assets, pages and errors alike, so that no answer is ever run as a
/// script or shown as a page it is not.
package struct NoSniffMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
