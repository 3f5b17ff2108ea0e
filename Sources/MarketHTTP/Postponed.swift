import NIOCore

/// What a connection's handler was asked to do while it waited for the catalogue's version (read
/// more, close), done once it stops waiting: nothing more is read, and nothing closes, before the
/// answer it waited for has gone.
struct Postponed {
    private var readWanted = false
    private var closeWanted: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    mutating func read() { readWanted = true }

    mutating func close(mode: CloseMode, promise: EventLoopPromise<Void>?) { closeWanted = (mode, promise) }

    mutating func resume(context: ChannelHandlerContext) {
        if readWanted {
            readWanted = false
            context.read()
        }
        if let close = closeWanted {
            closeWanted = nil
            context.close(mode: close.mode, promise: close.promise)
        }
    }
}
