import { Option, type Command } from 'commander';
import type { AnyOperation } from '../core/operation.js';
import type { InvocationResult, Registry } from '../core/registry.js';
import { fieldsOf, limitsText, type FieldInfo } from '../core/schema.js';
import { DOMAINS } from '../core/operation.js';
import type { CliIo } from './cli-io.js';
import { GLOBAL_FLAGS, GLOBAL_VALUE_OPTIONS } from './global-options.js';

/** `include_body` → `--include-body`. */
export const optionName = (field: string): string => `--${field.replace(/_/g, '-')}`;

/**
 * Turns the words after `meshlens <domain> <mode>` into raw arguments. Values stay strings unless the
 * operation declares the field as a number or boolean; anything unknown is passed on as given, so that the
 * registry's validation answers exactly as it would over MCP (naming the field and the nearest valid one).
 */
export function parseOperationWords(
  words: readonly string[],
  fields: readonly FieldInfo[],
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (!word.startsWith('--'))
      throw new UsageError(`unexpected argument "${word}"; arguments are written --name value`);
    const [rawName, inlineValue] = word.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const name = rawName.replace(/-/g, '_');
    const field = fields.find((f) => f.name === name);
    let value: string | undefined = inlineValue;
    if (value === undefined) {
      const next = words[i + 1];
      if (field?.type === 'boolean' && (next === undefined || next.startsWith('--'))) value = 'true';
      else if (next === undefined) throw new UsageError(`--${rawName} needs a value`);
      else {
        value = next;
        i++;
      }
    }
    args[name] = coerce(value, field);
  }
  return args;
}

function coerce(value: string, field: FieldInfo | undefined): unknown {
  if (!field) return value;
  if (field.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (field.type === 'integer' || field.type === 'number') {
    const number = Number(value);
    return value.trim() !== '' && Number.isFinite(number) ? number : value;
  }
  return value;
}

export class UsageError extends Error {}

function fieldHelp(field: FieldInfo): string {
  const limits = limitsText(field);
  return `${field.description}${limits ? ` (${limits})` : ''}${field.required ? ' [required]' : ''}`;
}

export type OperationRunner = (
  op: AnyOperation,
  rawArgs: Record<string, unknown>,
  json: boolean,
) => Promise<InvocationResult>;

/**
 * One subcommand per operation, `meshlens <domain> <mode>`, generated from the registry: the options shown
 * by `--help` are the operation's fields, parsing is the registry's own validation.
 */
export function addOperationCommands(
  program: Command,
  registry: Registry,
  run: OperationRunner,
  argv: readonly string[],
  io: Pick<CliIo, 'status'>,
): void {
  for (const domain of DOMAINS) {
    const ops = registry.operations().filter((op) => op.domain === domain);
    if (ops.length === 0) continue;
    // `graph` is both a lifecycle command (`meshlens graph --format html`) and a domain (`meshlens graph
    // visualize`): the domain's modes become subcommands of the existing command.
    const existing = program.commands.find((c) => c.name() === domain);
    const group =
      existing ??
      program.command(domain).description(`${domain} operations: ${ops.map((o) => o.mode).join(', ')}`);
    for (const op of ops) {
      const fields = fieldsOf(op);
      const command = group
        .command(op.mode)
        .description(
          `${op.title} (MCP: ${op.domain} mode "${op.mode}", flat tool ${op.flatName}). ${op.description}`,
        )
        .allowUnknownOption(true)
        .allowExcessArguments(true)
        .helpOption('-h, --help', 'show the arguments of this operation')
        .addOption(new Option('--json', 'print the JSON rendering instead of Markdown'));
      for (const field of fields) {
        const flag =
          field.type === 'boolean'
            ? `${optionName(field.name)} [value]`
            : `${optionName(field.name)} <value>`;
        command.addOption(new Option(flag, fieldHelp(field)));
      }
      command.action(async () => {
        // Parse from the raw words so that the registry, not commander, judges every field.
        const { words, json } = splitGlobalWords(rawWordsAfter(argv, domain, op.mode));
        const rawArgs = parseOperationWords(words, fields);
        const result = await run(op, rawArgs, json);
        // A failed call, or an answer that reports what a script should fail on (a wire-breaking change).
        io.status = result.isError || result.failing === true ? 1 : 0;
      });
    }
  }
}

/** The words after `<domain> <mode>` in argv (global options before the domain are left to commander). */
export function rawWordsAfter(argv: readonly string[], domain: string, mode: string): string[] {
  for (let i = 0; i < argv.length - 1; i++) {
    if (argv[i] === domain && argv[i + 1] === mode) return argv.slice(i + 2);
  }
  return [];
}

/** Leaves out the words that belong to the CLI itself rather than to the operation, wherever they are written. */
export function splitGlobalWords(words: readonly string[]): { words: string[]; json: boolean } {
  const kept: string[] = [];
  let json = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--json') json = true;
    else if ((GLOBAL_FLAGS as readonly string[]).includes(word)) continue;
    else if ((GLOBAL_VALUE_OPTIONS as readonly string[]).includes(word)) i++;
    else if (GLOBAL_VALUE_OPTIONS.some((o) => word.startsWith(`${o}=`))) continue;
    else kept.push(word);
  }
  return { words: kept, json };
}
