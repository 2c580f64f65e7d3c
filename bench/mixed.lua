-- wrk script for `make soak`: cycle through the requests in $SOAK_FILE (one per line:
-- METHOD <tab> PATH <tab> CONTENT-TYPE <tab> ACCEPT <tab> BODY, an empty field sends no header;
-- "@SEED@" in a body becomes a fresh seed) and count the answers by status class. done() prints
-- one line: SOAK {"2xx": n, ...}.
local requests = {}
local file = assert(io.open(os.getenv("SOAK_FILE"), "r"))
for line in file:lines() do
  local method, path, ctype, accept, body =
    line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
  if method then
    local head, tail = body:match("^(.-)@SEED@(.*)$")
    table.insert(requests, {method = method, path = path, ctype = ctype, accept = accept,
                            body = body, head = head, tail = tail})
  end
end
file:close()

local threads = {}
setup = function(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

local i = 0
local n = 0
s2, s3, s4, s5, sx, shed = 0, 0, 0, 0, 0, 0

init = function(args)
  i = (tid or 0) * 7
end

request = function()
  i = i % #requests + 1
  n = n + 1
  local r = requests[i]
  local body = r.body
  if r.head then
    body = r.head .. "soak-" .. tostring(tid) .. "-" .. tostring(n) .. r.tail
  end
  local headers = {}
  if r.ctype ~= "" then headers["Content-Type"] = r.ctype end
  if r.accept ~= "" then headers["Accept"] = r.accept end
  if body == "" then body = nil end
  return wrk.format(r.method, r.path, headers, body)
end

response = function(status, headers, body)
  if status == 503 then shed = shed + 1  -- the heavy lane's queue full: shed, as designed
  elseif status >= 500 then s5 = s5 + 1
  elseif status >= 400 then s4 = s4 + 1
  elseif status >= 300 then s3 = s3 + 1
  elseif status >= 200 then s2 = s2 + 1
  else sx = sx + 1 end
end

done = function(summary, latency, reqs)
  local t = {s2 = 0, s3 = 0, s4 = 0, s5 = 0, sx = 0, shed = 0}
  for _, thread in ipairs(threads) do
    for k, _ in pairs(t) do t[k] = t[k] + (thread:get(k) or 0) end
  end
  local e = summary.errors
  io.write(string.format(
    'SOAK {"2xx": %d, "3xx": %d, "4xx": %d, "5xx": %d, "other": %d, "requests": %d, ' ..
    '"shed": %d, "socket_errors": %d, "connect": %d, "read": %d, "write": %d, "timeout": %d, ' ..
    '"p99_ms": %.3f}\n',
    t.s2, t.s3, t.s4, t.s5, t.sx, summary.requests, t.shed,
    e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout,
    latency:percentile(99) / 1000))
end
