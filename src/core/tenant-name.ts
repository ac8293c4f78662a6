/**
 * How a tenant (and a role) is spelt: a key names its tenant, `[server.tenants]` and `[server.visibility]` are
 * keyed by it, and a tenant's audit chain is a folder named after it, so the spelling must be safe as one
 * path segment.
 */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const NAME_HELP = 'use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';
