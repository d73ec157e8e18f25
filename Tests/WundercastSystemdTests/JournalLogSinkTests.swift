import Testing
import WundercastSupport
@testable import WundercastSystemd

private func text(_ fields: [(String, [UInt8])]) -> [String] {
    fields.map { $0.0 + "=" + String(decoding: $0.1, as: UTF8.self) }
}

@Test func entryFieldsInOrder() {
    let entry = JournalLogSink.entryFields(
        priority: .error, message: "Fetch failed",
        fields: [
            ("MESSAGE_ID", Array(MessageID.fetchFailed.utf8)),
            ("WUNDERCAST_TEMPERATURE", Array("21.5".utf8)),
        ], file: "WundercastServer/Pipeline.swift", line: 42, identifier: "wundercastd")
    #expect(
        text(entry.fields) == [
            "MESSAGE=Fetch failed",
            "PRIORITY=3",
            "SYSLOG_IDENTIFIER=wundercastd",
            "CODE_FILE=WundercastServer/Pipeline.swift",
            "CODE_LINE=42",
            "MESSAGE_ID=5dafd42733ac4299ad6505b0619d0597",
            "WUNDERCAST_TEMPERATURE=21.5",
        ])
    #expect(entry.notes.isEmpty)
}

@Test(arguments: [(LogPriority.emergency, "0"), (.warning, "4"), (.notice, "5"), (.info, "6"), (.debug, "7")])
func priorityNumbers(priority: LogPriority, number: String) {
    let entry = JournalLogSink.entryFields(
        priority: priority, message: "m", fields: [], file: "F.swift", line: 1, identifier: "x")
    #expect(entry.fields[1].0 == "PRIORITY")
    #expect(entry.fields[1].1 == Array(number.utf8))
}

@Test func messageBytesKeptAsTheyAre() {
    let message = "line one\nline two\u{0}after NUL\n"
    let entry = JournalLogSink.entryFields(
        priority: .info, message: message, fields: [("WUNDERCAST_CONDITION", Array("Rain\nlater".utf8))],
        file: "F.swift", line: 7, identifier: "wundercastd")
    #expect(entry.fields[0].1 == Array(message.utf8))
    let encoded = JournalLogSink.encode(entry.fields)
    #expect(encoded.count == 6)
    #expect(encoded[0] == Array("MESSAGE=".utf8) + Array(message.utf8))
    #expect(encoded[5] == Array("WUNDERCAST_CONDITION=Rain\nlater".utf8))
}

@Test(arguments: [
    ("MESSAGE_ID", JournalFieldName.Verdict.valid),
    ("WUNDERCAST_TEMPERATURE", .valid),
    ("A1_2", .valid),
    (String(repeating: "X", count: 64), .valid),
    ("wundercast_temperature", .renamed("WUNDERCAST_TEMPERATURE")),
    ("Wundercast.Wind-Speed", .renamed("WUNDERCAST_WIND_SPEED")),
    ("city name", .renamed("CITY_NAME")),
    ("é", .dropped),  // would become "_", a trusted-field name
    ("_PID", .dropped),
    ("__CURSOR", .dropped),
    ("1ST", .dropped),
    ("", .dropped),
    (String(repeating: "X", count: 65), .dropped),
])
func fieldNames(name: String, verdict: JournalFieldName.Verdict) {
    #expect(JournalFieldName.check(name) == verdict)
    #expect(JournalFieldName.isValid(name) == (verdict == .valid))
}

@Test func invalidNamesAreFixedOrDroppedWithNotes() {
    let entry = JournalLogSink.entryFields(
        priority: .info, message: "m",
        fields: [
            ("wundercast_humidity", Array("80".utf8)),
            ("_PID", Array("1".utf8)),
            ("PRIORITY", Array("0".utf8)),
            ("message", Array("other".utf8)),
            ("WUNDERCAST_OK", Array("yes".utf8)),
        ], file: "F.swift", line: 1, identifier: "wundercastd")
    #expect(Array(text(entry.fields).dropFirst(5)) == ["WUNDERCAST_HUMIDITY=80", "WUNDERCAST_OK=yes"])
    #expect(entry.fields.filter { $0.0 == "PRIORITY" }.count == 1)
    #expect(entry.fields.filter { $0.0 == "MESSAGE" }.count == 1)
    #expect(
        entry.notes == [
            "\"wundercast_humidity\" renamed WUNDERCAST_HUMIDITY",
            "\"_PID\" dropped",
            "\"PRIORITY\" dropped (set by the sink)",
            "\"message\" dropped (set by the sink)",
        ])
}

@Test func codeFuncFollowsCodeLineAndCannotBeSetByACaller() {
    let entry = JournalLogSink.entryFields(
        priority: .info, message: "m", fields: [("CODE_FUNC", Array("forged()".utf8))],
        file: "WundercastServer/Publisher.swift", line: 9, function: "run()", identifier: "wundercastd")
    #expect(
        Array(text(entry.fields).prefix(6))[3...] == [
            "CODE_FILE=WundercastServer/Publisher.swift", "CODE_LINE=9", "CODE_FUNC=run()",
        ])
    #expect(entry.fields.filter { $0.0 == "CODE_FUNC" }.count == 1)
    #expect(entry.notes == ["\"CODE_FUNC\" dropped (set by the sink)"])
    // Unknown (a caller of `write` that does not say): left out, not empty.
    let unknown = JournalLogSink.entryFields(
        priority: .info, message: "m", fields: [], file: "F.swift", line: 1, identifier: "x")
    #expect(!unknown.fields.contains { $0.0 == "CODE_FUNC" })
}
