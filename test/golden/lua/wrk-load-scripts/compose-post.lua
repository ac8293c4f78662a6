local socket = require("socket")
math.randomseed(socket.gettime() * 1000)

local url = "http://localhost:8080"

local function compose_post()
  local user_id = tostring(math.random(1, 962))
  local method = "POST"
  local path = url .. "/api/post/compose"
  local headers = {}
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  local body = "user_id=" .. user_id .. "&text=hello"
  return wrk.format(method, path, headers, body)
end

local function read_timeline()
  local user_id = tostring(math.random(1, 962))
  -- the query string is no part of the route
  local path = url .. "/api/users/" .. user_id .. "/timeline?start=0&stop=" ..
    tostring(10)
  return wrk.format("GET", path, {}, nil)
end

request = function()
  if math.random() < 0.5 then
    return compose_post()
  end
  return read_timeline()
end
