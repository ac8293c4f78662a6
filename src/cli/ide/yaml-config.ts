import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isMap, isSeq, parseDocument, stringify, type Document, type YAMLMap } from 'yaml';
import { IDE_SERVER_NAME, mergeServerCommand, sameCommand, type OwnedCommand } from './server-command.js';
import { KEPT_DETAIL, type IdeConfigResult, type JsonObject } from './result.js';

/**
 * Continue reads MCP servers from block files in `.continue/mcpServers/`: a YAML document with the block's
 * `name`, `version` and `schema`, and a `mcpServers` list whose items are named. meshlens keeps its own block
 * file; the `yaml` library's document model keeps the comments of a file someone edited.
 */
function newBlock(command: { command: string; args: readonly string[] }): string {
  const block = {
    name: IDE_SERVER_NAME,
    version: '0.0.1',
    schema: 'v1',
    mcpServers: [{ name: IDE_SERVER_NAME, command: command.command, args: [...command.args] }],
  };
  return stringify(block);
}

function meshlensItem(document: Document): { item?: YAMLMap; error?: string } {
  if (!isMap(document.contents)) return { error: 'not a YAML mapping' };
  const servers = document.contents.get('mcpServers');
  if (servers === undefined) return {};
  if (!isSeq(servers)) return { error: '`mcpServers` is not a list' };
  const item = servers.items.find((node) => isMap(node) && node.get('name') === IDE_SERVER_NAME);
  return item === undefined ? {} : { item: item as YAMLMap };
}

/** Merges the meshlens server into a Continue block file, keeping the user's arguments, keys and comments. */
export function mergeContinueBlock(file: string, owned: OwnedCommand): IdeConfigResult {
  if (!existsSync(file)) {
    const command = mergeServerCommand(owned) as { command: string; args: readonly string[] };
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, newBlock(command));
    return { file, status: 'created' };
  }
  const document = parseDocument(readFileSync(file, 'utf8'));
  const problem = document.errors[0];
  if (problem !== undefined)
    return { file, status: 'invalid', detail: `not valid YAML (${problem.message.split('\n')[0]})` };
  const found = meshlensItem(document);
  if (found.error !== undefined) return { file, status: 'invalid', detail: found.error };
  const previous = found.item?.toJSON() as JsonObject | undefined;
  const command = mergeServerCommand(owned, previous);
  if (command === undefined) return { file, status: 'kept', detail: KEPT_DETAIL };
  if (sameCommand(previous, command)) return { file, status: 'unchanged' };
  if (found.item === undefined) {
    const item = { name: IDE_SERVER_NAME, command: command.command, args: [...command.args] };
    const servers = (document.contents as YAMLMap).get('mcpServers');
    if (isSeq(servers)) servers.add(document.createNode(item));
    else document.set('mcpServers', document.createNode([item]));
  } else {
    if (previous?.command !== command.command) found.item.set('command', command.command);
    if (!isDeepStrictEqual(previous?.args, command.args))
      found.item.set('args', document.createNode([...command.args]));
  }
  writeFileSync(file, document.toString());
  return { file, status: 'updated' };
}
