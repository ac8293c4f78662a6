local cjson = require("cjson")
local util = require "shop.util"
local log = require("shop.log").logger

-- A bank account.
local Account = {}
Account.__index = Account

-- Opens an account with a starting balance.
function Account.new(balance)
  return setmetatable({ balance = balance }, Account)
end

function Account:deposit(amount)
  self.balance = self.balance + amount
  self:record("deposit", amount)
  return self
end

function Account:record(kind, amount)
  util.append(kind, amount)
  log.info(cjson.encode({ kind = kind, amount = amount }))
end

Account.close = function(self)
  self:record("close", 0)
end

local function open_and_fill(amounts)
  local account = Account.new(0)
  for _, amount in ipairs(amounts) do
    account:deposit(amount):record("chained", amount)
  end
  local summarize = function(a) return util.summary(a) end
  return summarize(account)
end

open_and_fill({ 1, 2 })
return Account
