/**
 * Dotenv files as compose reads them (`.env` beside a compose file for `${VAR}` interpolation, `env_file:`
 * for a service's environment), and compose's interpolation itself. Values of variables whose names say
 * they hold a credential are never kept: the model carries addresses, not secrets.
 */
const SECRET_NAME = /passw(or)?d|(^|_)pass($|_)|secret|token|credential|(^|_)key$|api_?key/i;

export const looksSecret = (name: string): boolean => SECRET_NAME.test(name);

export interface EnvLine {
  readonly name: string;
  readonly value: string;
  readonly line: number;
}

/** `KEY=VALUE` lines (`export ` allowed, quotes stripped, `#` comments skipped); secret-named keys dropped. */
export function parseEnvFile(text: string): EnvLine[] {
  const out: EnvLine[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!match?.[1] || looksSecret(match[1])) continue;
    let value = match[2] ?? '';
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2] ?? '';
    else value = value.replace(/\s+#.*$/, '');
    out.push({ name: match[1], value, line: index + 1 });
  }
  return out;
}

/**
 * Compose interpolation: `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?err}`, `$VAR`, `$$` → `$`.
 * A variable with no value and no default stays as written, so nobody mistakes it for an empty string.
 */
export function interpolate(text: string, vars: ReadonlyMap<string, string>, depth = 0): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_]\w*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_]\w*)/g,
    (whole, braced, op, arg, bare) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare) as string;
      const value = vars.get(name);
      const operator = op as string | undefined;
      const fallback = depth < 4 ? interpolate(String(arg ?? ''), vars, depth + 1) : String(arg ?? '');
      if (operator === ':-') return value ? value : fallback;
      if (operator === '-') return value !== undefined ? value : fallback;
      if (operator === ':+') return value ? fallback : '';
      if (operator === '+') return value !== undefined ? fallback : '';
      return value ?? whole;
    },
  );
}

/** A dotenv file's variables, each interpolated with the ones before it (compose allows `B=${A}/x`). */
export function envFileVariables(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of parseEnvFile(text)) vars.set(line.name, interpolate(line.value, vars));
  return vars;
}
