import WundercastProtocol
import WundercastPOSIX

/// The reading side of a connection: request lines out of the bytes that arrive.
extension SocketClient {
    func readAvailable() {
        let scratch = server.scratch
        while !closed && !inputEnded && !holding {
            let n: Int
            do {
                guard case .done(let received) = try StreamIO.receive(fd, into: scratch) else { return }
                n = received
            } catch {
                self.close()  // ECONNRESET: the client left.
                return
            }
            if n == 0 {
                endOfInput()
                return
            }
            consume(UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
            // Less than a full buffer: the socket is drained (the source fires again for more).
            if n < scratch.count { return }
        }
    }

    /// Splits `chunk` into lines and handles each; a partial line waits in `input`, and so does
    /// all that follows a request whose answer the next ones wait for (``holdInput()``).
    private func consume(_ chunk: UnsafeRawBufferPointer) {
        var start = 0
        if holding {
            input.append(contentsOf: chunk)
            return
        }
        if !input.isEmpty {
            guard let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) else {
                input.append(contentsOf: chunk)
                if input.count > SocketProtocol.maxRequestLength { refuseLongLine() }
                return
            }
            input.append(contentsOf: chunk[0..<newline])
            let line = input
            input.removeAll(keepingCapacity: true)
            line.withUnsafeBytes { handle(line: $0) }
            start = newline + 1
        }
        while start < chunk.count && !closed && !inputEnded {
            if holding {
                input.append(contentsOf: chunk[start...])
                return
            }
            guard let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                input.append(contentsOf: chunk[start...])
                if input.count > SocketProtocol.maxRequestLength { refuseLongLine() }
                return
            }
            handle(line: UnsafeRawBufferPointer(rebasing: chunk[start..<newline]))
            start = newline + 1
        }
    }

    private func handle(line: UnsafeRawBufferPointer) {
        guard line.count <= SocketProtocol.maxRequestLength else {
            refuseLongLine()
            return
        }
        idleDeadline = nil
        server.handle(line: line, from: self)
    }

    /// The end of input also ends a last line: `printf now | socat …` is answered. A client
    /// gone entirely (POLLHUP) leaves now, so that a watcher that quit stops counting at once
    /// (when-in-use); one only half-closed (`echo now | socat`) is answered first, and a
    /// half-closed watcher stays until a write to it fails.
    private func endOfInput() {
        if !input.isEmpty {
            let line = input
            input.removeAll()
            line.withUnsafeBytes { handle(line: $0) }
            if closed { return }
        }
        stopReading()
        if StreamIO.isHungUp(fd) { self.close() } else { closeIfDone() }
    }

    /// Later requests wait: nothing more is read (the socket's own buffer holds what comes)
    /// until ``releaseInput()``.
    func holdInput() {
        holding = true
        if !inputEnded { wait(for: interest.subtracting(.readable)) }
    }

    /// The held request was answered: the lines that waited are handled, then reading goes on.
    func releaseInput() {
        guard holding else { return }
        holding = false
        if !input.isEmpty {
            let waiting = input
            input.removeAll(keepingCapacity: true)
            waiting.withUnsafeBytes { consume($0) }
        }
        if !closed && !inputEnded && !holding { wait(for: interest.union(.readable)) }
    }

    func stopReading() {
        inputEnded = true
        wait(for: interest.subtracting(.readable))
    }

    private func refuseLongLine() {
        input.removeAll()
        end(
            with: SocketProtocol.line(
                SocketProtocol.ErrorResponse(
                    .tooLong, message: "request longer than \(SocketProtocol.maxRequestLength) bytes")))
    }
}
