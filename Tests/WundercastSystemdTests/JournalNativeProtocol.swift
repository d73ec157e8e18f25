import Testing
import WundercastTestSupport

// `parseNativeEntry` lives in WundercastTestSupport (the daemon's journal tests read the
// same datagrams); its test stays here, beside the sink that writes the protocol.

@Test func nativeProtocolParser() throws {
    let datagram = Array("MESSAGE\n".utf8) + [5, 0, 0, 0, 0, 0, 0, 0] + Array("a\nb\0c\nPRIORITY=6\n".utf8)
    let fields = try #require(parseNativeEntry(datagram))
    #expect(fields.map(\.0) == ["MESSAGE", "PRIORITY"])
    #expect(fields[0].1 == Array("a\nb\0c".utf8))
    #expect(fields[1].1 == Array("6".utf8))
    #expect(parseNativeEntry(Array("MESSAGE\n".utf8) + [9, 0, 0, 0, 0, 0, 0, 0] + Array("ab\n".utf8)) == nil)
    #expect(parseNativeEntry(Array("MESSAGE=no newline".utf8)) == nil)
}
