/**
 * Blanks comments (and, unless kept, string contents) with spaces, keeping every line break, so that
 * regular expressions and the line scanner see only declarations and line numbers stay true.
 */
export function blankCommentsAndStrings(text: string, keepStrings = false): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if ((c === '"' || c === "'") && !keepStrings) {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += `${c}${' '.repeat(Math.max(0, Math.min(j, text.length) - i - 1))}${j < text.length ? c : ''}`;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
