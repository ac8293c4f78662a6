-- An OpenResty handler: it formats strings and answers requests, it is no load script.
local cjson = require("cjson")

local function format(method, path)
  return method .. " " .. path
end

ngx.say(cjson.encode({ route = format("GET", "/api/orders") }))
