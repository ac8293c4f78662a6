import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { formattingOf, JSONC_OPTIONS, setValue } from './jsonc-edit.js';
import { IDE_SERVER_NAME, mergeServerCommand, type OwnedCommand } from './server-command.js';
import { isObject, KEPT_DETAIL, type IdeConfigResult, type JsonObject } from './result.js';

/** A client config in JSON with comments (what VS Code, Cursor, Zed and Gemini CLI read). */
export interface JsoncTarget {
  readonly file: string;
  /** The top-level key holding the servers: `mcpServers`, `servers` (VS Code), `context_servers` (Zed). */
  readonly serversKey: string;
  /** Further keys meshlens owns in its entry, with their values (VS Code's `type: "stdio"`). */
  readonly fixed?: JsonObject;
}

function lineAndColumn(text: string, offset: number): string {
  const lines = text.slice(0, offset).split('\n');
  return `line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
}

function readJsonc(text: string): { value: unknown } | { error: string } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, JSONC_OPTIONS);
  const first = errors[0];
  if (first === undefined) return { value };
  const where = lineAndColumn(text, first.offset);
  return { error: `not valid JSON, even with comments (${printParseErrorCode(first.error)} at ${where})` };
}

function invalid(file: string, detail: string): IdeConfigResult {
  return { file, status: 'invalid', detail };
}

/** The meshlens entry of a parsed config, or why the file cannot take one. */
function previousEntry(root: unknown, serversKey: string): { entry?: JsonObject } | { error: string } {
  if (root === undefined) return {};
  if (!isObject(root)) return { error: 'not a JSON object' };
  const servers = root[serversKey];
  if (servers === undefined) return {};
  if (!isObject(servers)) return { error: `\`${serversKey}\` is not an object` };
  const entry = servers[IDE_SERVER_NAME];
  if (entry !== undefined && !isObject(entry))
    return { error: `\`${serversKey}.${IDE_SERVER_NAME}\` is not an object` };
  return entry === undefined ? {} : { entry };
}

/**
 * Merges the meshlens entry into one JSON-with-comments client config. Only what meshlens owns (the command,
 * its arguments up to `serve` and `--workspace`, and `fixed`) is written: the user's own arguments, other keys
 * of the entry, other servers, comments and formatting stay. A file that cannot be read is never rewritten.
 */
export function mergeJsoncConfig(target: JsoncTarget, owned: OwnedCommand): IdeConfigResult {
  const { file, serversKey } = target;
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const read = readJsonc(before ?? '');
  if ('error' in read) return invalid(file, read.error);
  const found = previousEntry(read.value, serversKey);
  if ('error' in found) return invalid(file, found.error);
  const command = mergeServerCommand(owned, found.entry);
  if (command === undefined) return { file, status: 'kept', detail: KEPT_DETAIL };
  const wanted: JsonObject = { ...target.fixed, command: command.command, args: command.args };
  const formatting = formattingOf(before ?? '');
  let text = before ?? '';
  if (found.entry === undefined) {
    text = setValue(text, [serversKey, IDE_SERVER_NAME], wanted, formatting);
  } else {
    for (const [key, value] of Object.entries(wanted)) {
      if (!isDeepStrictEqual(found.entry[key], value))
        text = setValue(text, [serversKey, IDE_SERVER_NAME, key], value, formatting);
    }
  }
  if (text === before) return { file, status: 'unchanged' };
  if (before === undefined) text += formatting.eol;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return { file, status: before === undefined ? 'created' : 'updated' };
}
