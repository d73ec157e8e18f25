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
/// Error messages never contain a URL's query string nor any of ``secrets`` (an `appid` must
/// never reach a log): every error the client throws passes ``WeatherError/redacted(by:)``, and
/// libcurl's texts (its error buffer can quote the URL) are cut at every `?`. They are sanitised
/// (``UntrustedText/sanitized(_:limit:)``).
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
    /// Secret values (an API key in the URLs) never shown in an error.
    public let secrets: Secrets

    /// Transfers block their thread in `curl_multi_poll`; a concurrent queue lets dispatch give
    /// each its own thread (custom queues target the overcommitting global queue).
    private let queue = DispatchQueue(label: "wundercast.curl", attributes: .concurrent)

    public init(
        userAgent: String, connectTimeout: Duration = .seconds(5), timeout: Duration = .seconds(10),
        maxBodySize: Int = 2 << 20, secrets: Secrets = .none
    ) {
        self.userAgent = userAgent
        self.secrets = secrets
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
        return try result.mapError { $0.redacted(by: secrets) }.get()
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
    /// from a `?` or `#` up to the next blank or quote. libcurl's error texts can quote the URL
    /// (PITFALLS), and an `appid=` key must never reach a log line. A `?` ending a sentence stays.
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

/// `curl_global_init` exactly once per process: a Swift global is initialised once, thread-safely.
private enum CurlGlobal {
    static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// One GET: the easy handle, its callbacks' buffers, and a private multi handle that drives it so
/// that a cancellation can wake the transfer up at once (`curl_multi_wakeup`) instead of waiting
/// up to a second for the next progress callback.
///
/// Threads: `run()` and the callbacks it causes happen on one dispatch thread; `cancel()` may be
/// called from any thread and touches only the atomic flag and `curl_multi_wakeup` (documented
/// as callable from any thread). Hence `@unchecked Sendable`.
private final class CurlTransfer: @unchecked Sendable {
    let url: String
    let headers: [String: String]
    let userAgent: String
    let connectTimeoutMilliseconds: Int
    let timeoutMilliseconds: Int
    let maxBodySize: Int

    private let cancelled = Atomic<Bool>(false)
    /// Created in `init` and freed in `deinit`, so `cancel()` never sees a dangling handle.
    private let multi: UnsafeMutableRawPointer?

    // Owned by the transfer thread.
    private var body: [UInt8] = []
    private var responseHeaders: [String: String] = [:]
    private var bodyTooLarge = false
    private var headerBytes = 0
    private var headersTooLarge = false
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(
        url: String, headers: [String: String], userAgent: String, connectTimeoutMilliseconds: Int,
        timeoutMilliseconds: Int, maxBodySize: Int
    ) {
        self.url = url
        self.headers = headers
        self.userAgent = userAgent
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxBodySize = maxBodySize
        self.multi = CurlGlobal.initialised ? curl_multi_init() : nil
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let multi { curl_multi_cleanup(multi) }
        errorBuffer.deallocate()
    }

    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        if let multi { curl_multi_wakeup(multi) }
    }

    private var isCancelled: Bool { cancelled.load(ordering: .sequentiallyConsistent) }

    /// Performs the transfer; blocks until it ends. Any HTTP status is a success here.
    func run() -> Result<HTTPResponse, WeatherError> {
        guard CurlGlobal.initialised else {
            return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_global_init failed"))
        }
        guard let multi, let easy = curl_easy_init() else {
            return .failure(
                .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "cannot create a libcurl handle"))
        }
        defer { curl_easy_cleanup(easy) }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(headerList) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // A line break would smuggle a second header (or a request) into the request.
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }), !name.isEmpty else {
                return .failure(
                    .transport(
                        code: Int(CURLE_BAD_FUNCTION_ARGUMENT.rawValue), message: "invalid request header '\(name)'"))
            }
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                return .failure(.transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory"))
            }
            headerList = appended
        }

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        // libcurl copies string options (since 7.17), so Swift's temporary C strings suffice.
        let options: [CURLcode] = [
            ccurl_setopt_string(easy, CURLOPT_URL, url),
            ccurl_setopt_string(easy, CURLOPT_USERAGENT, userAgent),
            ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1),
            ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1),
            ccurl_setopt_long(easy, CURLOPT_MAXREDIRS, 5),
            // CURLOPT_PROTOCOLS (a bitmask) is deprecated since 7.85; the _STR forms replace it.
            ccurl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            ccurl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            // "" offers every encoding libcurl can decode (gzip, deflate, …) and decodes the body.
            ccurl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMilliseconds),
            ccurl_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeoutMilliseconds),
            // A Content-Length over the cap fails at once with CURLE_FILESIZE_EXCEEDED.
            ccurl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBodySize)),
            // Threads: no SIGALRM-based DNS timeouts.
            ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)),
            ccurl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList),
            ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
            },
            ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, userdata),
            ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
                guard let userdata else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            },
            ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, userdata),
            ccurl_setopt_long(easy, CURLOPT_NOPROGRESS, 0),
            ccurl_setopt_xferinfo_function(easy) { userdata, _, _, _, _ in
                // Non-zero aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
                guard let userdata else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().isCancelled ? 1 : 0
            },
            ccurl_setopt_pointer(easy, CURLOPT_XFERINFODATA, userdata),
        ]
        if let failed = options.first(where: { $0 != CURLE_OK }) {
            return .failure(transportError(failed))
        }

        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: multiError(added)))
        }
        defer { curl_multi_remove_handle(multi, easy) }

        var running: Int32 = 1
        while !isCancelled {
            let performed = curl_multi_perform(multi, &running)
            guard performed == CURLM_OK else {
                return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: multiError(performed)))
            }
            if running == 0 { break }
            // Returns on socket activity, libcurl's next timeout, or curl_multi_wakeup from cancel().
            let polled = curl_multi_poll(multi, nil, 0, 1000, nil)
            guard polled == CURLM_OK else {
                return .failure(.transport(code: Int(CURLE_FAILED_INIT.rawValue), message: multiError(polled)))
            }
        }
        if running != 0 { return .failure(.cancelled) }

        var code = CURLE_FAILED_INIT
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE && message.pointee.easy_handle == easy {
                code = message.pointee.data.result
            }
        }
        if code == CURLE_ABORTED_BY_CALLBACK && isCancelled { return .failure(.cancelled) }
        guard code == CURLE_OK else { return .failure(transportError(code)) }

        var status = 0
        let info = ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard info == CURLE_OK, status > 0 else {
            return .failure(.transport(code: Int(info.rawValue), message: "no HTTP status received"))
        }
        return .success(
            CurlHTTPClient.response(status: status, headers: responseHeaders, body: body, now: Double(time(nil))))
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        guard body.count + chunk.count <= maxBodySize else {
            bodyTooLarge = true
            return 0  // anything but chunk.count: CURLE_WRITE_ERROR
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// One header line, CRLF included; returns what libcurl must see as handled (less aborts).
    /// A status line starts a new response (a redirect, or `100 Continue`), so only the final
    /// response's headers remain. All lines together (redirects included) are bounded.
    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        headerBytes += line.count
        guard headerBytes <= CurlHTTPClient.maxHeaderBytes else {
            headersTooLarge = true
            return 0  // CURLE_WRITE_ERROR
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            responseHeaders = [:]
            return line.count
        }
        guard let colon = text.firstIndex(of: ":") else { return line.count }
        let name = text[..<colon].trimmingWhitespace().lowercased()
        guard !name.isEmpty else { return line.count }
        responseHeaders[name] = text[text.index(after: colon)...].trimmingWhitespace()
        return line.count
    }

    private func transportError(_ code: CURLcode) -> WeatherError {
        if (code == CURLE_WRITE_ERROR && bodyTooLarge) || code == CURLE_FILESIZE_EXCEEDED {
            return .tooLarge(limit: maxBodySize)
        }
        var message = String(cString: curl_easy_strerror(code))
        if code == CURLE_WRITE_ERROR && headersTooLarge {
            message = "response headers larger than \(CurlHTTPClient.maxHeaderBytes) bytes"
        } else {
            let detail = String(cString: errorBuffer).trimmingWhitespace()
            if !detail.isEmpty && detail != message { message += ": " + detail }
        }
        // Redacted first (a cut could otherwise hide the `?` that starts a query), then bounded
        // and stripped of control characters: libcurl quotes server text in some errors.
        return .transport(
            code: Int(code.rawValue), message: UntrustedText.sanitized(CurlHTTPClient.redactingQueries(message)))
    }

    private func multiError(_ code: CURLMcode) -> String {
        "libcurl multi: " + String(cString: curl_multi_strerror(code))
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
