require 'json'
require_relative 'repo'

module Shop
  module Auditing
    def audit(what)
      log_line(what)
    end
  end

  class OrderService < BaseService
    include Auditing
    prepend Shop::Tracing
    before_action :authenticate

    def initialize(repo)
      @repo = repo
      @clock = Clock.new
      super(repo)
    end

    def place(lines)
      order = Order.new(Ids.next_id)
      validate(order)
      validate order
      self.audit('place')
      @clock.now
      @repo.save(order)
      order.lines.concat(lines)
      receipt = Receipt.new
      receipt.render
      lines.each { |line| price_of(line) }
      totals = lines.map { |line| line.total }
      formatter = ->(value) { format_money(value) }
      Shop::Money.round(totals.sum)
      JSON.generate(order.to_h)
      raise ArgumentError, 'empty' if lines.empty?
      notify_customer
      order
    end

    def self.build
      new(Repo.new)
    end

    private

    def validate(order); end
    def price_of(line); end
  end
end

def main
  Shop::OrderService.build.place([])
end

main()
