/**
 * Files that make a folder a load generator by themselves: a Locust `locustfile.py`, a JMeter test plan
 * (`*.jmx`), a k6 script (`*.k6.js`, `k6*.js` importing `k6/http`; other k6 scripts are known by their image or package), a Gatling simulation.
 */
import { learnt, type Finding, type ManifestReader } from '../finding.js';
import { firstMatch } from '../text-match.js';

const K6_IMPORT = /from\s+['"](k6\/http|k6)['"]/;

export const loadgenMarkerReader: ManifestReader = {
  id: 'load-test files',
  matches: (name) => name === 'locustfile.py' || name.endsWith('.jmx') || /(^k6.*|\.k6)\.[jt]s$/.test(name),
  read: (files) => {
    const out: Finding[] = [];
    for (const file of files) {
      let how: string | undefined;
      let line = 1;
      if (file.name === 'locustfile.py') how = 'Locust locustfile';
      else if (file.name.endsWith('.jmx')) how = 'JMeter test plan';
      else {
        const k6 = firstMatch(file.text, K6_IMPORT);
        if (k6) [how, line] = ['k6 script', k6.line];
      }
      if (!how) continue;
      const from = learnt(file.path, line, how);
      out.push(
        { type: 'unit', folder: file.folder, role: 'marker', from },
        { type: 'kind', folder: file.folder, kind: 'loadgen', from },
      );
    }
    return out;
  },
};
