#ifndef ORDERS_H
#define ORDERS_H
#include <vector>
#include "orders/model.h"
#define ORDERS_MAX 10
#endif
