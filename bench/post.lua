-- wrk body script for `make bench`: POST $BENCH_BODY as application/json to the URL's path.
-- Every "@SEED@" in the body becomes a fresh seed per request ("w<thread>-<n>"), so no two requests
-- are the same work; the bare app and the service get bodies built the same way.
local body = os.getenv("BENCH_BODY") or "{}"
local head, tail = body:match("^(.-)@SEED@(.*)$")
local n = 0
local threads = 0

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = body

setup = function(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

if head then
  request = function()
    n = n + 1
    return wrk.format(nil, nil, nil, head .. "w" .. tostring(tid) .. "-" .. tostring(n) .. tail)
  end
end
