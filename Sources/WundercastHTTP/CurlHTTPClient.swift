#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CCurl
import WundercastModel
import WundercastPOSIX
import WundercastProviders
import WundercastSupport

/// ``HTTPClient`` over libcurl (Debian's libcurl 7.88): one easy handle per request, all of them
/// in one multi handle driven by ``loop`` (the daemon's one reactor) through libcurl's
/// multi-socket interface (``CurlMulti``): no thread of its own, none blocked while a transfer
/// runs, not one of Swift's cooperative pool. A `get` adds its easy handle on the loop and
/// awaits the answer (a continuation); libcurl's callbacks all run on the loop's thread. A host
/// name is resolved by libcurl's threaded resolver (Debian's build has AsynchDNS) on a short-lived
/// thread of its own, never on the loop; an address (`127.0.0.1`) needs none. Connections are
/// kept for the next request of the same client (libcurl's connection cache).
///
/// Each GET accepts gzip, sends ``userAgent`` (libcurl sends none by default; PITFALLS) and
/// returns any HTTP status. Redirects (301, 302, 303, 307, 308) are followed only within the
/// URL's own origin (scheme, host and port) and at most ``maxRedirects`` hops, each hop a request
/// of its own counted in the provider's requests (``RequestTally``); a redirect to another
/// origin, or one hop too many, is not followed and fails as ``WeatherError/http(status:reason:retryAfter:)``
/// with its status (`http-302`) and a message naming the origins (never a path or query).
/// Response header names are lower-cased and belong to the final response.
///
/// Cancelling the calling task throws ``WeatherError/cancelled`` at once; the transfer is removed
/// on the loop right after (its connection closed). A transfer still running when the loop has
/// ended gets no answer until its task is cancelled.
/// Error messages never contain a URL's query string (an `appid` must never reach a log):
/// libcurl's texts (its error buffer can quote the URL) lose every query whole, also one that
/// the 256-byte buffer already cut (``redactingQueries(_:)``). Secrets themselves are redacted
/// by the provider that holds them, from everything this client returns or throws
/// (``WundercastProviders/RedactingHTTPClient``).
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
    /// Same-origin redirect hops followed at most per GET.
    public static let maxRedirects = 2
    /// Largest body accepted, in bytes (after gzip decoding; 2 MiB by default, some 50 times
    /// a provider's largest answer); a larger one fails with ``WeatherError/tooLarge(limit:)``.
    public let maxBodySize: Int
    /// Largest total of response header lines accepted, in bytes (64 KiB); more fails with
    /// ``WeatherError/transport(code:message:)`` code 23 (`CURLE_WRITE_ERROR`).
    public static let maxHeaderBytes = 64 << 10
    /// The event loop every transfer runs on.
    public let loop: EventLoop
    /// The client's one multi handle, the loop's to touch.
    private let multi: LoopBound<CurlMulti>

    /// A client whose transfers run on `loop` (the daemon's reactor), from any thread.
    public convenience init(
        userAgent: String, loop: EventLoop, connectTimeout: Duration = .seconds(5), timeout: Duration = .seconds(10),
        maxBodySize: Int = 2 << 20
    ) {
        self.init(
            userAgent: userAgent, loop: loop, connectTimeout: connectTimeout, timeout: timeout,
            maxBodySize: maxBodySize, probe: nil)
    }

    /// A libcurl callback, as ``Probe`` is told of it.
    enum Callback: Sendable {
        case socket, timer, header, body
    }

    /// Told of every libcurl callback, with whether it ran on the loop's thread (tests).
    typealias Probe = @Sendable (Callback, _ onLoop: Bool) -> Void

    init(
        userAgent: String, loop: EventLoop, connectTimeout: Duration, timeout: Duration, maxBodySize: Int,
        probe: Probe?
    ) {
        self.userAgent = userAgent
        self.loop = loop
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        _ = CurlGlobal.initialised
        multi = LoopBound(CurlMulti(loop: loop, probe: probe), loop: loop)
    }

    /// The multi handle is freed on the loop (the connections it keeps are closed, its sockets
    /// and timer leave the loop); once the loop has ended, wherever the last reference goes.
    deinit {
        let multi = self.multi
        loop.post { multi.value.close() }
    }

    /// Transfers running now, and sockets the loop watches for them (tests).
    func census() async -> (transfers: Int, sockets: Int) {
        let multi = self.multi
        return await loop.perform { multi.value.census }
    }

    public func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        try await following(url, headers: headers)
    }

    /// One transfer per hop, the redirects of `url`'s own origin followed (at most
    /// ``maxRedirects``), all within ``timeout``.
    private func following(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let origin = Origin(url)
        var current = url
        var hops = 0
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                throw .transport(
                    code: Int(CURLE_OPERATION_TIMEDOUT.rawValue),
                    message: "no answer within \(Self.milliseconds(timeout)) ms, \(hops) redirects included")
            }
            let outcome = try await transfer(current, headers: headers, timeout: left)
            guard let target = outcome.redirectURL else { return outcome.response }
            let status = outcome.response.status
            let next = Origin(target)
            guard let origin, let next, next == origin else {
                let shown = next.map { "another origin (\($0))" } ?? "an address that cannot be read"
                throw .http(
                    status: status,
                    reason:
                        "a redirect to \(shown) is not followed: only redirects within \(origin?.description ?? "the provider's origin") are",
                    retryAfter: outcome.response.retryAfter)
            }
            guard hops < Self.maxRedirects else {
                throw .http(
                    status: status, reason: "more than \(Self.maxRedirects) redirects: not followed",
                    retryAfter: outcome.response.retryAfter)
            }
            hops += 1
            current = target
        }
    }

    /// One transfer of `url` without following redirects, on the loop; cancelling the task
    /// answers ``WeatherError/cancelled`` at once and removes the transfer on the loop.
    private func transfer(
        _ url: String, headers: [String: String], timeout: Duration
    ) async throws(WeatherError) -> CurlTransfer.Outcome {
        if Task.isCancelled { throw .cancelled }
        RequestTally.current?.countRequest()
        let request = CurlTransfer.Request(
            url: url, headers: headers, userAgent: userAgent,
            connectTimeoutMilliseconds: Self.milliseconds(connectTimeout),
            timeoutMilliseconds: Self.milliseconds(timeout), maxBodySize: maxBodySize)
        let completion = TransferCompletion()
        let multi = self.multi
        // Posted work runs in order: a cancellation's removal always comes after the start.
        guard loop.post({ multi.value.start(request, completion) }) else {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "the event loop has ended")
        }
        let answer = await withTaskCancellationHandler {
            await completion.wait()
        } onCancel: {
            completion.answer(.failure(.cancelled))
            multi.loop.post { multi.value.cancel(completion) }
        }
        return try answer.get()
    }

    /// A URL's origin (RFC 6454): scheme, host and port (the scheme's default port when none is
    /// written), lower-cased, as libcurl's URL parser (`curl_url`) reads them; `nil` when it cannot.
    struct Origin: Equatable, CustomStringConvertible {
        var scheme: String
        var host: String
        var port: String

        init?(_ url: String) {
            guard let handle = curl_url() else { return nil }
            defer { curl_url_cleanup(handle) }
            guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
            func part(_ what: CURLUPart, _ flags: Int32 = 0) -> String? {
                var text: UnsafeMutablePointer<CChar>?
                guard curl_url_get(handle, what, &text, UInt32(flags)) == CURLUE_OK, let text else { return nil }
                defer { curl_free(text) }
                return String(cString: text).lowercased()
            }
            guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST),
                let port = part(CURLUPART_PORT, CURLU_DEFAULT_PORT)
            else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = port
        }

        /// `scheme://host:port`, outside text bounded and without control characters.
        var description: String { UntrustedText.sanitized("\(scheme)://\(host):\(port)", limit: 80) }
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
