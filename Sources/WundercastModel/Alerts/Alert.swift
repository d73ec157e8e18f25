#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport

/// One official warning, in the CAP common core (OASIS CAP 1.2), as an authority issued it and a
/// source (``AlertSourceID``) relayed it. Nothing here is derived from weather values: a value the
/// source did not give is absent, never guessed.
///
/// Every text comes from outside and passes ``AlertText/clean(_:limit:)`` in the decoder (HTML
/// tags and entities removed, control characters turned to spaces, bounded).
public struct Alert: Sendable, Equatable, Codable {
    /// CAP `severity`, most severe first (`Comparable`: `extreme` < `severe` < … sorts the most
    /// severe first).
    public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
        case extreme = "Extreme"
        case severe = "Severe"
        case moderate = "Moderate"
        case minor = "Minor"
        case unknown = "Unknown"

        /// CAP's value, case-insensitively; `nil` for anything else.
        public init?(cap text: String) {
            guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                return nil
            }
            self = value
        }

        public static func < (a: Self, b: Self) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// CAP `urgency`.
    public enum Urgency: String, Sendable, Codable, CaseIterable {
        case immediate = "Immediate", expected = "Expected", future = "Future", past = "Past", unknown = "Unknown"

        public init?(cap text: String) {
            guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                return nil
            }
            self = value
        }
    }

    /// CAP `certainty` (`Very Likely`, deprecated in CAP 1.1, reads as `likely`).
    public enum Certainty: String, Sendable, Codable, CaseIterable {
        case observed = "Observed", likely = "Likely", possible = "Possible", unlikely = "Unlikely"
        case unknown = "Unknown"

        public init?(cap text: String) {
            if text.lowercased() == "very likely" {
                self = .likely
                return
            }
            guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                return nil
            }
            self = value
        }
    }

    /// CAP `msgType`: a new alert, an update of earlier ones (``references``), or their
    /// cancellation.
    public enum MessageType: String, Sendable, Codable, CaseIterable {
        case alert = "Alert", update = "Update", cancel = "Cancel"

        public init?(cap text: String) {
            guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                return nil
            }
            self = value
        }
    }

    /// The source's identifier of this message (CAP `identifier`; NWS's `id` URN, MetAlerts'
    /// `id`, Bright Sky's `alert_id`, ECCC's `id`). Unique within its source.
    public var id: String
    /// Who relayed it.
    public var source: AlertSourceID
    /// Who issued it (CAP `senderName`: `NWS Anchorage AK`, `Meteorologisk institutt`,
    /// `Deutscher Wetterdienst`, `Environment and Climate Change Canada`).
    public var authority: String
    /// What the alert is about (CAP `event`: `Winter Storm Warning`, `Gale`, `STURMBÖEN`).
    public var event: String
    /// CAP severity as the source gave it; ``Severity/unknown`` when it gave none (ECCC).
    public var severity: Severity
    /// The authority's own level as given (MetAlerts' `awareness_level` `2; yellow; Moderate`,
    /// ECCC's `warning`/`watch`/`advisory`/`statement`), when it has one.
    public var level: String?
    public var urgency: Urgency?
    public var certainty: Certainty?
    public var messageType: MessageType
    /// Identifiers of the messages this one updates or cancels (CAP `references`, the
    /// identifier part of each `sender,identifier,sent` triple).
    public var references: [String]
    /// When it was sent (CAP `sent`).
    public var sent: Date?
    /// When the hazard begins (CAP `onset`, else `effective`).
    public var onset: Date?
    /// When the alert stops being in force (CAP `expires`); it drops out then, fetched again or not.
    public var expires: Date?
    /// One line (CAP `headline`), at most 200 characters.
    public var headline: String?
    /// The text (CAP `description`), at most 4,000 characters.
    public var description: String?
    /// What to do (CAP `instruction`), at most 2,000 characters.
    public var instruction: String?
    /// The area, as the authority names it (CAP `areaDesc`), at most 500 characters.
    public var areaDescription: String?
    /// Where to read more (CAP `web`), an `http(s)` URL.
    public var link: String?
    /// RFC 5646 tag of the texts (CAP `language`: `en-US`, `no`, `de-DE`).
    public var language: String?

    public init(
        id: String, source: AlertSourceID, authority: String, event: String, severity: Severity,
        level: String? = nil, urgency: Urgency? = nil, certainty: Certainty? = nil,
        messageType: MessageType = .alert, references: [String] = [], sent: Date? = nil, onset: Date? = nil,
        expires: Date? = nil, headline: String? = nil, description: String? = nil, instruction: String? = nil,
        areaDescription: String? = nil, link: String? = nil, language: String? = nil
    ) {
        self.id = id
        self.source = source
        self.authority = authority
        self.event = event
        self.severity = severity
        self.level = level
        self.urgency = urgency
        self.certainty = certainty
        self.messageType = messageType
        self.references = references
        self.sent = sent
        self.onset = onset
        self.expires = expires
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.areaDescription = areaDescription
        self.link = link
        self.language = language
    }

    /// The bounds of each text, in Unicode scalars.
    public enum Limit {
        public static let id = 200
        public static let authority = 100
        public static let event = 100
        public static let level = 60
        public static let headline = 200
        public static let description = 4_000
        public static let instruction = 2_000
        public static let areaDescription = 500
        public static let link = 500
        public static let language = 35
    }
}
