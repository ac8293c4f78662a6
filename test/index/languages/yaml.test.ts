// The properties of deployment YAML files are golden cases (test/golden/yaml); this file keeps the walk budget.
import { expect, test } from 'vitest';
import { extractYaml } from '../../../src/index/languages/yaml/extract.js';

test('merge-key bombs exhaust the walk budget quickly', () => {
  const levels = ['a: &a {k0: 1, k1: 2, k2: 3, k3: 4, k4: 5, k5: 6, k6: 7, k7: 8}'];
  for (let i = 1; i < 12; i += 1) {
    const prev = String.fromCharCode(96 + i);
    const name = String.fromCharCode(97 + i);
    levels.push(`${name}: &${name} {<<: [${Array(8).fill(`*${prev}`).join(', ')}]}`);
  }
  const source = `${levels.join('\n')}\nservices:\n  web:\n    image: x\n    environment: *l\n`;
  const started = performance.now();
  expect(() => extractYaml({ path: 'docker-compose.yml', language: 'yaml', source })).toThrow(/budget/);
  expect(performance.now() - started).toBeLessThan(2_000);
});
