/** Small helpers for reading declarations out of text with their line numbers. */
import { lineAt } from './workspace-files.js';

export interface Located {
  readonly value: string;
  readonly line: number;
}

/** The first capture group of `pattern` in `text`, with the line where the whole match starts. */
export function firstMatch(text: string, pattern: RegExp): Located | undefined {
  const match = pattern.exec(text);
  const value = match?.[1];
  return match && value !== undefined ? { value, line: lineAt(text, match.index) } : undefined;
}

/** Every first capture group of the global `pattern` in `text`, with lines. */
export function allMatches(text: string, pattern: RegExp): Located[] {
  const out: Located[] = [];
  for (const match of text.matchAll(pattern)) {
    const value = match[1];
    if (value !== undefined) out.push({ value, line: lineAt(text, match.index) });
  }
  return out;
}

/** The 1-based line of the first occurrence of `needle`, else 1. */
export function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  return at < 0 ? 1 : lineAt(text, at);
}

/** Comments out of XML, so a commented-out `<module>` is not read. Lines are kept (newlines survive). */
export const withoutXmlComments = (text: string): string =>
  text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));

/** `#` comments out of TOML/Python-like text, keeping lines and offsets. */
export const withoutHashComments = (text: string): string =>
  text.replace(
    /(^|[^"'\w])#[^\n]*/g,
    (comment, lead: string) => lead + ' '.repeat(comment.length - lead.length),
  );
