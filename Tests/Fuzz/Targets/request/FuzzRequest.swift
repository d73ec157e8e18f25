import WundercastProtocol

/// libFuzzer entry: the input is what a client writes to the socket; each line (at most
/// ``SocketProtocol/maxRequestLength`` bytes, as the server reads them) is decoded as the
/// server does (`SocketServer.handle(line:from:)`: UTF-8 or refused) and parsed. A refusal must
/// answer in one line of JSON: exactly one newline, at its end, and no control character.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        guard raw.count <= SocketProtocol.maxRequestLength, let line = String(validating: raw, as: UTF8.self)
        else { continue }
        do {
            _ = try SocketProtocol.parse(line)
        } catch {
            let answer = SocketProtocol.line(SocketProtocol.ErrorResponse(error))
            guard answer.last == UInt8(ascii: "\n"), !answer.dropLast().contains(where: { $0 < 0x20 || $0 == 0x7F })
            else { fatalError("the answer to a refused request is not one line of JSON: \(answer)") }
        }
    }
    return 0
}
