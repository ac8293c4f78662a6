/** The tools of the domain surface, in listing order: one per domain, plus each writing mode's own tool. */
export const MEMORY_TOOLS = ['memory', 'memory_put', 'memory_delete'] as const;
export const DOMAIN_SURFACE_TOOLS = [
  'code',
  'contracts',
  'docs',
  'graph',
  'git',
  'admin',
  'admin_rescan',
  ...MEMORY_TOOLS,
] as const;
