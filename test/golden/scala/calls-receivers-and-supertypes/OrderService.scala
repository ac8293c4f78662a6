package com.shop.orders

import com.shop.billing.Billing
import com.shop.billing.{chargeAll => charge, Ledger}
import com.shop.audit.AuditLog
import com.shop.util.Checks.require

trait OrderRepo extends Repo[Order] {
  def config: Config

  def find(id: String): Order

  def findOrFail(id: String): Order = find(config.prefix(id))
}

case class Totals(amount: BigDecimal)

class OrderService(repo: OrderRepo, val ledger: Ledger) extends BaseService(repo) with Service {
  private val audit: AuditLog = new AuditLog()
  private val mailer = new Mailer

  def place(id: String, billing: Billing): Order = {
    val order = repo.find(id)
    require(order)
    billing.charge(order)
    this.audit.record(id)
    val totals = Totals(order.amount)
    Billing.defaults().apply(order)
    charge(List(order))
    validate(order)
    this.log(id)
    super.log(id)
    mailer.send(order.email())
    ledger.post(totals)
    order.lines().map(line => line.price()).foreach(add)
    def local(): Unit = order.cancel()
    local()
    new Order(id).withTotals(totals)
  }

  private def validate(order: Order): Unit = {
    OrderRules.check(order)
  }
}

object Main {
  def main(args: Array[String]): Unit = {
    val service = new OrderService(new InMemoryRepo(), Ledger())
    service.place("1", new Billing())
  }
}

def runAll(): Unit = Main.main(Array.empty)

val started = runAll()
