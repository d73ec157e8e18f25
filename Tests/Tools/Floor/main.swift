// The memory floor of `make bench` (issue 5): a do-nothing static binary that links and
// initialises what wundercastd links — FoundationEssentials, libcurl with OpenSSL, libgps,
// libsystemd — encodes one JSON object, and then waits. The installed daemon's idle RSS is
// compared with this one's, measured in the same run.
//
//   wundercast-floor HOST PORT     (a gpsd to open, as the daemon does)
import CCurl
import CGPS
import CSystemd
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

struct Sample: Encodable {
    var `class` = "WEATHER"
    var status = "fresh"
    var temperature = -5.3
}

let arguments = CommandLine.arguments
let host = arguments.count > 2 ? arguments[1] : "127.0.0.1"
let port = arguments.count > 2 ? arguments[2] : "2947"
curl_global_init(Int(CURL_GLOBAL_DEFAULT))
let curl = curl_easy_init()
_ = ccurl_setopt_string(curl, CURLOPT_URL, "https://127.0.0.1/")
let gps = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
_ = gps_open(host, port, gps)
_ = sd_notify(0, "STATUS=floor")
let json = (try? JSONEncoder().encode(Sample())) ?? Data()
print(String(decoding: json, as: UTF8.self))
while true { pause() }
