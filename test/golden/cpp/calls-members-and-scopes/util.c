#include "util.h"

struct conn {
  int fd;
};

static int send_all(struct conn *c, const char *buf) {
  c->ops->write(c->fd, buf);
  return write_bytes(c->fd, buf);
}

int main(void) {
  struct conn *c = open_conn("x");
  send_all(c, "hi");
  return 0;
}
