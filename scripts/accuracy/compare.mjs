// The scored categories and the comparison of expected against found keyed sets: precision, recall, and
// what is missing or extra in each. Route categories let an `ANY` route stand for every method on its path.

export const CATEGORIES = [
  {
    key: 'services',
    flag: 'services',
    title: 'services',
    scored: true,
    label: (v) => v.service,
  },
  { key: 'grpc', flag: 'grpc', title: 'gRPC calls', scored: true, label: (v) => `${v.from} -> ${v.to}` },
  {
    key: 'topics',
    flag: 'topics',
    title: 'topics',
    scored: true,
    label: (v) => `${v.topic}: ${v.role} ${v.service}`,
  },
  {
    key: 'served',
    flag: 'routes',
    title: 'HTTP routes served',
    scored: true,
    routes: true,
    label: (v) => `${v.service} ${v.route}`,
  },
  {
    key: 'httpPairs',
    flag: 'http',
    title: 'HTTP calls (service pairs)',
    scored: true,
    label: (v) => `${v.from} -> ${v.to}`,
  },
  {
    key: 'servers',
    title: 'gRPC servers (info)',
    scored: false,
    label: (v) => `${v.service} implements ${v.implements}`,
  },
  {
    key: 'httpRoutes',
    title: 'HTTP calls by route (info)',
    scored: false,
    routes: true,
    label: (v) => `${v.from} -> ${v.to} ${v.route}`,
  },
];

/**
 * Route keys end in `METHOD /path`: an `ANY` route on either side matches every method on the same path
 * (a Next.js pages/api file is one ANY route; an expected ANY route may be found per method).
 */
function routeKeysMatch(a, b) {
  if (a === b) return true;
  const split = (k) => {
    const bar = k.lastIndexOf('|');
    const route = k.slice(bar + 1);
    const space = route.indexOf(' ');
    return { owner: k.slice(0, bar), method: route.slice(0, space), path: route.slice(space + 1) };
  };
  const x = split(a);
  const y = split(b);
  return x.owner === y.owner && x.path === y.path && (x.method === 'ANY' || y.method === 'ANY');
}

export function score(expectedSets, foundSets) {
  const results = [];
  for (const c of CATEGORIES) {
    const exp = expectedSets[c.key];
    const found = foundSets[c.key];
    const matches = c.routes
      ? (ek) => [...found.keys()].some((fk) => routeKeysMatch(ek, fk))
      : (ek) => found.has(ek);
    const isExpected = c.routes
      ? (fk) => [...exp.keys()].some((ek) => routeKeysMatch(ek, fk))
      : (fk) => exp.has(fk);
    const tp = [...exp.keys()].filter(matches);
    const missing = [...exp.keys()]
      .filter((k) => !matches(k))
      .sort()
      .map((k) => ({ edge: c.label(exp.get(k)), evidence: exp.get(k).evidence }));
    const extra = [...found.keys()]
      .filter((k) => !isExpected(k))
      .sort()
      .map((k) => ({ edge: c.label(found.get(k)), evidence: found.get(k).evidence }));
    // Precision counts found entries that match something expected (an ANY route may stand for several).
    const foundMatched = found.size - extra.length;
    results.push({
      key: c.key,
      title: c.title,
      scored: c.scored,
      expected: exp.size,
      found: found.size,
      tp: tp.length,
      precision: found.size === 0 ? 1 : foundMatched / found.size,
      recall: exp.size === 0 ? 1 : tp.length / exp.size,
      missing,
      extra,
    });
  }
  return results;
}
