/** Prints a command's answer on stdout, ending it with one newline. */
export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
