import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { substituteWorkspaceRoot } from '../core/config.js';
import { operationKey, type AnyOperation } from '../core/operation.js';
import { anchoredSubject } from './policy-anchors.js';

/** Only the head of a skill file is read: the front matter and the title are at the top. */
const HEAD_LINES = 20;
const HEAD_BYTES = 16 * 1024;
/** The description's share of the one-line hint, in UTF-8 bytes. */
export const DESCRIPTION_MAX_BYTES = 200;

export interface SkillHintsOptions {
  /** `[policy.skills]`: operation name or subject fragment → Markdown file. */
  readonly skills: Readonly<Record<string, string>>;
  /** The config folder: skill paths resolve against it and are shown relative to it. */
  readonly baseDir: string;
  /** `$WORKSPACE_ROOT`, for `${WORKSPACE_ROOT}` in a skill path. */
  readonly workspaceRoot?: string | undefined;
  /** Absolute subjects are matched relative to these (see `anchoredSubject`). */
  readonly anchors?: readonly string[];
}

export interface SkillEntry {
  readonly key: string;
  /** Absolute. */
  readonly file: string;
  /** As shown in the hint: relative to the config folder, `/`-separated. */
  readonly display: string;
}

interface CachedSkill {
  readonly mtimeMs: number;
  readonly size: number;
  readonly description: string | undefined;
}

/**
 * Project skill hints: one line at the top of an answer pointing the agent at the team's own guide for the
 * area it is working in. A key equal to the operation's name fires on every call of it; otherwise the
 * longest key found (case-insensitively) in the subject wins.
 */
export class SkillHints {
  readonly entries: readonly SkillEntry[];
  private readonly anchors: readonly string[];
  private readonly cache = new Map<string, CachedSkill>();

  constructor(options: SkillHintsOptions) {
    this.anchors = options.anchors ?? [];
    this.entries = Object.entries(options.skills)
      .map(([key, value]) => {
        const file = path.resolve(
          options.baseDir,
          substituteWorkspaceRoot(value, options.workspaceRoot, options.baseDir),
        );
        const display = path.relative(options.baseDir, file).split(path.sep).join('/');
        return { key, file, display: display === '' ? file : display };
      })
      .sort(byLengthThenName);
  }

  /** The skill entry that applies to a call, if any (whether or not its file exists). */
  select(op: AnyOperation, subject: string | undefined): SkillEntry | undefined {
    const names = new Set([op.flatName, operationKey(op)]);
    const byName = this.entries.find((entry) => names.has(entry.key));
    if (byName) return byName;
    if (subject === undefined) return undefined;
    const haystack = anchoredSubject(subject, this.anchors).toLowerCase();
    return this.entries.find((entry) => entry.key !== '' && haystack.includes(entry.key.toLowerCase()));
  }

  /** The one-line hint for a call, or undefined (no key matches, or the skill file is missing). */
  hint(op: AnyOperation, subject: string | undefined): string | undefined {
    const entry = this.select(op, subject);
    if (!entry) return undefined;
    const skill = this.read(entry.file);
    if (!skill) return undefined;
    const head = `Project skill for this area: \`${entry.display}\``;
    return skill.description ? `${head} — ${skill.description}` : head;
  }

  /** Read once, then again only when the file's mtime or size changes. */
  private read(file: string): CachedSkill | undefined {
    let stat: Stats;
    try {
      stat = statSync(file);
    } catch {
      this.cache.delete(file);
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
    let text: string;
    try {
      text = readHead(file);
    } catch {
      return undefined;
    }
    const fresh = { mtimeMs: stat.mtimeMs, size: stat.size, description: describeSkill(text) };
    this.cache.set(file, fresh);
    return fresh;
  }
}

function byLengthThenName(a: { key: string }, b: { key: string }): number {
  return b.key.length - a.key.length || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function readHead(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * What a skill file says it is about: the front matter's `description:` or else the first `# ` heading, both
 * looked for in the first 20 lines; one line, at most 200 bytes.
 */
export function describeSkill(text: string): string | undefined {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(0, HEAD_LINES);
  let bodyStart = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
    const front = lines.slice(1, end < 0 ? lines.length : end);
    const description = frontMatterDescription(front);
    if (description) return capBytes(description, DESCRIPTION_MAX_BYTES);
    bodyStart = end < 0 ? lines.length : end + 1;
  }
  for (const line of lines.slice(bodyStart)) {
    const heading = /^#[ \t]+(.*?)[ \t#]*$/.exec(line);
    const title = heading?.[1] ? oneLine(heading[1]) : '';
    if (title) return capBytes(title, DESCRIPTION_MAX_BYTES);
  }
  return undefined;
}

function frontMatterDescription(front: readonly string[]): string | undefined {
  const at = front.findIndex((line) => /^description[ \t]*:/.test(line));
  if (at < 0) return undefined;
  const value = (front[at] ?? '').replace(/^description[ \t]*:/, '').trim();
  // A YAML block scalar (`>` or `|`) continues on the following indented lines.
  if (value === '' || /^[>|][+-]?$/.test(value)) {
    const continued: string[] = [];
    for (const line of front.slice(at + 1)) {
      if (!/^[ \t]+\S/.test(line)) break;
      continued.push(line.trim());
    }
    return oneLine(continued.join(' ')) || undefined;
  }
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return oneLine(quoted ? (quoted[2] ?? '') : value) || undefined;
}

const oneLine = (value: string): string => value.replace(/\s+/g, ' ').trim();

/** At most `max` UTF-8 bytes, cut between characters, ending in `…` when cut. */
export function capBytes(value: string, max: number): string {
  if (Buffer.byteLength(value, 'utf8') <= max) return value;
  const ellipsis = '…';
  const budget = max - Buffer.byteLength(ellipsis, 'utf8');
  let used = 0;
  let out = '';
  for (const char of value) {
    const size = Buffer.byteLength(char, 'utf8');
    if (used + size > budget) break;
    used += size;
    out += char;
  }
  return `${out.trimEnd()}${ellipsis}`;
}
