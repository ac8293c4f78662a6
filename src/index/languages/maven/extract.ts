/**
 * Maven and servlet descriptors: a `pom.xml` says under which context path a WAR module is deployed, a
 * `WEB-INF/web.xml` which servlets serve which paths. Both are read with a tolerant tag scanner; a file
 * that is neither yields empty facts.
 */
import type { FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { pomMounts } from './pom.js';
import { webXmlContracts } from './web-xml.js';
import { parseXml } from './xml.js';

const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1).toLowerCase();

export function extractMaven(input: ExtractInput): FileFacts {
  const builder = new FactBuilder(input.language);
  const name = fileName(input.path);
  const document = parseXml(input.source);
  const facts =
    name === 'pom.xml'
      ? pomMounts(document, input.path)
      : name === 'web.xml' && /(?:^|\/)WEB-INF\/web\.xml$/i.test(input.path)
        ? webXmlContracts(document, input.path)
        : [];
  for (const fact of facts) builder.addContract(fact);
  return builder.build({});
}
