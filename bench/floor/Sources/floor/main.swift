import Foundation
import Hummingbird

// floor PORT FILE CONTENT-TYPE [ETAG]: answers every GET with FILE's bytes, or with 304 when the
// request's If-None-Match names ETAG (the revalidated row).
let arguments = CommandLine.arguments
guard arguments.count >= 4, let port = Int(arguments[1]), let bytes = FileManager.default.contents(atPath: arguments[2])
else {
    FileHandle.standardError.write(Data("usage: floor PORT FILE CONTENT-TYPE [ETAG]\n".utf8))
    exit(2)
}
let body = ByteBuffer(bytes: bytes)
var headers: HTTPFields = [.contentType: arguments[3]]
let tag = arguments.count > 4 ? arguments[4] : nil
if let tag { headers[.eTag] = tag }
let fields = headers

let router = Router()
router.get("**") { request, _ in
    if let tag, request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: fields) }
    return Response(status: .ok, headers: fields, body: .init(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
