#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastFormats

/// `around`, `status`, `refresh`, `authorize` and `version`: one request, one answer, shown as
/// plain text or (json) the object as received. Exit status 0 when answered, else 1.
enum InfoCommands {
    /// `around [PLACE|LAT,LON] [STEP]`: the 3×3 grid (``AroundFormat``).
    static func around(_ context: CommandContext, line: String) -> Int32 {
        answer(context, line, as: SocketProtocol.AroundResponse.self, expected: "AROUND") {
            AroundFormat.text($0, icons: context.invocation.icons, locale: context.locale)
        }
    }

    /// `alerts`: the `alerts` member of the current state (asked with `now`), in full
    /// (``AlertsFormat``); json: the member as the daemon sent it (`null` while alerts are off).
    static func alerts(_ context: CommandContext) -> Int32 {
        do {
            let answer = try context.ask("now")
            let state = try Answer.decode(answer, as: WeatherState.self, expected: "WEATHER")
            if context.format == .json {
                // The member as decoded, in the protocol's form (ISO 8601 instants, sorted keys).
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let member = state.alerts.flatMap { try? encoder.encode($0) } ?? Data("null".utf8)
                Output.write(RawJSONLine.text(member) + "\n")
            } else {
                Output.write(AlertsFormat.text(state.alerts, now: Date(), locale: context.locale))
            }
            return 0
        } catch {
            return context.fail(error)
        }
    }

    /// `status`: several human lines (``StatusFormat``).
    static func status(_ context: CommandContext, line: String) -> Int32 {
        answer(context, line, as: SocketProtocol.StatusResponse.self, expected: "STATUS") {
            StatusFormat.text($0, now: Date(), locale: context.locale)
        }
    }

    /// `refresh`: the daemon's acknowledgement (any object with a `class` but `ERROR`).
    static func refresh(_ context: CommandContext, line: String) -> Int32 {
        do {
            let answer = try context.ask(line)
            guard let probe = try? Answer.decoder.decode(RefusalProbe.self, from: Data(answer)), probe.class != nil
            else {
                throw CtlError.unreadable("unreadable answer from wundercastd: \(Answer.shown(answer))")
            }
            if probe.class == "ERROR" {
                throw CtlError.refused(code: probe.code ?? "unknown", message: probe.message ?? "no message")
            }
            Output.write(
                context.format == .json
                    ? RawJSONLine.text(answer) + "\n" : context.locale.tr("refresh requested") + "\n")
            return 0
        } catch let error as CtlError {
            return context.fail(error)
        } catch {
            return context.fail(.unreadable("\(error)"))
        }
    }

    private struct RefusalProbe: Decodable {
        var `class`: String?
        var code: String?
        var message: String?
    }

    /// `authorize [STATUS]`: `GPS authorization: always`.
    static func authorize(_ context: CommandContext, line: String) -> Int32 {
        answer(context, line, as: SocketProtocol.AuthorizationResponse.self, expected: "AUTHORIZATION") {
            context.locale.tr("GPS authorization: {status}", ["status": $0.status.configName]) + "\n"
        }
    }

    /// `version`: both versions and the protocol revision. When the daemon does not answer, this
    /// program's version all the same, and that the daemon's is not known (exit status 1).
    static func version(_ context: CommandContext, line: String) -> Int32 {
        do {
            let answer = try context.ask(line)
            let value = try Answer.decode(answer, as: SocketProtocol.VersionResponse.self, expected: "VERSION")
            Output.write(
                context.format == .json
                    ? RawJSONLine.text(answer) + "\n"
                    : "wundercastctl \(Wundercast.version), "
                        + context.locale.tr(
                            "wundercastd {release} (protocol {protocol})",
                            [
                                "release": UntrustedText.sanitized(value.release, limit: 40),
                                "protocol": String(value.proto),
                            ])
                        + "\n"
            )
            return 0
        } catch {
            if context.format != .json {
                Output.write("wundercastctl \(Wundercast.version), " + context.locale.tr("wundercastd unknown") + "\n")
            }
            return context.fail(error)
        }
    }

    private static func answer<T: Decodable>(
        _ context: CommandContext, _ line: String, as type: T.Type, expected: String, plain: (T) -> String
    ) -> Int32 {
        do {
            let answer = try context.ask(line)
            let value = try Answer.decode(answer, as: type, expected: expected)
            Output.write(context.format == .json ? RawJSONLine.text(answer) + "\n" : plain(value))
            return 0
        } catch {
            return context.fail(error)
        }
    }
}
