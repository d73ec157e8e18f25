#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCurl
import Dispatch
import Synchronization
import WundercastCore

/// ``HTTPClient`` over libcurl (Debian's libcurl 7.88): one easy handle per request, driven on a
/// dispatch thread, never on Swift's cooperative pool.
///
/// Each GET follows up to 5 redirects (http/https only), accepts gzip, sends ``userAgent``
/// (libcurl sends none by default; PITFALLS) and returns any HTTP status. Response header names
/// are lower-cased and belong to the final response after redirects.
///
/// Cancelling the calling task aborts the transfer at once and throws ``WeatherError/cancelled``.
/// Error messages never contain a URL's query string (an `appid` must never reach a log):
/// libcurl's texts (its error buffer can quote the URL) lose every query whole, also one that
/// the 256-byte buffer already cut (``redactingQueries(_:)``). Secrets themselves are redacted
/// by the provider that holds them, from everything this client returns or throws
/// (``WundercastCore/RedactingHTTPClient``).
///
/// Failures, each its own kind (``FailureKind``): libcurl's `CURLcode` in
/// ``WeatherError/transport(code:message:)`` (DNS, connect, timeout, TLS, a body cut short —
/// `CURLE_PARTIAL_FILE` when the connection ends before `Content-Length` bytes or the last
/// chunk), and ``WeatherError/tooLarge(limit:)`` for a body over ``maxBodySize``: refused before
/// the transfer when `Content-Length` says so (`CURLOPT_MAXFILESIZE_LARGE`), else aborted in the
/// write callback the moment it grows past it, so at most ``maxBodySize`` bytes are ever held.
/// Response headers are bounded too (``maxHeaderBytes``).
///
/// ``HTTPResponse/retryAfter`` is filled from `Retry-After` in both RFC 9110 forms: delta-seconds,
/// or an HTTP-date read by libcurl's `curl_getdate` and counted from the moment the answer arrived;
/// ``HTTPResponse/date``, ``HTTPResponse/expires`` and ``HTTPResponse/lastModified`` from their
/// headers with `curl_getdate`.
public final class CurlHTTPClient: HTTPClient, Sendable {
    /// Sent as `User-Agent` with every request, e.g. `wundercast/0.1 (+https://…)`.
    public let userAgent: String
    /// Time allowed to connect (TCP + TLS).
    public let connectTimeout: Duration
    /// Time allowed for the whole transfer, redirects included.
    public let timeout: Duration
    /// Largest body accepted, in bytes (after gzip decoding; 2 MiB by default, some 50 times
    /// a provider's largest answer); a larger one fails with ``WeatherError/tooLarge(limit:)``.
    public let maxBodySize: Int
    /// Largest total of response header lines accepted, in bytes (64 KiB); more fails with
    /// ``WeatherError/transport(code:message:)`` code 23 (`CURLE_WRITE_ERROR`).
    public static let maxHeaderBytes = 64 << 10
    /// Transfers block their thread in `curl_multi_poll`; a concurrent queue lets dispatch give
    /// each its own thread (custom queues target the overcommitting global queue).
    private let queue = DispatchQueue(label: "wundercast.curl", attributes: .concurrent)

    public init(
        userAgent: String, connectTimeout: Duration = .seconds(5), timeout: Duration = .seconds(10),
        maxBodySize: Int = 2 << 20
    ) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        _ = CurlGlobal.initialised
    }

    public func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let transfer = CurlTransfer(
            url: url, headers: headers, userAgent: userAgent,
            connectTimeoutMilliseconds: Self.milliseconds(connectTimeout),
            timeoutMilliseconds: Self.milliseconds(timeout), maxBodySize: maxBodySize)
        let queue = self.queue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, WeatherError>, Never>) in
                queue.async { continuation.resume(returning: transfer.run()) }
            }
        } onCancel: {
            transfer.cancel()
        }
        return try result.get()
    }

    /// libcurl's `*_MS` options take a `long`; 0 would mean "no timeout", so at least 1 ms.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        guard !ms.overflow else { return seconds > 0 ? Int(Int32.max) : 1 }
        return max(1, Int(ms.partialValue + attoseconds / 1_000_000_000_000_000))
    }

    /// Seconds since 1970 of an HTTP-date (`"Wed, 21 Oct 2015 07:28:00 GMT"`, also the obsolete
    /// RFC 850 and asctime forms), read by libcurl's `curl_getdate`; `nil` when it cannot.
    public static func httpDate(_ text: String) -> Double? {
        let seconds = curl_getdate(text, nil)
        return seconds == -1 ? nil : Double(seconds)
    }

    /// `Retry-After` of `headers` in seconds from `now` (seconds since 1970), both forms.
    static func retryAfter(_ headers: [String: String], now: Double) -> Double? {
        headers["retry-after"].flatMap { RetryAfter.seconds($0, now: now, httpDate: httpDate) }
    }

    /// The response with its headers' instants parsed (`Retry-After`, `Date`, `Expires`,
    /// `Last-Modified`), `now` being when it arrived (seconds since 1970).
    static func response(status: Int, headers: [String: String], body: [UInt8], now: Double) -> HTTPResponse {
        func instant(_ name: String) -> Date? {
            headers[name].flatMap(httpDate).map { Date(timeIntervalSince1970: $0) }
        }
        return HTTPResponse(
            status: status, headers: headers, body: body, retryAfter: retryAfter(headers, now: now),
            date: instant("date"), expires: instant("expires"), lastModified: instant("last-modified"))
    }

    /// `message` with the query string (and fragment) cut from every URL in it: everything
    /// from a `?` or `#` up to the next blank or quote, or to the end — libcurl's error buffer
    /// (`CURLOPT_ERRORBUFFER`, 256 bytes) may end inside a query, and what is left of a cut
    /// key goes with it. libcurl's error texts can quote the URL (PITFALLS), and an `appid=`
    /// key must never reach a log line. A `?` ending a sentence stays.
    public static func redactingQueries(_ message: String) -> String {
        let ends: (Character) -> Bool = { $0.isWhitespace || "\"'<>`".contains($0) }
        var out = ""
        var index = message.startIndex
        while index < message.endIndex {
            let character = message[index]
            let next = message.index(after: index)
            if (character == "?" || character == "#") && next < message.endIndex && !ends(message[next]) {
                index = message[next...].firstIndex(where: ends) ?? message.endIndex
                continue
            }
            out.append(character)
            index = next
        }
        return out
    }
}
