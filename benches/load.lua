-- wrk script for benches/load.sh: `-- FILE LIMIT` POSTs FILE's bytes (FILE "-" sends GETs) and stops the
-- thread after LIMIT responses, so a measurement is bounded in count as well as by wrk's --duration.
-- `done` prints one machine-readable RESULT line: requests, errors of every kind, and latency percentiles
-- in milliseconds.
local count, limit = 0, 0

function init(args)
  if args[1] and args[1] ~= "-" then
    local file = assert(io.open(args[1], "rb"))
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/toml"
    wrk.body = file:read("*a")
    file:close()
  end
  limit = tonumber(args[2]) or 0
end

function response(status, headers, body)
  count = count + 1
  if limit > 0 and count >= limit then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f errors=%d non2xx=%d p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f\n",
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3,
    latency.max / 1e3))
end
