import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import {
  IDE_SERVER_NAME,
  mergeServerCommand,
  sameCommand,
  type OwnedCommand,
  type ServerCommand,
} from './server-command.js';
import { isObject, KEPT_DETAIL, type IdeConfigResult, type JsonObject } from './result.js';

/**
 * Codex's `config.toml` keeps servers as `[mcp_servers.<name>]` tables. No TOML library on npm edits a file
 * while keeping its comments, so the edit is done on lines: only the `command` and `args` lines of the
 * meshlens table are replaced (or the table is appended), and the result is parsed again and compared with
 * what was meant before anything is written.
 */

// TOML basic strings take JSON's escapes, so JSON.stringify writes a valid TOML string.
const tomlString = (value: string): string => JSON.stringify(value);
const tomlValue = (value: string | readonly string[]): string =>
  typeof value === 'string' ? tomlString(value) : `[${value.map(tomlString).join(', ')}]`;

const TABLE_HEADER = new RegExp(
  `^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(?:${IDE_SERVER_NAME}|"${IDE_SERVER_NAME}"|'${IDE_SERVER_NAME}')\\s*\\]\\s*(?:#.*)?$`,
);
const ANY_HEADER = /^\s*\[/;

const keyLine = (key: string) => new RegExp(`^(\\s*)(?:${key}|"${key}"|'${key}')\\s*=`);

/** Where a trailing `# comment` starts on a one-line `key = value`, outside any string; -1 if none. */
function commentStart(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === '"' && char === '\\') i++;
    else if (quote !== undefined && char === quote) quote = undefined;
    else if (quote === undefined && (char === '"' || char === "'")) quote = char;
    else if (quote === undefined && char === '#') return i;
  }
  return -1;
}

/** How many lines the value starting on `lines[start]` spans: the fewest that parse as TOML. */
function valueLineCount(lines: readonly string[], start: number, end: number): number {
  for (let count = 1; start + count <= end; count++) {
    try {
      parseToml(lines.slice(start, start + count).join('\n'));
      return count;
    } catch {
      // The value (a multi-line array) goes on.
    }
  }
  return 1;
}

/** Replaces (or inserts after `after`) one `key = value` line of the table spanning lines (header, end). */
function setKey(lines: string[], header: number, key: string, value: string | readonly string[]): void {
  let end = lines.findIndex((line, i) => i > header && ANY_HEADER.test(line));
  if (end < 0) end = lines.length;
  const pattern = keyLine(key);
  const start = lines.findIndex((line, i) => i > header && i < end && pattern.test(line));
  if (start < 0) {
    const command = lines.findIndex((line, i) => i > header && i < end && keyLine('command').test(line));
    lines.splice(command < 0 ? header + 1 : command + 1, 0, `${key} = ${tomlValue(value)}`);
    return;
  }
  const count = valueLineCount(lines, start, end);
  const first = lines[start] as string;
  const indent = pattern.exec(first)?.[1] ?? '';
  if (count > 1 && typeof value !== 'string') {
    // A list written one item a line stays so, indented like its first item.
    const itemIndent = /^\s*/.exec(lines[start + 1] as string)?.[0] || `${indent}  `;
    const items = value.map((item) => `${itemIndent}${tomlString(item)},`);
    lines.splice(start, count, `${indent}${key} = [`, ...items, `${indent}]`);
    return;
  }
  const comment = count === 1 && commentStart(first) >= 0 ? `  ${first.slice(commentStart(first))}` : '';
  lines.splice(start, count, `${indent}${key} = ${tomlValue(value)}${comment}`);
}

function appendTable(text: string, command: ServerCommand, eol: string): string {
  const table = [
    `[mcp_servers.${IDE_SERVER_NAME}]`,
    `command = ${tomlValue(command.command)}`,
    `args = ${tomlValue(command.args)}`,
  ].join(eol);
  if (text.trim() === '') return `${table}${eol}`;
  return `${text.replace(/\s*$/, '')}${eol}${eol}${table}${eol}`;
}

function editTable(
  text: string,
  previous: JsonObject,
  command: ServerCommand,
  eol: string,
): string | undefined {
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((line) => TABLE_HEADER.test(line));
  if (header < 0) return undefined;
  if (previous.command !== command.command) setKey(lines, header, 'command', command.command);
  if (!isDeepStrictEqual(previous.args, command.args)) setKey(lines, header, 'args', command.args);
  return lines.join(eol);
}

function parseOrError(text: string): { value: JsonObject } | { error: string } {
  try {
    return { value: parseToml(text) as JsonObject };
  } catch (error) {
    return { error: `not valid TOML (${(error as Error).message.split('\n')[0]})` };
  }
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** True when `text` parses to `before` with only the meshlens entry's command and args set to `command`. */
function saysExactly(
  text: string,
  before: JsonObject,
  previous: JsonObject | undefined,
  command: ServerCommand,
) {
  const servers = isObject(before.mcp_servers) ? before.mcp_servers : {};
  const meant = {
    ...before,
    mcp_servers: {
      ...servers,
      [IDE_SERVER_NAME]: { ...previous, command: command.command, args: command.args },
    },
  };
  const after = parseOrError(text);
  // smol-toml's tables are not plain objects: compare what they hold.
  return 'value' in after && isDeepStrictEqual(plain(after.value), plain(meant));
}

/** Merges the meshlens table into a Codex `config.toml`, keeping everything else of the file as it was. */
export function mergeCodexToml(file: string, owned: OwnedCommand): IdeConfigResult {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const read = parseOrError(before ?? '');
  if ('error' in read) return { file, status: 'invalid', detail: read.error };
  const servers = read.value.mcp_servers;
  if (servers !== undefined && !isObject(servers))
    return { file, status: 'invalid', detail: '`mcp_servers` is not a table' };
  const previous = servers?.[IDE_SERVER_NAME];
  if (previous !== undefined && !isObject(previous))
    return { file, status: 'invalid', detail: `\`mcp_servers.${IDE_SERVER_NAME}\` is not a table` };
  const command = mergeServerCommand(owned, previous);
  if (command === undefined) return { file, status: 'kept', detail: KEPT_DETAIL };
  if (sameCommand(previous, command)) return { file, status: 'unchanged' };
  const eol = before?.includes('\r\n') ? '\r\n' : '\n';
  const text =
    previous === undefined
      ? appendTable(before ?? '', command, eol)
      : editTable(before ?? '', previous, command, eol);
  if (text === undefined || !saysExactly(text, read.value, previous, command)) {
    const detail = `its \`mcp_servers.${IDE_SERVER_NAME}\` is not written as a [mcp_servers.${IDE_SERVER_NAME}] table this command can edit`;
    return { file, status: 'invalid', detail };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, status: before === undefined ? 'created' : 'updated' };
}
