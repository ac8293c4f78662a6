-- The wrk library itself defines wrk.format: it sends nothing of its own.
local wrk = { method = "GET", path = "/" }

function wrk.format(method, path, headers, body)
  return string.format("%s %s HTTP/1.1\r\n", method or wrk.method, path or wrk.path)
end

return wrk
