#include "repo.h"
#include <memory>

#define TRACE(x) log_line(x)
#define wrap(x) do_wrap(x)

namespace shop {

/// Stores orders.
class Repository {
 public:
  virtual ~Repository() = default;
  /// Writes one order.
  virtual bool save(const Order& order) = 0;
};

class Service : public Base, private ns::Listener<Event> {
 public:
  explicit Service(Repository* repo) : repo_(repo) { init(); }
  void place(Order& order, Ledger* ledger);

 private:
  Repository* repo_;
  std::unique_ptr<Cache> cache_;
};

Config global_config;
static Registry* registry = Registry::create();

void Service::place(Order& order, Ledger* ledger) {
  this->validate(order);
  validate(order);
  repo_->save(order);
  this->cache_->evict(order.id);
  ledger->record(order.id);
  Audit audit;
  audit.log("placed");
  auto* copy = new Audit(2);
  copy->log("copy");
  auto shared = std::make_shared<Notifier>();
  shared->notify(order);
  util::format_id(order.id);
  std::max(1, 2);
  Base::hello();
  Registry::instance().add(order);
  auto done = [&](int code) { return finish(code); };
  done(0);
  TRACE("x");
  wrap(order);
  global_config.reload();
  static_cast<void>(order);
  cache_.reset();
}

}  // namespace shop

int main() {
  shop::Service service(nullptr);
  service.place(current(), nullptr);
  return run<int>(1);
}
