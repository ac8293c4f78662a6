import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { ContractFact, FileFacts } from '../../../src/index/facts.js';
import { extractC, extractCpp } from '../../../src/index/languages/cpp/extract.js';
import { parseFile } from '../../../src/index/parse/parser.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtures = path.join(root, 'test/fixtures/languages/cpp');
// Each grammar package ships its wasm under the name the language table expects.
const grammarsDirs = {
  cpp: path.join(root, 'node_modules/tree-sitter-cpp'),
  c: path.join(root, 'node_modules/tree-sitter-c'),
};

async function extractSource(
  source: string,
  language: 'cpp' | 'c' = 'cpp',
  file = 'native/inline.cc',
): Promise<FileFacts> {
  const outcome = await parseFile(
    { path: file, language, source },
    { grammarsDir: grammarsDirs[language], extractors: { cpp: extractCpp, c: extractC } },
  );
  if (outcome.kind !== 'parsed')
    throw new Error(`${file}: ${outcome.kind === 'failed' ? outcome.reason : outcome.kind}`);
  return outcome.facts;
}

function extract(name: string, language: 'cpp' | 'c' = 'cpp'): Promise<FileFacts> {
  return extractSource(readFileSync(path.join(fixtures, name), 'utf8'), language, `native/${name}`);
}

async function contractsOf(source: string): Promise<readonly ContractFact[]> {
  return (await extractSource(source)).contracts;
}

describe('cpp golden fixtures', () => {
  test('payment_server.cc', async () => {
    expect(await extract('payment_server.cc')).toEqual({
      language: 'cpp',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'PAYMENT_PORT',
          qualifiedName: 'PAYMENT_PORT',
          signature: '#define PAYMENT_PORT "0.0.0.0:50051"',
          startLine: 11,
          endLine: 11,
        },
        {
          id: 1,
          kind: 'function',
          name: 'CENTS',
          qualifiedName: 'CENTS',
          signature: '#define CENTS(units) ((units) * 100)',
          startLine: 12,
          endLine: 12,
        },
        {
          id: 2,
          kind: 'namespace',
          name: 'shop',
          qualifiedName: 'shop',
          signature: 'namespace shop',
          startLine: 14,
          endLine: 58,
        },
        {
          id: 3,
          kind: 'namespace',
          name: 'payment',
          qualifiedName: 'shop::payment',
          signature: 'namespace payment',
          startLine: 15,
          endLine: 57,
        },
        {
          id: 4,
          kind: 'enum',
          name: 'ChargeOutcome',
          qualifiedName: 'shop::payment::ChargeOutcome',
          signature: 'enum class ChargeOutcome',
          startLine: 18,
          endLine: 18,
          docstring: 'How a charge ended.',
        },
        {
          id: 5,
          kind: 'enum_member',
          name: 'kApproved',
          qualifiedName: 'shop::payment::ChargeOutcome::kApproved',
          signature: 'kApproved',
          startLine: 18,
          endLine: 18,
          parent: 4,
        },
        {
          id: 6,
          kind: 'enum_member',
          name: 'kDeclined',
          qualifiedName: 'shop::payment::ChargeOutcome::kDeclined',
          signature: 'kDeclined = 2',
          startLine: 18,
          endLine: 18,
          parent: 4,
        },
        {
          id: 7,
          kind: 'type',
          name: 'Money',
          qualifiedName: 'shop::payment::Money',
          signature: 'using Money = long long',
          startLine: 20,
          endLine: 20,
        },
        {
          id: 8,
          kind: 'class',
          name: 'PaymentServiceImpl',
          qualifiedName: 'shop::payment::PaymentServiceImpl',
          signature: 'class PaymentServiceImpl final : public shop::payment::v1::PaymentService::Service',
          startLine: 25,
          endLine: 45,
          docstring: 'Implements PaymentService on top of the inventory stub.',
        },
        {
          id: 9,
          kind: 'method',
          name: 'PaymentServiceImpl',
          qualifiedName: 'shop::payment::PaymentServiceImpl::PaymentServiceImpl',
          signature: 'explicit PaymentServiceImpl(std::shared_ptr<grpc::Channel> channel)',
          startLine: 27,
          endLine: 28,
          parent: 8,
        },
        {
          id: 10,
          kind: 'method',
          name: 'ProcessPayment',
          qualifiedName: 'shop::payment::PaymentServiceImpl::ProcessPayment',
          signature:
            'grpc::Status ProcessPayment(grpc::ServerContext* context, const v1::ProcessPaymentRequest* request, v1::ProcessPaymentResponse* response) override',
          startLine: 31,
          endLine: 32,
          docstring: 'Charges the order and reserves its stock.',
          parent: 8,
        },
        {
          id: 11,
          kind: 'method',
          name: 'RefundPayment',
          qualifiedName: 'shop::payment::PaymentServiceImpl::RefundPayment',
          signature:
            'grpc::Status RefundPayment(grpc::ServerContext* context, const v1::RefundPaymentRequest* request, v1::RefundPaymentResponse* response) override',
          startLine: 34,
          endLine: 39,
          bodyStartLine: 36,
          bodyEndLine: 38,
          parent: 8,
        },
        {
          id: 12,
          kind: 'method',
          name: 'Total',
          qualifiedName: 'shop::payment::PaymentServiceImpl::Total',
          signature: 'Money Total(const v1::ProcessPaymentRequest& request) const',
          startLine: 42,
          endLine: 42,
          parent: 8,
        },
        {
          id: 13,
          kind: 'method',
          name: 'ProcessPayment',
          qualifiedName: 'shop::payment::PaymentServiceImpl::ProcessPayment',
          signature:
            'grpc::Status PaymentServiceImpl::ProcessPayment(grpc::ServerContext* context, const v1::ProcessPaymentRequest* request, v1::ProcessPaymentResponse* response)',
          startLine: 47,
          endLine: 55,
          bodyStartLine: 50,
          bodyEndLine: 54,
          parent: 8,
        },
        {
          id: 14,
          kind: 'function',
          name: 'main',
          qualifiedName: 'main',
          signature: 'int main()',
          startLine: 60,
          endLine: 71,
          bodyStartLine: 61,
          bodyEndLine: 70,
        },
      ],
      imports: [
        {
          source: 'payment/payment_server.h',
          line: 2,
        },
        {
          source: 'memory',
          line: 4,
        },
        {
          source: 'string',
          line: 5,
        },
        {
          source: 'grpcpp/grpcpp.h',
          line: 7,
        },
        {
          source: 'shop/inventory/v1/inventory.grpc.pb.h',
          line: 8,
        },
        {
          source: 'shop/payment/v1/payment.grpc.pb.h',
          line: 9,
        },
      ],
      contracts: [
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          symbol: 8,
          line: 25,
          confidence: 'exact',
          via: 'X::Service',
        },
        {
          kind: 'grpc_client',
          service: 'shop.inventory.v1.InventoryService',
          symbol: 9,
          line: 28,
          confidence: 'exact',
          via: 'X::NewStub',
        },
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          method: 'ProcessPayment',
          symbol: 10,
          line: 31,
          confidence: 'exact',
          via: 'X::Service',
        },
        {
          kind: 'grpc_server',
          service: 'shop.payment.v1.PaymentService',
          method: 'RefundPayment',
          symbol: 11,
          line: 34,
          confidence: 'exact',
          via: 'X::Service',
        },
        {
          kind: 'grpc_client',
          service: 'shop.inventory.v1.InventoryService',
          method: 'ReleaseStock',
          symbol: 11,
          line: 38,
          confidence: 'exact',
          via: 'X::Stub call',
        },
        {
          kind: 'grpc_client',
          service: 'shop.inventory.v1.InventoryService',
          symbol: 8,
          line: 44,
          confidence: 'exact',
          via: 'X::Stub member',
        },
        {
          kind: 'grpc_client',
          service: 'shop.inventory.v1.InventoryService',
          method: 'ReserveStock',
          symbol: 13,
          line: 52,
          confidence: 'exact',
          via: 'X::Stub call',
        },
        {
          kind: 'grpc_client',
          service: 'shop.pricing.v1.PricingService',
          symbol: 14,
          line: 62,
          confidence: 'exact',
          via: 'X::NewStub',
        },
        {
          kind: 'grpc_client',
          service: 'shop.pricing.v1.PricingService',
          method: 'Quote',
          symbol: 14,
          line: 64,
          confidence: 'exact',
          via: 'X::Stub call',
        },
      ],
    });
  });

  test('ledger.h', async () => {
    expect(await extract('ledger.h')).toEqual({
      language: 'cpp',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'LEDGER_MAX_ENTRIES',
          qualifiedName: 'LEDGER_MAX_ENTRIES',
          signature: '#define LEDGER_MAX_ENTRIES 1024',
          startLine: 11,
          endLine: 11,
        },
        {
          id: 1,
          kind: 'struct',
          name: 'ledger_entry',
          qualifiedName: 'ledger_entry',
          signature: 'struct ledger_entry',
          startLine: 14,
          endLine: 17,
          docstring: 'One posted movement.',
        },
        {
          id: 2,
          kind: 'type',
          name: 'ledger_entry_t',
          qualifiedName: 'ledger_entry_t',
          signature: 'typedef struct ledger_entry { …',
          startLine: 14,
          endLine: 17,
          docstring: 'One posted movement.',
        },
        {
          id: 3,
          kind: 'type',
          name: 'ledger_status',
          qualifiedName: 'ledger_status',
          signature: 'typedef enum {LEDGER_OK = 0, LEDGER_FULL} ledger_status',
          startLine: 19,
          endLine: 19,
        },
        {
          id: 4,
          kind: 'function',
          name: 'ledger_post',
          qualifiedName: 'ledger_post',
          signature: 'ledger_status ledger_post(ledger_entry_t* entry)',
          startLine: 22,
          endLine: 22,
          docstring: 'Appends an entry; returns LEDGER_FULL when the ledger has no room left.',
        },
        {
          id: 5,
          kind: 'function',
          name: 'ledger_count',
          qualifiedName: 'ledger_count',
          signature: 'size_t ledger_count(void)',
          startLine: 24,
          endLine: 24,
        },
      ],
      imports: [
        {
          source: 'stddef.h',
          line: 4,
        },
        {
          source: 'money.h',
          line: 5,
        },
      ],
      contracts: [],
    });
  });
});

describe('c golden fixture', () => {
  test('ledger.c', async () => {
    expect(await extract('ledger.c', 'c')).toEqual({
      language: 'c',
      symbols: [
        {
          id: 0,
          kind: 'const',
          name: 'LEDGER_VERSION',
          qualifiedName: 'LEDGER_VERSION',
          signature: '#define LEDGER_VERSION 2',
          startLine: 5,
          endLine: 5,
        },
        {
          id: 1,
          kind: 'struct',
          name: 'totals',
          qualifiedName: 'totals',
          signature: 'struct totals',
          startLine: 10,
          endLine: 13,
        },
        {
          id: 2,
          kind: 'enum',
          name: 'direction',
          qualifiedName: 'direction',
          signature: 'enum direction',
          startLine: 15,
          endLine: 15,
        },
        {
          id: 3,
          kind: 'enum_member',
          name: 'DEBIT',
          qualifiedName: 'direction::DEBIT',
          signature: 'DEBIT',
          startLine: 15,
          endLine: 15,
          parent: 2,
        },
        {
          id: 4,
          kind: 'enum_member',
          name: 'CREDIT',
          qualifiedName: 'direction::CREDIT',
          signature: 'CREDIT',
          startLine: 15,
          endLine: 15,
          parent: 2,
        },
        {
          id: 5,
          kind: 'function',
          name: 'ledger_post',
          qualifiedName: 'ledger_post',
          signature: 'ledger_status ledger_post(ledger_entry_t* entry)',
          startLine: 18,
          endLine: 24,
          bodyStartLine: 19,
          bodyEndLine: 23,
        },
        {
          id: 6,
          kind: 'function',
          name: 'ledger_count',
          qualifiedName: 'ledger_count',
          signature: 'size_t ledger_count(void)',
          startLine: 27,
          endLine: 27,
          docstring: 'Number of entries posted so far.',
        },
      ],
      imports: [
        {
          source: 'ledger.h',
          line: 1,
        },
        {
          source: 'string.h',
          line: 3,
        },
      ],
      contracts: [],
    });
  });
});

describe('cpp negative fixture', () => {
  test('a plain `Service` base, health stubs, smart-pointer calls and strings create no contract', async () => {
    const facts = await extract('negative/lookalikes.cc');
    expect(facts.contracts).toEqual([]);
    expect(facts.symbols.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual([
      'namespace notifications',
      'class notifications::Service',
      'method notifications::Service::~Service',
      'class notifications::Mailer',
      'method notifications::Mailer::Send',
      'method notifications::Mailer::Send',
    ]);
  });
});

describe('cpp rules', () => {
  test('stub members serve calls in out-of-line methods of their class; bare names elsewhere are heuristic', async () => {
    const contracts = await contractsOf(`class OrdersClient {
 public:
  void Place();

 private:
  std::unique_ptr<OrderService::Stub> stub_;
};

void OrdersClient::Place() {
  stub_->PlaceOrder(&ctx_, req_, &resp_);
}

void Audit(Other& other) {
  other.stub_->PlaceOrder(nullptr, {}, nullptr);
  stub_->PrepareAsyncCancelOrder(nullptr, {}, nullptr);
}
`);
    expect(contracts).toEqual([
      {
        kind: 'grpc_client',
        service: 'OrderService',
        symbol: 0,
        line: 6,
        confidence: 'exact',
        via: 'X::Stub member',
      },
      {
        kind: 'grpc_client',
        service: 'OrderService',
        method: 'PlaceOrder',
        symbol: 2,
        line: 10,
        confidence: 'exact',
        via: 'X::Stub call',
      },
      {
        kind: 'grpc_client',
        service: 'OrderService',
        method: 'CancelOrder',
        symbol: 3,
        line: 15,
        confidence: 'heuristic',
        via: 'X::Stub call',
      },
    ]);
  });

  test('include guards are not constants; includes keep their path without delimiters', async () => {
    const facts = await extractSource(`#ifndef ORDERS_H
#define ORDERS_H
#include <vector>
#include "orders/model.h"
#define ORDERS_MAX 10
#endif
`);
    expect(facts.imports).toEqual([
      { source: 'vector', line: 3 },
      { source: 'orders/model.h', line: 4 },
    ]);
    expect(facts.symbols.map((s) => s.name)).toEqual(['ORDERS_MAX']);
  });
});
