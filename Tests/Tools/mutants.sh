#!/usr/bin/env bash
# The mutation check (issues 5, 6, 7, 14, 15, 16, 17, 18 and 19): applies each mutant below to the sources, one at a
# time, rebuilds, runs the unit tests (or the tests a mutant names), and fails if any mutant survives
# (the tests still pass) or only hangs them. Each mutant breaks one promise of the core or, from
# issue 14 on, of the adapters and the server around it (access control, socket limits, the gpsd
# reader's back-off, HTTP limits); a test must notice. Prints "N mutants, N killed".
#
#   bash Tests/Tools/mutants.sh            all mutants
#   bash Tests/Tools/mutants.sh 3          only mutant 3 (also MUTANT=3 bash Tests/Tools/mutants.sh)
#   MUTANT='gpsd|redirect' bash …          the mutants whose names match (extended regex, any case)
#   bash Tests/Tools/mutants.sh --list     the numbered names, nothing built
# Each run rebuilds incrementally (`swift build --build-tests`): the mutated module, the files of
# its dependents that use what changed, and the links; one mutant's build and test takes about a
# minute on 2 cores (issue 15).
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
# The unit tests: everything that runs without real processes (the test targets of the modules
# split out of the core, issue 15). A mutant outside them names the tests that kill it in a fifth
# field (a --filter regular expression); else this default.
FILTER=${MUTANT_TESTS:-WundercastSupportTests|WundercastModelTests|WundercastProvidersTests|WundercastConfigurationTests|WundercastProtocolTests|WundercastPlacesTests|WundercastFormatsTests|WundercastPipelineTests}
# A run that is still going after this many seconds is a hang, and a hang is no kill: a mutant is
# killed only by a failing test. (Every wait of the tests has a deadline of its own, 20-30 s, and
# ends when its test's time limit cancels it: a stuck test fails well within this.)
LIMIT=${MUTANT_SECONDS:-90}

# name | file | exact line (after leading spaces) | replacement line [| test filter]
# (a `|` inside the name, the line or the replacement is written `\|`; the filter is the rest)
mutants=(
  "back-off ignored|Sources/WundercastPipeline/Refresh/RetryPolicy.swift|var wait = backoff.delay(attempt: failures)|var wait = Duration.zero"
  "Retry-After ignored|Sources/WundercastPipeline/Refresh/RetryPolicy.swift|if let seconds = error.retryAfter, seconds > 0 {|if let seconds = Optional<Double>.none, seconds > 0 {"
  "distance from the last seen, not the last emitted fix|Sources/WundercastPipeline/Refresh/RefreshStateMachine.swift|pending = position|lastFetched = pending ?? lastFetched; pending = position"
  "MaxAge refresh removed|Sources/WundercastPipeline/Refresh/RefreshStateMachine.swift|return (.maxAge, max(throttled, lastStart.advanced(by: policy.maxAge)))|return nil"
  "MinInterval ignored|Sources/WundercastPipeline/Refresh/RefreshStateMachine.swift|let throttled = lastStart.advanced(by: policy.minInterval)|let throttled = lastStart"
  "authorization change not applied|Sources/WundercastPipeline/Service/WeatherService.swift|await forEachLatest(locationManager.authorization.values()) { status in|await forEachLatest(AsyncStream { [value = locationManager.authorization.value] in \$0.yield(value) }) { status in"
  "take-first accepts a fix above MaxHorizontalError|Sources/WundercastPipeline/Location/LocationManager.swift|fix.isWithin(horizontalError: maxHorizontalError)|true"
  "latest-wins disabled|Sources/WundercastPipeline/Refresh/RefreshStateMachine.swift|cancelling = current.id|return nil"
  "fix age ignored|Sources/WundercastPipeline/Location/FixAge.swift|return lastFix.duration(to: now) >= maxFixAge ? .noFix(never: false) : nil|return nil"
  "lookups do not wait for their turn at the provider|Sources/WundercastPipeline/Service/ProviderQueue.swift|} else if !s.busy {|} else if true {"
  "lookups per user unlimited|Sources/WundercastPipeline/Lookup/UserRequestLimit.swift|guard times.count < perMinute else {|guard true else {"
  "weather cache ignored|Sources/WundercastPipeline/Cache/WeatherCacheTable.swift|return age >= .zero && age < ttl|return false|WeatherCacheTests|SharedWeatherCacheTests"
  "weather cache never expires|Sources/WundercastPipeline/Cache/WeatherCacheTable.swift|return age >= .zero && age < ttl|return true|WeatherCacheTests/theAnswerExpiresTTLAfterItsRequestStarted|LookupServiceTests/aCachedPositionIsServedForMaxAgeAndJoinedWhileInFlight"
  "fetches in flight not joined|Sources/WundercastPipeline/Cache/WeatherCacheTable.swift|} else if let fetch = flights[key] {|} else if let fetch = Optional<Int>.none {|WeatherCacheTests/concurrentRequestsForOneRoundedPositionMakeOneRequest|SharedWeatherCacheTests/aLookupJoinsTheDaemonsFetchInFlight"
  "a stored answer refreshed MaxAge after the daemon's fetch, not after its request|Sources/WundercastPipeline/Refresh/RefreshStateMachine.swift|if let requestedAt, let started = lastStart, requestedAt < started { lastStart = requestedAt }|_ = requestedAt"
  "weather cache unbounded|Sources/WundercastPipeline/Cache/WeatherCacheTable.swift|if entries[key] == nil, entries.count >= capacity {|if false {"
  "public lookup served from the daemon's cell|Sources/WundercastPipeline/Lookup/LookupService.swift|case .public(let precision): (min(max(0, precision), settings.precision), publicCache)|case .public(let precision): (min(max(0, precision), settings.precision), cache)|LookupServiceTests"
  "public readers get the precise position|Sources/WundercastProtocol/StateViews.swift|let rounded = exact.rounded(toDecimals: publicPrecision)|let rounded = exact"
  "displays show -0|Sources/WundercastModel/Units/DisplayRounding.swift|let sign = value < 0 && scaled != 0 ? \"-\" : \"\"|let sign = value < 0 ? \"-\" : \"\""
  "a key echoed in other letters or small-letter escapes not redacted|Sources/WundercastSupport/Secrets/Secrets.swift|(UInt8(ascii: \"A\")...UInt8(ascii: \"Z\")).contains(byte) ? byte + 32 : byte|byte"
  "bidirectional overrides pass as text|Sources/WundercastSupport/Text/UntrustedText.swift|case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true|case 0x061C: true"
  "a city table image with a bad region index accepted|Sources/WundercastPlaces/CityTable/CityTable+Image.swift|guard Int(regionOf[i]) < regions.count else {|guard true else {"
  "online geocoding unlimited|Sources/WundercastPlaces/Resolver/PlaceResolver.swift|guard onlineTimes.count < onlinePerMinute else {|guard true else {"
  "the journal gets a provider error's finer position|Sources/WundercastPipeline/Service/WeatherService+Journal.swift|publicPrecision: settings.journalPrecision)|publicPrecision: 8)"
  "fix lost never logged|Sources/WundercastPipeline/Location/FixCurrency.swift|if !isCurrent, current, problem?.known == .noFix { return .lost }|_ = problem"
  "weather kept from before the restart shown as fresh|Sources/WundercastPipeline/State/StateStore.swift|s.status = locationProblem == nil && restored == nil ? .fresh : .stale|s.status = locationProblem == nil ? .fresh : .stale"
  "the kept file written again for an unchanged state|Sources/WundercastPipeline/LastState/LastStateRecorder.swift|return record == written ? nil : record|return record"
  "a wake cuts short a Retry-After|Sources/WundercastPipeline/Refresh/RefreshStateMachine+Wake.swift|guard streak.kind.isNetwork else {|guard true else {"
  "any TPV resets the back-off|Sources/WundercastGPSD/ReconnectSchedule.swift|let stable = sawFix && upFor >= stableFor|let stable = evidence != .other|WundercastGPSDTests.ReconnectScheduleTests|aGpsdThatSendsOneTPVAndClosesIsReconnectedWithGrowingBackoff"
  "unreadable decision ignored|Sources/WundercastServer/AuthorizationStore.swift|initial = .denied|initial = configured|SavedDecisionTests"
  "redaction after the cut|Sources/WundercastProviders/HTTP/RedactingHTTPClient.swift|clean.body = secrets.redact(response.body)|clean.body = response.body|WundercastProvidersTests.EntryRedactionTests"
  # Outside the core (issue 15): access control, socket limits, the gpsd reader's back-off, HTTP
  # limits, the session's one request at a time, the cache's MaxAge. Each names the tests that kill it.
  "the precise group's supplementary members read publicly|Sources/WundercastServer/Socket/SocketServer+Accept.swift|credentials.gid == group \|\| (try? UnixSocket.peerHasSupplementaryGroup(fd, group)) == true|credentials.gid == group|AccessControlTests/aMemberOfPreciseGroupReadsPrecisely"
  "a public reader may decide and refresh|Sources/WundercastServer/Socket/SocketServer+Routing.swift|if request.isPrivileged && client.peer.reader != .precise {|if false {|AccessControlTests/anotherUserReadsPublicPositionsAndMayNotDecide"
  "clients beyond MaxClients served|Sources/WundercastServer/Socket/SocketServer+Accept.swift|guard clients.count < settings.maxClients else {|guard true else {|SocketLimitsTests/beyondMaxClientsAConnectionGetsTooManyClientsAndIsClosed"
  "one user may take every client place|Sources/WundercastServer/Socket/SocketServer+Accept.swift|guard exempt \|\| clientsPerUser[peer.uid, default: 0] < settings.maxClientsPerUser else {|guard true else {|AccessControlTests/oneUserGetsAtMostItsShareOfTheClients"
  "an overlong request line accepted|Sources/WundercastServer/Socket/SocketClient+Input.swift|guard line.count <= SocketProtocol.maxRequestLength else {|guard true else {|SocketLimitsTests/anOverlongLineEndedByANewlineGetsTooLongAndIsClosed"
  "answers pile up without limit for a client that reads none|Sources/WundercastServer/Socket/SocketClient.swift|guard pendingBytes + count <= server.settings.maxPendingBytes else {|guard true else {|SocketLimitsTests/aClientThatReadsNoAnswersIsDroppedBeyondMaxPendingBytes"
  "the gpsd back-off does not grow|Sources/WundercastGPSD/ReconnectSchedule.swift|return backoff.delay(attempt: failures)|return backoff.initial|WundercastGPSDTests.ReconnectScheduleTests"
  "a back-off longer than StableAfter not waited out before a reset|Sources/WundercastGPSD/ReconnectSchedule.swift|failures == 0 ? stableAfter : max(stableAfter, backoff.delay(attempt: failures))|stableAfter|WundercastGPSDTests.ReconnectScheduleTests"
  "the gpsd reader reconnects without waiting its back-off|Sources/WundercastGPSD/GPSDReader.swift|clock.schedule(at: clock.now + delay, name: Self.backoffTimer) { [self] in|clock.schedule(at: clock.now, name: Self.backoffTimer) { [self] in|GPSDFixSourceTests/aGpsdThatSendsOneTPVAndClosesIsReconnectedWithGrowingBackoff"
  "a body over the cap is kept|Sources/WundercastHTTP/CurlTransfer.swift|guard body.count + chunk.count <= request.maxBodySize else {|guard true else {|FailureKindsOverHTTPTests/bodyOverTheCapIsTooLarge"
  "response headers unbounded|Sources/WundercastHTTP/CurlTransfer.swift|guard headerBytes <= CurlHTTPClient.maxHeaderBytes else {|guard true else {|FailureKindsOverHTTPTests/headersOverTheirCapAreAnError"
  "redirects followed without limit|Sources/WundercastHTTP/CurlHTTPClient.swift|guard hops < Self.maxRedirects else {|guard true else {|CurlHTTPClientTests/sameOriginRedirectsAreFollowedTwiceAndCounted"
  "the superseded fetch is not awaited (the next request does not wait at the provider queue for the cancelled one to end)|Sources/WundercastPipeline/Service/ProviderQueue.swift|defer { release() }|release()|SupersededFetchTests|ProviderQueueTests"
  "the cache keeps answers for twice MaxAge|Sources/WundercastPipeline/Cache/WeatherCacheTable.swift|return age >= .zero && age < ttl|return age >= .zero && age < ttl * 2|LookupServiceTests/aCachedPositionIsServedForMaxAgeAndJoinedWhileInFlight|WeatherServiceTests/aPositionAgesAndAMaxAgeRefreshDoesNotMakeItFresh"
  "a late liveness answer answers the probes sent after it (the watchdog misses a wedge)|Sources/WundercastPipeline/Wake/Heartbeat.swift|var current = answered.load(ordering: .relaxed)|var current = answered.load(ordering: .relaxed); let number = sent.load(ordering: .acquiring)|WakeDecisionTests"
  "the descriptor reserve disabled (clients, libcurl's sockets and files may take the last descriptors libdispatch needs)|Sources/WundercastPOSIX/DescriptorLimit.swift|return Int(fd) < limit - count|return true|DescriptorFloodTests/atALowLimitFortyClientsAndAFetchLeaveTheReserveFree"
  "broadcasts not coalesced (a change the busy loop had not sent yet still queues a job of its own)|Sources/WundercastServer/Socket/SocketServer.swift|guard first else { return }|guard first else { loop.post { guard !self.stopped else { return }; self.cache?.update(views); self.deliverToWatchers() }; return }|BroadcastCoalescingTests"
  "a password goes over plain mqtt:// to any broker|Sources/WundercastConfiguration/Configuration+MQTT.swift|public var allowsPassword: Bool { usesTLS \|\| isLoopback }|public var allowsPassword: Bool { true }|MQTTConfigurationTests"
  "[MQTT] Precision= finer than [Weather] Precision= allowed|Sources/WundercastConfiguration/Configuration+MQTT.swift|if let precision = mqtt.precision, precision > weather {|if let precision = mqtt.precision, precision > weather + 4 {|MQTTConfigurationTests"
  # Issue 16: the MQTT publisher and its client, against a real broker.
  "MQTT discovery sent with every state change|Sources/WundercastServer/Services/FleetPublisher.swift|last[message.topic] = message.payload|last[message.topic] = message.payload; if let discovery = setup.discovery { client.publish(discovery.message) }|DaemonFleetTests/theDaemonPublishesAvailabilityStateLocationAndDiscovery"
  "MQTT: the states published while the broker was away sent after a reconnect, oldest first|Sources/WundercastMQTT/MQTTClient.swift|newest[topic] = Message(payload: payload, retain: retain)|newest[topic] = Message(payload: payload, retain: retain); inOrder.append((topic, Message(payload: payload, retain: retain)))|MQTTClientTests/aRestartedBrokerGetsOnlineAndOnlyTheNewestStateAgain"
  "MQTT: a first connect to a broker that is down never retried|Sources/WundercastMQTT/MQTTClient.swift|guard case .backingOff = state else { return }|guard case .idle = state else { return }|MQTTClientTests/aBrokerDownAtStartIsConnectedOnceItListensWithTheNewestState"
  "MQTT: a session taken over retried at once (two daemons with one ClientID in a loop)|Sources/WundercastMQTT/MQTTClient.swift|if reason == MQTT_RC_SESSION_TAKEN_OVER.rawValue { return takenOver() }|if reason == -1 { return takenOver() }|MQTTClientTests/aSessionTakenOverIsLoggedAsSuchAndRetriedOnlyAtTheMaximum"
  # Issue 17: official alerts.
  "alerts: a failed source shown as no alerts|Sources/WundercastPipeline/Alerts/AlertsService.swift|source: m.source, status: .unavailable, items: items.isEmpty ? nil : items,|source: m.source, status: .ok, items: items,|AlertsServiceTests"
  "alerts: an expired alert kept|Sources/WundercastPipeline/Alerts/AlertBook.swift|let gone = AlertsState.ordered(inForce.values.filter { (expiry(of: \$0).map { \$0 <= now }) ?? false })|let gone = AlertsState.ordered(inForce.values.filter { (expiry(of: \$0).map { \$0 < .distantPast }) ?? false })|AlertBookTests\|AlertsServiceTests"
  "alerts: derived severe weather shown as an official alert|Sources/WundercastFormats/Bars/BarItem.swift|let alert = state.alerts?.mostSevere|let alert = state.alerts?.mostSevere ?? (condition.isSevere ? Alert(id: \"wmo\", source: .nws, authority: \"WMO code\", event: condition.kind.rawValue, severity: .severe) : nil)|BarAlertsTests"
  "polybar text opens a %{ tag|Sources/WundercastFormats/Bars/PolybarFormat.swift|if previous == \"%\", scalar == \"{\" { out.append(\"\u{200B}\") }|_ = previous"
  "Pango markup characters pass as text|Sources/WundercastFormats/Bars/PangoMarkup.swift|case \"<\": out += \"&lt;\"|case \"<\": out += \"<\""
  "public readers' place from the precise position|Sources/WundercastProtocol/StateViews.swift|location.place = inCell(rounded, publicPrecision)|location.place = nearest(exact)"
  "the fallback place waits for MaxAge on denied|Sources/WundercastPipeline/Service/WeatherService.swift|position: fallback.map { place in shown(place, fetching: machine.withLock { \$0.wouldFetch(place) }) })|position: nil)"
  "translations ignored|Sources/WundercastPOSIX/Gettext.swift|msgid.withCString { id in String(cString: cintl_dgettext(locale, domain, id)) }|msgid|WundercastCtlTests.LanguageTests"
  "no parent-death signal for watch|Sources/WundercastPOSIX/Process+ParentDeath.swift|_ = cprctl_set_parent_death_signal(parentDeathSignal)|_ = parentDeathSignal|WundercastCtlTests.WatchParentDeathTests"
  # Issue 19: the Moon and Beaufort.
  "Beaufort: the speed cut to 0.1 m/s, not rounded half up|Sources/WundercastModel/Units/Beaufort.swift|let tenths = (min(max(speed, 0), 1000) * 10 + 0.5).rounded(.down)|let tenths = (min(max(speed, 0), 1000) * 10).rounded(.down)"
  "moon: a principal phase never names its day (only the quarter of the elongation)|Sources/WundercastModel/Moon/MoonPhase.swift|if let quarter = (0...4).first(where: { Double(\$0 * 90) >= first && Double(\$0 * 90) < first + advance }) {|if let quarter = Optional<Int>.none {"
  "moon: public readers get the Moon of the precise position|Sources/WundercastProtocol/StateViews.swift|publicView.moon = moon(rounded)|publicView.moon = moon(exact)"
  "moon: the Sun's aberration left out of the elongation (phase instants 40 s late)|Sources/WundercastAstronomy/MoonPosition.swift|let apparentSun = sun.longitude - 20.4898 / 3600 / sun.distance|let apparentSun = sun.longitude|MoonPhaseTableTests"
  "moon: rise and set of the Moon's centre, not its upper limb|Sources/WundercastAstronomy/MoonPosition.swift|return (altitude - parallax * cos(altitude) + semidiameter) * 180 / .pi + 34.0 / 60|return (altitude - parallax * cos(altitude)) * 180 / .pi + 34.0 / 60|MoonTableTests"
  # Issue 19: moving or not, and hot and cold.
  "moving: public readers get the speed and course|Sources/WundercastProtocol/StateViews.swift|location.motion = location.motion?.movingOnly|_ = location.motion"
  "moving: no hysteresis (stops below the start threshold)|Sources/WundercastPipeline/Location/MotionTracker.swift|} else if moving, mean.speed < Self.stopSpeed {|} else if moving, mean.speed < Self.startSpeed {"
  "moving: raw speeds, not smoothed|Sources/WundercastPipeline/Location/MotionTracker.swift|mean.speed += weight * (speed - mean.speed)|mean.speed = speed"
  "hot and cold: the band's colour over staleness|Sources/WundercastFormats/Bars/BarColors.swift|if let color = color(item.urgency) { return color }|if item.temperatureBand == nil, let color = color(item.urgency) { return color }"
  "daily aggregation in UTC instead of the place's zone|Sources/WundercastModel/Forecast/DailyAggregation.swift|date.start(utcOffset: utcOffset)..<date.adding(days: 1).start(utcOffset: utcOffset)|date.start(utcOffset: { _ in 0 })..<date.adding(days: 1).start(utcOffset: { _ in 0 })|DailyAggregationTests\|DaysDecodingTests"
  "review 19: impossible values judged after conversion (a force hides any wind)|Sources/WundercastProviders/Provider/Weather+Published.swift|try possibleValues().converted(to: wanted)|try converted(to: wanted).possibleValues()|ImpossibleWindTests"
  "review 19: an unchanged state keeps yesterday's Moon|Sources/WundercastServer/StateViewer.swift|view.location.map { moonAt(Coordinate(latitude: \$0.latitude, longitude: \$0.longitude)) == view.moon }|view.location.map { _ in true }|StateViewerMoonTests"
  "marine asked on land every refresh|Sources/WundercastPipeline/Marine/MarineCellBook.swift|return now - since >= Self.landMemory|return since == since|MarineCellBookTests\|MarineRequestLogTests"
  "public readers get the sunrise and sunset of the precise position|Sources/WundercastProtocol/StateViews.swift|publicView.weather?.forecast = state.weather?.forecast?.withSunTimes(at: rounded)|_ = rounded|StateViewsTests"
  "days named by their place in the list, not their date (yesterday shown as Today)|Sources/WundercastModel/Forecast/Forecast+Window.swift|return (days ?? []).filter { Self.day(ofDateText: \$0.date).map { \$0 >= today } ?? true }|return days ?? []|ForecastDayNamesTests"
  # Review of issue 19, second pass.
  "review 19b: a speed without a track keeps the course the car came with|Sources/WundercastPipeline/Location/MotionTracker.swift|let toward = sample ?? (east: 0, north: 0)|let toward = sample ?? velocity"
  "review 19b: a day whose midnight was skipped starts the evening before|Sources/WundercastModel/TimeZone/CivilDate.swift|return skipped ? guess : result|return result"
  "review 19b: impossible steps summed into a day|Sources/WundercastModel/Forecast/DailyAggregation.swift|let steps = given.map { \$0.possible(in: units) }|let steps = given"
  "review 19b: a marine current without a time taken as the present|Sources/WundercastProviders/OpenMeteo/OpenMeteoBody+Marine.swift|guard let time = try instant(values[\"time\"], \"current.time\") else {|guard let time = try instant(values[\"time\"], \"current.time\") ?? Optional(now) else {"
  "review 19b: a day's sum kept when one of its amounts was impossible|Sources/WundercastModel/Forecast/DailyAggregation.swift|if amountsLeftOut.contains(where: { (start..<end).contains(\$0) }) { published?.precipitation = nil }|_ = amountsLeftOut"
  "review 19b: a repeated step counted twice|Sources/WundercastModel/Forecast/DailyAggregation.swift|seen.insert(\$0.time).inserted|seen.insert(\$0.time).inserted \|\| true"
  "review 19b: a wind direction kept with an impossible speed|Sources/WundercastModel/Units/Weather+Plausibility.swift|return (kept, speed != nil && kept == nil ? nil : direction.flatMap(Self.direction))|return (kept, direction.flatMap(Self.direction))|ImpossibleValuesTests"
  "review 19b: days dated 2200 kept|Sources/WundercastModel/Units/Weather+Plausibility.swift|return start >= Weather.plausibleTimes.lowerBound && start < Weather.plausibleTimes.upperBound|return true|ImpossibleValuesTests"
  "review 19b: a kept state at the limits refused after a restart (no slack for rounding)|Sources/WundercastModel/Units/Weather+Plausibility.swift|let slack = 1e-5 * max(abs(limits.lowerBound), abs(limits.upperBound))|let slack = 0.0|ImpossibleValuesTests"
  "review 19b: a MET Norway step dated 1999 taken as the current weather|Sources/WundercastProviders/MetNorway/MetNorwayBody.swift|self.steps = steps.filter { Weather.plausibleTimes.contains(\$0.time) && seen.insert(\$0.time).inserted }|self.steps = steps.filter { _ in seen.isEmpty }|MetNorwayVariantTests"
)

only=${MUTANT:-${1:-}}
if [ "$only" = --list ]; then
  for i in "${!mutants[@]}"; do echo "$((i + 1)): ${mutants[$i]%%|*}"; done
  exit 0
fi
bundle="$($SWIFT build --show-bin-path)/wundercastPackageTests.xctest"
total=0
killed=0
survivors=()
for i in "${!mutants[@]}"; do
  n=$((i + 1))
  entry=${mutants[$i]//\\|/$'\x01'}
  IFS='|' read -r name file line replacement filter <<<"$entry"
  name=${name//$'\x01'/|}
  line=${line//$'\x01'/|}
  replacement=${replacement//$'\x01'/|}
  filter=${filter//$'\x01'/|}
  if [[ $only =~ ^[0-9]+$ ]]; then
    [ "$only" = "$n" ] || continue
  elif [ -n "$only" ]; then
    grep -qiE -- "$only" <<<"$name" || continue
  fi
  filter=${filter:-$FILTER}
  matches=$(awk -v l="$line" '{ s = $0; sub(/^[ \t]+/, "", s); if (s == l) c++ } END { print c + 0 }' "$file")
  if [ "$matches" != 1 ]; then
    echo "mutant $n ($name): the line is in $file $matches times, not once — update the mutant" >&2
    exit 2
  fi
  backup=$(mktemp)
  cp "$file" "$backup"
  # Interrupted or not, the real source comes back.
  trap 'cp "$backup" "$file"' EXIT INT TERM
  awk -v l="$line" -v r="$replacement" '{ s = $0; sub(/^[ \t]+/, "", s); if (s == l) { match($0, /^[ \t]*/); print substr($0, 1, RLENGTH) r } else print }' "$backup" > "$file"
  total=$((total + 1))
  log=$(mktemp)
  started=$SECONDS
  if ! $SWIFT build --build-tests >"$log" 2>&1; then
    cp "$backup" "$file"
    echo "mutant $n ($name) does not build — update the mutant:" >&2
    grep -E "error:" "$log" | head -5 >&2
    exit 2
  fi
  # The test bundle runs directly, so that the time limit ends a hang — which is not a kill.
  # (In a group whose stderr is /dev/null, so that bash's own note of a crashed or killed bundle —
  # a precondition that traps is a kill too — stays out of the output.)
  built=$SECONDS
  { (timeout -s KILL "$LIMIT" "$bundle" --testing-library swift-testing --filter "$filter" >"$log" 2>&1); } 2>/dev/null
  status=$?
  times="build $((built - started)) s, tests $((SECONDS - built)) s"
  if [ "$status" = 69 ]; then
    # Swift Testing's EX_UNAVAILABLE: the filter matched no test, which kills nothing.
    cp "$backup" "$file"
    echo "mutant $n ($name): its filter '$filter' matches no test — update the mutant" >&2
    exit 2
  elif [ "$status" = 126 ] || [ "$status" = 127 ]; then
    cp "$backup" "$file"
    echo "mutant $n ($name): the test bundle $bundle did not run (status $status)" >&2
    exit 2
  elif [ "$status" = 0 ]; then
    survivors+=("$n: $name")
    echo "mutant $n: $name — SURVIVED ($times)"
  elif [ "$status" = 137 ]; then
    survivors+=("$n: $name (only a time-out after ${LIMIT} s)")
    echo "mutant $n: $name — NOT KILLED: the tests hung until the ${LIMIT}-s limit instead of failing"
  else
    killed=$((killed + 1))
    failed=$(grep -oE '✘ Test [^ ]+' "$log" | grep -v '^✘ Test run$' | sort -u | head -3 | sed 's/✘ Test //' | tr '\n' ' ')
    echo "mutant $n: $name — killed by: ${failed:-a crash (status $status)} ($times)"
  fi
  cp "$backup" "$file"
  trap - EXIT INT TERM
  rm -f "$backup" "$log"
done
echo "$total mutants, $killed killed"
# Rebuild the real sources so that what follows does not test a mutant's leftovers.
$SWIFT build --build-tests >/dev/null 2>&1
[ "${#survivors[@]}" -eq 0 ] || { printf 'survived: %s\n' "${survivors[@]}" >&2; exit 1; }
